package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.conformance.BadConfig;
import dev.openaccel.runtime.Accelerator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
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
    BAD.put("openaccel.opencl.checked-kernels", "sometimes");
  }

  @TestFactory
  Stream<DynamicTest> aBadValueOfEachKeyFailsStartNamingKeyValueAndWhatIsAllowed() {
    return BadConfig.eachFails(
        BAD,
        config ->
            Accelerator.start(
                    config.withFallback(
                        ConfigFactory.parseString(
                            "openaccel.system-name = opencl-config-" + SYSTEMS.incrementAndGet())))
                .close());
  }

  @Test
  void everyOpenClKeyOfTheReferenceConfigurationHasItsBadValueCase() {
    assertEquals(
        Set.of(),
        BadConfig.uncovered("openaccel.opencl", BAD.keySet()),
        "keys without a bad-value test");
  }
}
