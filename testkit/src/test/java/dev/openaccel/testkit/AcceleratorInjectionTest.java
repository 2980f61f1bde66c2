package dev.openaccel.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.openaccel.runtime.Accelerator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Without an ActorTestKit, the class gets an accelerator of its own, the same in every place. */
@OpenAccelTest(config = "openaccel.stream-pool-size = 4")
class AcceleratorInjectionTest {
  private final Accelerator fromConstructor;

  AcceleratorInjectionTest(Accelerator accelerator) {
    this.fromConstructor = accelerator;
  }

  @BeforeEach
  void sameInLifecycleMethods(Accelerator accelerator) {
    assertSame(fromConstructor, accelerator);
  }

  @Test
  void theAcceleratorIsTheClasssOwnOnOpenReg(Accelerator accelerator) {
    assertSame(fromConstructor, accelerator);
    assertEquals("openaccel-test-AcceleratorInjectionTest", accelerator.system().name());
    assertEquals("openreg", accelerator.currentAccelerator().name());
  }

  @Test
  void theAnnotationsConfigurationApplies(Accelerator accelerator) {
    assertEquals(4, accelerator.system().settings().config().getInt("openaccel.stream-pool-size"));
  }
}
