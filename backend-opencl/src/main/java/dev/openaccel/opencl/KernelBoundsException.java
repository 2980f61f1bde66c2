package dev.openaccel.opencl;

import dev.openaccel.runtime.DeviceExecutionException;

/**
 * A launch of a checked kernel accessed a {@code __global} argument out of its buffer's bounds (see
 * {@link ProgramOptions#checked(boolean)}). It fails the launch like any failed kernel: the next
 * sync point covering it throws a {@link DeviceExecutionException} whose cause is this exception,
 * and the stream runs later work as usual. It names the first out-of-bounds access the device
 * recorded; in the launch, every out-of-bounds read gave 0 and every out-of-bounds write was
 * skipped, so no buffer was touched outside its bounds. Immutable.
 */
public final class KernelBoundsException extends DeviceExecutionException {
  private static final long serialVersionUID = 1L;

  private final String kernel;
  private final int argument;
  private final String parameter;
  private final boolean write;
  private final long index;
  private final long elements;
  private final long accesses;

  KernelBoundsException(
      String kernel,
      String launchName,
      KernelParameter parameter,
      boolean write,
      long index,
      long elements,
      long accesses) {
    super(
        "kernel "
            + kernel
            + (launchName.equals(kernel) ? "" : " (launch '" + launchName + "')")
            + " argument "
            + parameter.index()
            + " ("
            + parameter
            + "): out-of-bounds "
            + (write ? "write" : "read")
            + " at index "
            + index
            + ", outside its "
            + elements
            + " elements ("
            + Long.toUnsignedString(accesses)
            + " out-of-bounds accesses in the launch; out-of-bounds reads gave 0 and writes were"
            + " skipped)");
    this.kernel = kernel;
    this.argument = parameter.index();
    this.parameter = parameter.toString();
    this.write = write;
    this.index = index;
    this.elements = elements;
    this.accesses = accesses;
  }

  /** The kernel's name. */
  public String kernel() {
    return kernel;
  }

  /** The index of the argument accessed out of bounds, as in {@link DeviceKernel#parameters()}. */
  public int argument() {
    return argument;
  }

  /** The parameter as declared, e.g. {@code __global float* y}. */
  public String parameter() {
    return parameter;
  }

  /** True for a write (or an atomic, or a read-modify-write), false for a read. */
  public boolean write() {
    return write;
  }

  /** The index of the first out-of-bounds access the device recorded, in elements. */
  public long index() {
    return index;
  }

  /** The elements of the argument's buffer: its bytes divided by the element type's size. */
  public long elements() {
    return elements;
  }

  /** How many accesses of the launch were out of bounds (modulo 2^64, as unsigned). */
  public long accesses() {
    return accesses;
  }
}
