package dev.openaccel.opencl;

/**
 * One parameter of a device kernel, as the compiler reports it.
 *
 * @param index position, from 0
 * @param space where a pointer points, or {@link Space#PRIVATE} for a value
 * @param typeName the OpenCL C type, e.g. {@code float*} or {@code uint}
 * @param name the parameter's name in the source
 */
public record KernelParameter(int index, Space space, String typeName, String name) {

  /** The address space of a parameter (OpenCL's address qualifier). */
  public enum Space {
    /** {@code __global}: takes a {@link dev.openaccel.runtime.DeviceBuffer}. */
    GLOBAL,
    /** {@code __constant}: takes a {@link dev.openaccel.runtime.DeviceBuffer}. */
    CONSTANT,
    /** {@code __local}: takes a {@link LocalMemory}. */
    LOCAL,
    /**
     * A value: takes the boxed Java type of its scalar type ({@code int} and {@code uint}:
     * Integer).
     */
    PRIVATE
  }

  @Override
  public String toString() {
    return (space == Space.PRIVATE
            ? ""
            : "__" + space.name().toLowerCase(java.util.Locale.ROOT) + " ")
        + typeName
        + " "
        + name;
  }
}
