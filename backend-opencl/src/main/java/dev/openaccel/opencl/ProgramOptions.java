package dev.openaccel.opencl;

import java.util.Objects;

/**
 * How {@link OpenCl#compile(String, ProgramOptions)} builds a program: its own build options (after
 * {@code openaccel.opencl.build-options}) and whether its kernels are checked.
 *
 * <pre>{@code
 * DeviceProgram program = opencl.compile(source, ProgramOptions.of("-DTILE=16").checked(true));
 * }</pre>
 *
 * <p>A checked kernel turns an out-of-bounds access to a {@code __global} pointer parameter into a
 * {@link KernelBoundsException} at the stream's next sync point, instead of whatever the device
 * does (on a CPU platform such as PoCL, a crash of the JVM). The source must index each such
 * parameter directly, {@code p[index]}; a program that makes other pointers from one is refused at
 * compile (the module's README lists the rules and the cost).
 *
 * @param buildOptions options for {@code clBuildProgram}, after the configured ones
 * @param checking whether the kernels are checked
 */
public record ProgramOptions(String buildOptions, Checking checking) {

  /** Whether a program's kernels check their accesses. */
  public enum Checking {
    /** As {@code openaccel.opencl.checked-kernels} says (off by default). */
    CONFIGURED,
    /** Checked, whatever the configuration says. */
    ON,
    /** Not checked, whatever the configuration says: the source is built as it is. */
    OFF
  }

  /**
   * @throws NullPointerException if either is null
   */
  public ProgramOptions {
    Objects.requireNonNull(buildOptions, "buildOptions");
    Objects.requireNonNull(checking, "checking");
  }

  /** No build options of its own, checked as configured. */
  public static ProgramOptions defaults() {
    return of("");
  }

  /** The build options {@code buildOptions}, checked as configured. */
  public static ProgramOptions of(String buildOptions) {
    return new ProgramOptions(buildOptions, Checking.CONFIGURED);
  }

  /** These options with the kernels checked ({@code true}) or not, whatever the configuration. */
  public ProgramOptions checked(boolean checked) {
    return new ProgramOptions(buildOptions, checked ? Checking.ON : Checking.OFF);
  }

  /** Whether the kernels are checked, given the configured default. */
  boolean checkedWith(boolean configured) {
    return checking == Checking.CONFIGURED ? configured : checking == Checking.ON;
  }
}
