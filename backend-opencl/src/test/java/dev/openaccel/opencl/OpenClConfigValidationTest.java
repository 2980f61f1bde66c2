package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every {@code openaccel.opencl.} key, given a bad value, fails {@code Accelerator.start} with an
 * {@link IllegalArgumentException} naming the key, the value and what is allowed (before any OpenCL
 * platform is probed), instead of leaving a backend with zero devices.
 */
class OpenClConfigValidationTest {
  private static final AtomicInteger SYSTEMS = new AtomicInteger();
  private static final Map<String, String> BAD = new LinkedHashMap<>();

  static {
    BAD.put("openaccel.opencl.platform", "[0]");
    BAD.put("openaccel.opencl.devices", "pthread");
    BAD.put("openaccel.opencl.profiling", "sometimes");
    BAD.put("openaccel.opencl.program-cache", "sometimes");
    BAD.put("openaccel.opencl.build-options", "[\"-O2\"]");
    BAD.put("openaccel.opencl.library", "\" \"");
    BAD.put("openaccel.opencl.compute-units", "0");
    BAD.put("openaccel.opencl.stream-pool-size", "0");
    BAD.put("openaccel.opencl.batch", "-1");
    BAD.put("openaccel.opencl.memory-per-device", "-1");
    BAD.put("openaccel.opencl.wait-strategy", "spin");
    BAD.put("openaccel.opencl.completions", "polling");
  }

  @TestFactory
  Stream<DynamicTest> aBadValueOfEachKeyFailsStartNamingKeyValueAndWhatIsAllowed() {
    return BAD.entrySet().stream()
        .map(
            bad ->
                DynamicTest.dynamicTest(
                    bad.getKey(),
                    () -> {
                      String config =
                          "openaccel.system-name = opencl-config-"
                              + SYSTEMS.incrementAndGet()
                              + "\n"
                              + bad.getKey()
                              + " = "
                              + bad.getValue();
                      IllegalArgumentException e =
                          assertThrows(
                              IllegalArgumentException.class,
                              () -> Accelerator.start(ConfigFactory.parseString(config)).close());
                      assertTrue(
                          e.getMessage().startsWith(bad.getKey() + " must be"), e::getMessage);
                      assertTrue(e.getMessage().contains(", got '"), e::getMessage);
                    }));
  }

  @Test
  void everyOpenClKeyOfTheReferenceConfigurationHasItsBadValueCase() {
    Set<String> keys = new TreeSet<>();
    // The reference.conf files alone: not the system properties a test run sets.
    ConfigFactory.parseResources("reference.conf")
        .resolve()
        .getConfig("openaccel.opencl")
        .entrySet()
        .forEach(e -> keys.add("openaccel.opencl." + e.getKey()));
    keys.removeAll(BAD.keySet());
    assertEquals(Set.of(), keys, "keys without a bad-value test");
  }
}
