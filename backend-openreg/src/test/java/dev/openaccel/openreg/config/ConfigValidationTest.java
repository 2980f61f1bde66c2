package dev.openaccel.openreg.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.slf4j.LoggerFactory;

/**
 * Configuration fails fast: every {@code openaccel.} key of the runtime and of OpenReg, given a bad
 * value, fails {@code Accelerator.start} (and the extension's creation) with an {@link
 * IllegalArgumentException} naming the key, the value and what is allowed; an unknown key under
 * {@code openaccel.} is reported at WARN with the closest known key.
 */
class ConfigValidationTest {
  private static final AtomicInteger SYSTEMS = new AtomicInteger();

  /** Per key: a bad value (HOCON) and the text the message must show of it. */
  private static final Map<String, String[]> BAD = new LinkedHashMap<>();

  static {
    bad("openaccel.system-name", "\"two words\"", "'two words'");
    bad("openaccel.default-device-type", "Open-Reg", "'Open-Reg'");
    bad("openaccel.disabled-backends", "openreg", "'openreg'");
    bad("openaccel.stream-pool-size", "0", "'0'");
    bad("openaccel.device-synchronize-timeout", "soon", "'soon'");
    bad("openaccel.interrupt-kernels-after", "1ms", "'1ms'");
    bad("openaccel.stream-queue-limit", "-1", "'-1'");
    bad("openaccel.stream-queue-wait", "forever", "'forever'");
    bad("openaccel.sanitizer", "on", "'on'");
    bad("openaccel.openreg.device-count", "-1", "'-1'");
    bad("openaccel.openreg.compute-units", "0", "'0'");
    bad("openaccel.openreg.stream-pool-size", "0", "'0'");
    bad("openaccel.openreg.batch", "many", "'many'");
    bad("openaccel.openreg.launch-latency", "-1ms", "'-1ms'");
    bad("openaccel.openreg.launch-jitter", "lots", "'lots'");
    bad("openaccel.openreg.seed", "random", "'random'");
    bad("openaccel.openreg.memory-per-device", "0", "'0'");
    bad("openaccel.openreg.wait-strategy", "spin", "'spin'");
    bad("openaccel.openreg.devices.0.wait-strategy", "spin", "'spin'");
  }

  private static void bad(String key, String value, String shown) {
    BAD.put(key, new String[] {value, shown});
  }

  private static Config withBad(String key) {
    String config =
        key.equals("openaccel.system-name")
            ? ""
            : "openaccel.system-name = config-" + SYSTEMS.incrementAndGet() + "\n";
    return ConfigFactory.parseString(config + key + " = " + BAD.get(key)[0]);
  }

  private static void assertNamesKeyValueAndAllowed(String key, IllegalArgumentException e) {
    String message = e.getMessage();
    assertTrue(message.startsWith(key + " must be"), message);
    assertTrue(message.contains("got " + BAD.get(key)[1]), message);
  }

  @TestFactory
  Stream<DynamicTest> aBadValueOfEachKeyFailsStartNamingKeyValueAndWhatIsAllowed() {
    return BAD.keySet().stream()
        .map(
            key ->
                DynamicTest.dynamicTest(
                    key,
                    () -> {
                      IllegalArgumentException e =
                          assertThrows(
                              IllegalArgumentException.class,
                              () -> Accelerator.start(withBad(key)).close());
                      assertNamesKeyValueAndAllowed(key, e);
                    }));
  }

  @Test
  void everyKeyOfTheReferenceConfigurationHasItsBadValueCase() {
    Set<String> keys = new TreeSet<>();
    // The reference.conf files alone: not the system properties a test run sets.
    ConfigFactory.parseResources("reference.conf")
        .resolve()
        .getConfig("openaccel")
        .entrySet()
        .forEach(e -> keys.add("openaccel." + e.getKey()));
    keys.removeIf(key -> !key.startsWith("openaccel.openreg.") && key.split("\\.").length > 2);
    keys.removeAll(BAD.keySet());
    assertEquals(Set.of(), keys, "keys without a bad-value test");
  }

  @Test
  void aBadValueFailsTheExtensionsCreationInAUsersSystem() {
    Config config =
        withBad("openaccel.openreg.wait-strategy").withFallback(ConfigFactory.load()).resolve();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ActorSystem.create(Behaviors.empty(), "users-system", config).terminate());
    assertNamesKeyValueAndAllowed("openaccel.openreg.wait-strategy", e);
  }

  @Test
  void anUnknownKeyIsWarnedAboutWithTheClosestKnownKey() {
    Logger logger = (Logger) LoggerFactory.getLogger("dev.openaccel");
    ListAppender<ILoggingEvent> seen = new ListAppender<>();
    seen.start();
    logger.addAppender(seen);
    try (Accelerator accelerator =
        Accelerator.start(
            ConfigFactory.parseString(
                "openaccel.system-name = misspelt\n"
                    + "openaccel.openreg.wait-stratgy = yielding\n"
                    + "openaccel.openreg.devices.1.wait-strategy = yielding\n"
                    // a list in the indexed form system properties give it: a known key
                    + "openaccel.disabled-backends.0 = nothing"))) {
      assertEquals(2, accelerator.deviceCount());
    } finally {
      logger.detachAppender(seen);
    }
    List<String> warnings =
        seen.list.stream()
            .filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
            .map(ILoggingEvent::getFormattedMessage)
            .toList();
    assertEquals(1, warnings.size(), () -> "warnings: " + warnings);
    assertTrue(
        warnings.get(0).contains("unknown configuration key openaccel.openreg.wait-stratgy")
            && warnings.get(0).contains("closest known key is openaccel.openreg.wait-strategy"),
        warnings.get(0));
  }
}
