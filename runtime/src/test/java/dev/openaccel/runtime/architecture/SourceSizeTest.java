package dev.openaccel.runtime.architecture;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No production source file of {@code runtime}, {@code backend-openreg}, {@code backend-opencl} or
 * {@code cluster} ({@link ProductionSources}) passes {@value #MAX_LINES} lines: a longer one is
 * asking to be split by concept.
 */
class SourceSizeTest {
  private static final int MAX_LINES = 300;

  @Test
  void noProductionFileIsLongerThan300Lines() throws IOException {
    StringBuilder tooLong = new StringBuilder();
    for (Path file : ProductionSources.files()) {
      long lines = lineCount(file);
      if (lines > MAX_LINES) {
        tooLong
            .append("\n  ")
            .append(ProductionSources.name(file))
            .append(": ")
            .append(lines)
            .append(" lines");
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
