package dev.openaccel.runtime.architecture;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No production source file of {@code runtime}, {@code backend-openreg}, {@code backend-opencl} or
 * {@code cluster} passes {@value #MAX_LINES} lines: a longer one is asking to be split by concept.
 * Runs from the runtime module and reads its sibling modules' sources.
 */
class SourceSizeTest {
  private static final int MAX_LINES = 300;
  private static final List<String> MODULES =
      List.of("runtime", "backend-openreg", "backend-opencl", "cluster");

  @Test
  void noProductionFileIsLongerThan300Lines() throws IOException {
    Path root = Path.of("").toAbsolutePath().getParent(); // surefire runs in runtime/
    StringBuilder tooLong = new StringBuilder();
    for (String module : MODULES) {
      Path sources = root.resolve(module).resolve("src/main/java");
      assertTrue(Files.isDirectory(sources), "no sources at " + sources);
      try (Stream<Path> files = Files.walk(sources)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
          String name = root.relativize(file).toString().replace('\\', '/');
          long lines = lineCount(file);
          if (lines > MAX_LINES) {
            tooLong.append("\n  ").append(name).append(": ").append(lines).append(" lines");
          }
        }
      }
    }
    assertTrue(
        tooLong.isEmpty(),
        () -> "production files over " + MAX_LINES + " lines; split each by concept:" + tooLong);
  }

  private static long lineCount(Path file) throws IOException {
    try (Stream<String> lines = Files.lines(file)) {
      return lines.count();
    }
  }
}
