package dev.openaccel.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The root README shows the example test of this module as a code block; it must be the file as it
 * is, so that what the README shows compiles and passes. Runs in {@code testkit/}.
 */
class ReadmeExampleTest {
  private static final Path MODULE = Path.of("").toAbsolutePath();

  @Test
  void readmeShowsTheExampleUnchanged() throws IOException {
    String file = "src/test/java/dev/openaccel/testkit/example/SquaresTest.java";
    String readme = Files.readString(MODULE.resolveSibling("README.md"));
    String source = Files.readString(MODULE.resolve(file));
    assertTrue(
        readme.contains("```java\n" + source + "```\n"),
        () -> "README.md must show testkit/" + file + " unchanged, in a ```java block");
  }
}
