package dev.openaccel.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.openaccel.runtime.Accelerator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The annotation's settings: defaults without it, and a clear failure of each test for a bad one.
 * Runs the nested example classes with JUnit's engine test kit.
 */
class ExtensionSettingsTest {

  @Test
  void withoutTheAnnotationTheDefaultsApply() {
    assertEquals(List.of(), failures(Unannotated.class));
  }

  @Test
  void aNegativeSettleTimeIsRejectedNamingIt() {
    List<String> failures = failures(NegativeSettle.class);
    assertEquals(1, failures.size(), failures::toString);
    assertTrue(
        failures.get(0).contains("@OpenAccelTest(settleMillis = -1) must be zero or more"),
        failures.get(0));
  }

  @Test
  void aBackendNotOnTheClassPathFailsTheTestNamingIt() {
    List<String> failures = failures(MissingBackend.class);
    assertEquals(1, failures.size(), failures::toString);
    assertTrue(failures.get(0).contains("nosuchdevice"), failures.get(0));
  }

  private static List<String> failures(Class<?> example) {
    return EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(example))
        .execute()
        .testEvents()
        .failed()
        .stream()
        .map(e -> e.getRequiredPayload(TestExecutionResult.class))
        .map(r -> String.valueOf(r.getThrowable().orElseThrow()))
        .toList();
  }

  @ExtendWith(OpenAccelExtension.class)
  static class Unannotated {
    @Test
    void getsOpenReg(Accelerator accelerator) {
      assertEquals("openreg", accelerator.currentAccelerator().name());
      assertEquals("openaccel-test-ExtensionSettingsTestUnannotated", accelerator.system().name());
    }
  }

  @OpenAccelTest(settleMillis = -1)
  static class NegativeSettle {
    @Test
    void neverRuns() {}
  }

  @OpenAccelTest(backend = "nosuchdevice")
  static class MissingBackend {
    @Test
    void neverRuns(Accelerator accelerator) {}
  }
}
