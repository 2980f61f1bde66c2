package dev.openaccel.opencl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.LoggerFactory;

/**
 * Warns, once per JVM, when PoCL compiles a program in a JVM without signal chaining (not when the
 * backend merely starts: an application that never uses an OpenCL device is not warned). PoCL
 * compiles kernels with LLVM, which replaces the JVM's SIGSEGV and SIGBUS handlers with its own
 * ({@code -Xcheck:jni} shows them in {@code libLLVM}, with {@code SA_RESETHAND}); the JVM raises
 * those signals itself (implicit null checks, safepoint polls), and the test JVM then died of a
 * plain "Segmentation fault" with no error file. With the JDK's {@code libjsig} preloaded, the
 * JVM's handlers stay installed and LLVM's are chained behind them. Internal.
 */
final class SignalChaining {
  private static final String POCL = "Portable Computing Language";
  private static final AtomicBoolean CHECKED = new AtomicBoolean();

  private SignalChaining() {}

  /**
   * Logs the warning if {@code platformName} is PoCL and this JVM has no {@code libjsig}; checks
   * once per JVM (the first compile), so later compiles cost a read of a flag.
   */
  static void checkFor(String platformName) {
    if (platformName.contains(POCL) && !CHECKED.get() && CHECKED.compareAndSet(false, true)) {
      warning(platformName, mappedLibraries())
          .ifPresent(warning -> LoggerFactory.getLogger(SignalChaining.class).warn("{}", warning));
    }
  }

  /**
   * The warning for {@code platformName}, given the JVM's mapped libraries ({@code
   * /proc/self/maps}; empty where there is none to read, as on other systems, which then get no
   * warning).
   */
  static Optional<String> warning(String platformName, String mappedLibraries) {
    if (!platformName.contains(POCL)
        || mappedLibraries.isEmpty()
        || mappedLibraries.contains("libjsig")) {
      return Optional.empty();
    }
    return Optional.of(
        "PoCL's LLVM replaces the JVM's SIGSEGV and SIGBUS handlers while it compiles kernels, which"
            + " can kill the JVM with a plain \"Segmentation fault\"; start the JVM with LD_PRELOAD="
            + Path.of(System.getProperty("java.home"), "lib", "libjsig.so")
            + " (the JDK's signal chaining; see the opencl backend's README, \"PoCL\")");
  }

  private static String mappedLibraries() {
    Path maps = Path.of("/proc/self/maps");
    try {
      return Files.isReadable(maps) ? Files.readString(maps) : "";
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }
}
