package dev.openaccel.runtime.architecture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The production Java sources of {@code runtime}, {@code conformance}, {@code backend-openreg},
 * {@code backend-opencl}, {@code cluster}, {@code metrics} and {@code testkit}, the modules whose
 * house rules the architecture tests check. Read from the runtime module's directory, where
 * surefire runs, through its parent.
 */
final class ProductionSources {
  static final List<String> MODULES =
      List.of(
          "runtime",
          "conformance",
          "backend-openreg",
          "backend-opencl",
          "cluster",
          "metrics",
          "testkit");

  /** The repository root: the parent of the runtime module, where the tests run. */
  static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  private ProductionSources() {}

  /** Every {@code .java} file under each module's {@code src/main/java}, sorted per module. */
  static List<Path> files() throws IOException {
    List<Path> all = new ArrayList<>();
    for (String module : MODULES) {
      Path sources = ROOT.resolve(module).resolve("src/main/java");
      if (!Files.isDirectory(sources)) {
        throw new IllegalStateException("no sources at " + sources);
      }
      try (Stream<Path> files = Files.walk(sources)) {
        all.addAll(files.filter(f -> f.toString().endsWith(".java")).sorted().toList());
      }
    }
    return all;
  }

  /** {@code file} relative to the repository root, with forward slashes. */
  static String name(Path file) {
    return ROOT.relativize(file).toString().replace('\\', '/');
  }
}
