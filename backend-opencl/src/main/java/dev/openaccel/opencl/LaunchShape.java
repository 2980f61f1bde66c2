package dev.openaccel.opencl;

import static org.lwjgl.system.MemoryUtil.memPutAddress;
import static org.lwjgl.system.Pointer.POINTER_SIZE;

import java.util.Arrays;
import org.lwjgl.system.MemoryStack;

/**
 * The shape of a device-kernel launch: the global size (work-items per dimension, CUDA's grid size
 * times block size) and optionally the local size (work-group, CUDA's block). One to three
 * dimensions; with a local size, each global size must be a multiple of it. The same shape serves
 * an OpenCL {@code clEnqueueNDRangeKernel} and a CUDA {@code cuLaunchKernel} (grid = global /
 * local).
 *
 * <pre>{@code
 * LaunchShape.of(1024, 1024).local(16, 4)   // 2-D, work-groups of 16 x 4
 * }</pre>
 *
 * @param global work-items per dimension, each {@code > 0}
 * @param local work-group size per dimension, or empty to let the device choose
 */
public record LaunchShape(long[] global, long[] local) {

  /**
   * Copies both arrays and checks them.
   *
   * @throws IllegalArgumentException naming the sizes: fewer than 1 or more than 3 dimensions, a
   *     global size {@code <= 0}, or a local size of another dimension count or that does not
   *     divide the global size
   */
  public LaunchShape {
    global = global.clone();
    local = local.clone();
    if (global.length < 1 || global.length > 3) {
      throw new IllegalArgumentException(
          "a launch has 1 to 3 dimensions, got " + global.length + ": " + Arrays.toString(global));
    }
    for (long g : global) {
      if (g <= 0) {
        throw new IllegalArgumentException(
            "global sizes must be > 0, got " + Arrays.toString(global));
      }
    }
    if (local.length != 0) {
      if (local.length != global.length) {
        throw new IllegalArgumentException(
            "local size "
                + Arrays.toString(local)
                + " must have as many dimensions as global size "
                + Arrays.toString(global));
      }
      for (int i = 0; i < local.length; i++) {
        if (local[i] <= 0 || global[i] % local[i] != 0) {
          throw new IllegalArgumentException(
              "global size "
                  + Arrays.toString(global)
                  + " must be a positive multiple of local size "
                  + Arrays.toString(local)
                  + " in every dimension");
        }
      }
    }
  }

  /** A shape of {@code global} work-items, work-group size chosen by the device. */
  public static LaunchShape of(long... global) {
    return new LaunchShape(global, new long[0]);
  }

  /** This shape with work-groups of {@code local}. */
  public LaunchShape local(long... local) {
    return new LaunchShape(global, local);
  }

  /** The number of dimensions, 1 to 3. */
  public int dimensions() {
    return global.length;
  }

  /**
   * The global sizes as a {@code size_t} array on {@code stack}, for {@code
   * clEnqueueNDRangeKernel}: its address (no copy of the array on the heap).
   */
  long global(MemoryStack stack) {
    return sizes(stack, global);
  }

  /** The local sizes as a {@code size_t} array on {@code stack}: its address, 0 if none. */
  long local(MemoryStack stack) {
    return local.length == 0 ? 0L : sizes(stack, local);
  }

  private static long sizes(MemoryStack stack, long[] sizes) {
    long address = stack.nmalloc(POINTER_SIZE, sizes.length * POINTER_SIZE);
    for (int i = 0; i < sizes.length; i++) {
      memPutAddress(address + (long) i * POINTER_SIZE, sizes[i]);
    }
    return address;
  }

  /** A copy of the global sizes. */
  @Override
  public long[] global() {
    return global.clone();
  }

  /** A copy of the local sizes; empty if the device chooses. */
  @Override
  public long[] local() {
    return local.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LaunchShape s
        && Arrays.equals(global, s.global)
        && Arrays.equals(local, s.local);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(global) + Arrays.hashCode(local);
  }

  @Override
  public String toString() {
    return Arrays.toString(global) + (local.length == 0 ? "" : " / " + Arrays.toString(local));
  }
}
