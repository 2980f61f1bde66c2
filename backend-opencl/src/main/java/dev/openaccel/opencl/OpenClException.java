package dev.openaccel.opencl;

import dev.openaccel.runtime.AcceleratorException;

/**
 * An OpenCL call failed: the message names the call and the error, e.g. {@code
 * clSetKernelArg(sgemm, 2) failed: CL_INVALID_ARG_SIZE (-51)}. {@link #code()} is the raw OpenCL
 * error code; {@link #name()} its symbolic name.
 */
public class OpenClException extends AcceleratorException {
  private static final long serialVersionUID = 1L;

  private final int code;

  /**
   * An error of {@code call} with OpenCL error code {@code code}: "{@code <call> failed: <name>
   * (<code>)}".
   */
  public OpenClException(String call, int code) {
    this(call, code, "");
  }

  /** An error whose message continues with {@code detail} (e.g. a program's build log). */
  public OpenClException(String call, int code, String detail) {
    super(call + " failed: " + ClErrors.describe(code) + detail);
    this.code = code;
  }

  /** The OpenCL error code, negative. */
  public int code() {
    return code;
  }

  /** The symbolic name of {@link #code()}, e.g. {@code CL_INVALID_KERNEL_ARGS}. */
  public String name() {
    return ClErrors.name(code);
  }
}
