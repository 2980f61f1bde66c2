package dev.openaccel.samples.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.actor.EventSignal;
import java.time.Duration;
import org.apache.pekko.actor.testkit.typed.annotations.JUnit5TestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJUnit5Extension;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The actor answers with messages: the sum, the kernel's failure, the event signal. */
@ExtendWith(TestKitJUnit5Extension.class)
class SumOfSquaresTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @JUnit5TestKit public ActorTestKit testKit = ActorTestKit.create();

  private ActorRef<SumOfSquares.Command> summer() {
    return testKit.spawn(SumOfSquares.create(Device.parse("openreg:0")));
  }

  @Test
  void sumIsAnsweredWithTheResult() {
    TestProbe<SumOfSquares.Reply> replies = testKit.createTestProbe();
    summer().tell(new SumOfSquares.Sum(1000, replies.ref()));
    replies.expectMessage(WAIT, new SumOfSquares.Summed(1000, 1000L * 1001 * 2001 / 6));
  }

  @Test
  void aKernelThatThrowsIsAnsweredWithFailed() {
    TestProbe<SumOfSquares.Reply> replies = testKit.createTestProbe();
    summer().tell(new SumOfSquares.Sum(4_000_000, replies.ref())); // overflows a long
    SumOfSquares.Failed failed = replies.expectMessageClass(SumOfSquares.Failed.class, WAIT);
    assertEquals(4_000_000, failed.upTo());
    DeviceExecutionException error =
        assertInstanceOf(DeviceExecutionException.class, failed.cause());
    assertInstanceOf(ArithmeticException.class, error.getCause());
    assertTrue(error.getMessage().contains("sum of squares to 4000000"), error.getMessage());
  }

  @Test
  void whenIdleIsAnsweredWithOneCompletedSignal() {
    ActorRef<SumOfSquares.Command> summer = summer();
    TestProbe<SumOfSquares.Reply> replies = testKit.createTestProbe();
    TestProbe<EventSignal> idle = testKit.createTestProbe();
    summer.tell(new SumOfSquares.Sum(10, replies.ref()));
    summer.tell(new SumOfSquares.WhenIdle(idle.ref()));
    assertInstanceOf(EventSignal.Completed.class, idle.expectMessageClass(EventSignal.class, WAIT));
    replies.expectMessage(WAIT, new SumOfSquares.Summed(10, 385));
    idle.expectNoMessage(Duration.ofMillis(50)); // one signal per subscription
  }

  @Test
  void aNegativeBoundIsRejectedAtTheCall() {
    TestProbe<SumOfSquares.Reply> replies = testKit.createTestProbe();
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> new SumOfSquares.Sum(-1, replies.ref()));
    assertEquals("upTo must be >= 0, got -1", error.getMessage());
  }
}
