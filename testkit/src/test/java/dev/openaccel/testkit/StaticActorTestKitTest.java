package dev.openaccel.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.openaccel.runtime.Accelerator;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** With an ActorTestKit in a static field, the test gets the accelerator of its actor system. */
@OpenAccelTest
class StaticActorTestKitTest {
  static final ActorTestKit testKit = ActorTestKit.create();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  @Test
  void theAcceleratorIsTheTestKitsSystems(Accelerator accelerator) {
    assertSame(Accelerator.get(testKit.system()), accelerator);
    try (var buffer = accelerator.allocate(accelerator.currentDevice(), 64)) {
      assertEquals(accelerator.currentDevice(), buffer.device());
    }
  }
}
