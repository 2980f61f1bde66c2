package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SignalChainingTest {
  private static final String POCL = "Portable Computing Language";
  private static final String MAPS =
      "7f34 r-xp 00000000 08:01 1 /usr/lib/x86_64-linux-gnu/libLLVM-15.so.1\n"
          + "7f35 r-xp 00000000 08:01 2 /usr/lib/jvm/java-17/lib/server/libjvm.so\n";

  @Test
  void poclWithoutSignalChainingIsWarnedAboutNamingTheLibraryToPreload() {
    String warning = SignalChaining.warning(POCL, MAPS).orElseThrow();
    assertTrue(warning.contains("SIGSEGV and SIGBUS"), warning);
    assertTrue(
        warning.contains(
            "LD_PRELOAD=" + Path.of(System.getProperty("java.home"), "lib", "libjsig.so")),
        warning);
  }

  @Test
  void noWarningWithSignalChainingOnAnotherPlatformOrWithoutProcMaps() {
    String chained = MAPS + "7f36 r-xp 00000000 08:01 3 /usr/lib/jvm/java-17/lib/libjsig.so\n";
    assertEquals(Optional.empty(), SignalChaining.warning(POCL, chained));
    assertEquals(Optional.empty(), SignalChaining.warning("NVIDIA CUDA", MAPS));
    assertEquals(Optional.empty(), SignalChaining.warning(POCL, ""));
  }

  @Test
  void theBuildsTestJvmsRunWithSignalChaining() throws Exception {
    Path maps = Path.of("/proc/self/maps");
    assumeTrue(Files.isReadable(maps), "no /proc/self/maps on this system");
    Path jsig = Path.of(System.getProperty("java.home"), "lib", "libjsig.so");
    assumeTrue(Files.exists(jsig), "this JDK has no " + jsig);
    assertTrue(
        Files.readString(maps).contains("libjsig"),
        "the build preloads libjsig for test JVMs (LD_PRELOAD in the root pom's surefire settings)");
  }
}
