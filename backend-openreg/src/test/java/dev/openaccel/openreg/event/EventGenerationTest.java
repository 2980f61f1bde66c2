package dev.openaccel.openreg.event;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.testing.Gate;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.StreamGuard;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Which record an operation follows: {@code block}, {@code completion} and {@code query} capture
 * the latest record at call time (a generation); {@code recordOnce} records only once; a block on a
 * never-recorded event does nothing; blocking a stream of another device is allowed. Every ordering
 * claim is proved with gated kernels: a kernel that runs after the wait reports whether the gate it
 * depends on was open.
 */
class EventGenerationTest extends SharedAcceleratorTest {
  private static final Device D0 = Device.parse("openreg:0");
  private static final Device D1 = Device.parse("openreg:1");
  private static final Duration WAIT = Duration.ofSeconds(10);

  @Override
  protected Config config() {
    return ConfigFactory.parseString("openaccel.system-name = event-generation");
  }

  private static <T> T await(CompletableFuture<T> future) throws Exception {
    return future.get(10, TimeUnit.SECONDS);
  }

  @Test
  void blockCapturesTheRecordThatIsLatestAtCallTime() throws Exception {
    Stream producer = acc.newStream(D0);
    Stream consumer = acc.newStream(D0);
    try (Gate first = new Gate();
        Gate second = new Gate()) {
      producer.launch("first", first::hold);
      Event event = producer.recordEvent();
      event.block(consumer);
      producer.launch("second", second::hold);
      event.record(producer);
      CompletableFuture<Boolean> secondOpenWhenRun =
          consumer.<Boolean>submit("after", second::isOpen).toCompletableFuture();
      first.open();
      assertFalse(
          await(secondOpenWhenRun), "the consumer must not wait for the record made after block");
      assertFalse(event.query(), "the event itself follows its latest record");
      second.open();
      assertTrue(event.synchronize(WAIT));
    }
  }

  @Test
  void blockAfterAReRecordWaitsForTheNewRecord() throws Exception {
    Stream producer = acc.newStream(D0);
    Stream consumer = acc.newStream(D0);
    try (Gate first = new Gate();
        Gate second = new Gate()) {
      producer.launch("first", first::hold);
      Event event = producer.recordEvent();
      producer.launch("second", second::hold);
      event.record(producer);
      event.block(consumer);
      CompletableFuture<Boolean> secondOpenWhenRun =
          consumer.<Boolean>submit("after", second::isOpen).toCompletableFuture();
      first.open();
      second.open();
      assertTrue(await(secondOpenWhenRun));
    }
  }

  @Test
  void blockOnANeverRecordedEventIsANoOp() throws Exception {
    Stream consumer = acc.newStream(D0);
    Stream producer = acc.newStream(D0);
    Event event = acc.newEvent();
    event.block(consumer);
    consumer.waitEvent(event);
    try (Gate gate = new Gate()) {
      producer.launch("gate", gate::hold);
      event.record(producer);
      CompletableFuture<Boolean> gateOpenWhenRun =
          consumer.<Boolean>submit("after", gate::isOpen).toCompletableFuture();
      assertFalse(await(gateOpenWhenRun), "a later record must not apply to an earlier no-op");
    }
  }

  @Test
  void blockWithoutStreamMakesTheCurrentStreamWait() throws Exception {
    Stream producer = acc.newStream(D1);
    Stream consumer = acc.newStream(D1);
    try (Gate gate = new Gate()) {
      producer.launch("gate", gate::hold);
      Event event = producer.recordEvent();
      try (StreamGuard guard = acc.streamGuard(consumer)) {
        assertEquals(consumer, guard.currentStream());
        event.block();
      }
      CompletableFuture<Boolean> gateOpenWhenRun =
          consumer.<Boolean>submit("after", gate::isOpen).toCompletableFuture();
      gate.open();
      assertTrue(await(gateOpenWhenRun));
    }
  }

