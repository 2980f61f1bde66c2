package dev.openaccel.samples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The root README shows whole files of this module as code blocks; each must be the file as it is,
 * so that what the README shows compiles and passes its tests. Runs in {@code samples/}.
 */
class ReadmeExamplesTest {
  private static final Path MODULE = Path.of("").toAbsolutePath();

  @ParameterizedTest
  @ValueSource(
      strings = {
        "src/main/java/dev/openaccel/samples/actors/SumOfSquares.java",
        "src/test/java/dev/openaccel/samples/actors/SumOfSquaresTest.java"
      })
  void readmeShowsTheFileUnchanged(String file) throws IOException {
    String readme = Files.readString(MODULE.resolveSibling("README.md"));
    String source = Files.readString(MODULE.resolve(file));
    assertTrue(
        readme.contains("```java\n" + source + "```\n"),
        () -> "README.md must show samples/" + file + " unchanged, in a ```java block");
  }
}
