package dev.openaccel.testkit;

import static org.junit.jupiter.api.Assertions.assertSame;

import dev.openaccel.runtime.Accelerator;
import org.apache.pekko.actor.testkit.typed.annotations.JUnit5TestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.JUnit5TestKitBuilder;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJUnit5Extension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** With Pekko's TestKitJUnit5Extension, the test gets the accelerator of the kit's system. */
@ExtendWith(TestKitJUnit5Extension.class)
@OpenAccelTest
class PekkoTestKitExtensionTest {
  @JUnit5TestKit final ActorTestKit testKit = new JUnit5TestKitBuilder().build();

  @Test
  void theAcceleratorIsTheTestKitsSystems(Accelerator accelerator) {
    assertSame(Accelerator.get(testKit.system()), accelerator);
  }
}