  @Test
  void blockingAStreamOfAnotherDeviceIsAllowed() throws Exception {
    Stream producer = acc.newStream(D0);
    Stream consumer = acc.newStream(D1);
    try (Gate gate = new Gate()) {
      producer.launch("gate", gate::hold);
      Event event = producer.recordEvent();
      assertDoesNotThrow(() -> event.block(consumer));
      CompletableFuture<Boolean> gateOpenWhenRun =
          consumer.<Boolean>submit("after", gate::isOpen).toCompletableFuture();
      gate.open();
      assertTrue(await(gateOpenWhenRun));
      assertEquals(Optional.of(D0), event.device(), "a block does not rebind the event");
    }
  }

  @Test
  void completionCapturesTheRecordThatIsLatestAtCallTime() throws Exception {
    Stream stream = acc.newStream(D0);
    try (Gate first = new Gate();
        Gate second = new Gate()) {
      stream.launch("first", first::hold);
      Event event = stream.recordEvent();
      CompletableFuture<Void> firstRecord = event.completion().toCompletableFuture();
      stream.launch("second", second::hold);
      event.record(stream);
      CompletableFuture<Void> secondRecord = event.completion().toCompletableFuture();
      first.open();
      await(firstRecord);
      assertFalse(second.isOpen());
      assertFalse(secondRecord.isDone(), "the second record is still behind its gate");
      second.open();
      await(secondRecord);
    }
  }

  @Test
  void completionOfANeverRecordedEventIsAlreadyComplete() {
    CompletableFuture<Void> completion = acc.newEvent().completion().toCompletableFuture();
    assertTrue(completion.isDone());
    assertFalse(completion.isCompletedExceptionally());
  }

  @Test
  void queryFollowsTheLatestRecord() throws Exception {
    Stream stream = acc.newStream(D0);
    Event event = stream.recordEvent();
    assertTrue(event.synchronize(WAIT));
    assertTrue(event.query());
    try (Gate gate = new Gate()) {
      stream.launch("gate", gate::hold);
      event.record(stream);
      assertFalse(event.query());
      gate.open();
      assertTrue(event.synchronize(WAIT));
      assertTrue(event.query());
    }
  }

  @Test
  void timedSynchronizeReturnsFalseWhileTheWorkIsHeld() throws Exception {
    Stream stream = acc.newStream(D1);
    try (Gate gate = new Gate()) {
      stream.launch("gate", gate::hold);
      Event event = stream.recordEvent();
      gate.awaitEntered();
      assertFalse(event.synchronize(Duration.ofMillis(50)));
      assertFalse(event.query());
      gate.open();
      assertTrue(event.synchronize(WAIT));
      assertTrue(gate.openedInTime());
    }
  }

  @Test
  void synchronizeOfANeverRecordedEventReturnsAtOnce() {
    Event event = acc.newEvent();
    assertTrue(event.synchronize(Duration.ZERO));
    assertDoesNotThrow(() -> event.synchronize());
    assertTrue(event.query());
  }

  @Test
  void recordOnceRecordsOnlyTheFirstTime() throws Exception {
    Stream held = acc.newStream(D0);
    Stream idle = acc.newStream(D0);
    Event event = acc.newEvent();
    try (Gate gate = new Gate()) {
      held.launch("gate", gate::hold);
      event.recordOnce(held);
      assertTrue(event.wasRecorded());
      event.recordOnce(idle);
      assertFalse(
          event.query(), "the second recordOnce must not move the record to the idle stream");
      gate.open();
      assertTrue(event.synchronize(WAIT));
    }
  }

  @Test
  void recordOnceOnAnotherDeviceAfterARecordIsANoOp() {
    Event event = acc.newEvent();
    event.record(acc.newStream(D0));
    long id = event.id();
    assertDoesNotThrow(() -> event.recordOnce(acc.newStream(D1)));
    assertEquals(Optional.of(D0), event.device());
    assertEquals(id, event.id());
  }
}
