package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * Configuration that fails fast, as a module checks it: a bad value of each of its keys fails where
 * the module reads its settings, with an {@link IllegalArgumentException} that names the key, what
 * is allowed and what it got; and every key of its reference configuration has such a case.
 */
public final class BadConfig {
  private BadConfig() {}

  /**
   * One test per entry of {@code bad} (a key, a bad HOCON value): {@code start}, given a
   * configuration with that value, must throw an {@link IllegalArgumentException} whose message
   * starts with the key and "must" and says what it got.
   */
  public static Stream<DynamicTest> eachFails(Map<String, String> bad, Consumer<Config> start) {
    return bad.entrySet().stream()
        .map(
            entry ->
                DynamicTest.dynamicTest(
                    entry.getKey(),
                    () -> {
                      Config config =
                          ConfigFactory.parseString(entry.getKey() + " = " + entry.getValue());
                      IllegalArgumentException e =
                          assertThrows(IllegalArgumentException.class, () -> start.accept(config));
                      assertTrue(
                          e.getMessage().startsWith(entry.getKey() + " must"), e::getMessage);
                      assertTrue(e.getMessage().contains("got '"), e::getMessage);
                    }));
  }

  /**
   * The keys under {@code prefix} in the reference configuration alone (not the system properties a
   * test run sets) that {@code covered} lacks.
   */
  public static Set<String> uncovered(String prefix, Set<String> covered) {
    Set<String> keys = new TreeSet<>();
    ConfigFactory.parseResources("reference.conf")
        .resolve()
        .getConfig(prefix)
        .entrySet()
        .forEach(e -> keys.add(prefix + "." + e.getKey()));
    keys.removeAll(covered);
    return keys;
  }
}
