package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.EventFlag;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Conformance of {@link Capability#EVENTS}, host side: an event's binding, id, record, query,
 * synchronize, completion and close. Stream waits on events are checked by {@link EventBlockTck}.
 * Port of the intent of torch_openreg/tests/test_event.py.
 */
public abstract class EventTck extends BackendTck {

  @Test
  void eventsAreUnsupportedWhenUndeclared() {
    assumeUndeclared(Capability.EVENTS);
    assertUnsupported(this::newEvent);
    Stream stream = accelerator().defaultStream(device(0));
    assertUnsupported(() -> backend().record(null, stream, -1, EventFlag.PYTORCH_DEFAULT));
  }

  @Test
  void aNeverRecordedEventIsCompleteAndUnbound() {
    assumeDeclared(Capability.EVENTS);
    try (Event event = newEvent()) {
      assertEquals(deviceType(), event.deviceType());
      assertEquals(Optional.empty(), event.device());
      assertEquals(-1, event.deviceIndex());
      assertEquals(0, event.id());
      assertFalse(event.wasRecorded());
      assertFalse(event.isCreated());
      assertTrue(event.query());
      event.synchronize();
      assertTrue(event.synchronize(WAIT));
      assertTrue(event.completion().toCompletableFuture().isDone());
    }
  }

  @Test
  void recordBindsTheEventToTheStreamsDevice() {
    assumeDeclared(Capability.EVENTS);
    int last = deviceCount() - 1;
    try (Event event = newEvent()) {
      event.record(newStream(last));
      assertEquals(Optional.of(device(last)), event.device());
      assertEquals(last, event.deviceIndex());
      assertNotEquals(0, event.id());
      assertTrue(event.wasRecorded());
      assertTrue(event.isCreated());
      assertTrue(event.synchronize(WAIT));
    }
  }

  @Test
  void recordWithoutStreamUsesTheCurrentStream() throws Exception {
    assumeDeclared(Capability.EVENTS);
    CountDownLatch gate = gate();
    Stream stream = newStream(deviceCount() - 1);
    hold(stream, gate);
    accelerator().setStream(stream);
    try (Event event = newEvent()) {
      event.record();
      assertEquals(stream.deviceIndex(), event.deviceIndex());
      assertFalse(event.query(), about("the event did not capture the current stream's work"));
      gate.countDown();
      assertTrue(event.synchronize(WAIT));
    }
  }

  @Test
  void queryIsFalseUntilTheRecordedWorkCompletes() {
    assumeDeclared(Capability.EVENTS);
    CountDownLatch gate = gate();
    Stream stream = newStream(0);
    hold(stream, gate);
    try (Event event = stream.recordEvent()) {
      assertFalse(event.query());
      assertFalse(event.synchronize(Duration.ofMillis(20)), "timed synchronize while held");
      gate.countDown();
      assertTrue(event.synchronize(WAIT));
      assertTrue(event.query());
    }
  }

  @Test
  void synchronizeWaitsForTheRecordedWork() {
    assumeDeclared(Capability.EVENTS);
    Stream stream = newStream(0);
    AtomicBoolean ran = new AtomicBoolean();
    stream.launch("busy", () -> spin(1_000_000));
    stream.launch("mark", () -> ran.set(true));
    try (Event event = stream.recordEvent()) {
      event.synchronize();
      assertTrue(ran.get(), about("Event.synchronize returned before the recorded work"));
    }
  }

  @Test
  void completionCompletesAfterTheRecordedWork() throws Exception {
    assumeDeclared(Capability.EVENTS);
    CountDownLatch gate = gate();
    Stream stream = newStream(0);
    hold(stream, gate);
    try (Event event = newEvent()) {
      event.record(stream);
      CompletableFuture<Void> done = event.completion().toCompletableFuture();
      assertFalse(done.isDone());
      gate.countDown();
      await(done);
      assertTrue(event.query());
    }
  }

  @Test
  void reRecordingMovesTheEventToItsLatestRecord() {
    assumeDeclared(Capability.EVENTS);
    CountDownLatch gate = gate();
    Stream idle = newStream(0);
    Stream held = newStream(0);
    hold(held, gate);
    try (Event event = newEvent()) {
      event.record(idle);
      assertTrue(event.synchronize(WAIT));
      long id = event.id();
      event.record(held);
      assertFalse(event.query(), about("query does not follow the latest record"));
      assertEquals(id, event.id(), about("the id changed on re-record"));
      gate.countDown();
      assertTrue(event.synchronize(WAIT));
    }
  }

  @Test
  void recordOnceRecordsOnlyTheFirstTime() {
    assumeDeclared(Capability.EVENTS);
    CountDownLatch gate = gate();
    Stream idle = newStream(0);
    Stream held = newStream(0);
    hold(held, gate);
    try (Event event = newEvent()) {
      event.recordOnce(idle);
      assertTrue(event.synchronize(WAIT));
      event.recordOnce(held);
      assertTrue(event.query(), about("recordOnce recorded a second time"));
    }
  }

  @Test
  void idsAreUniqueAmongLiveEvents() {
    assumeDeclared(Capability.EVENTS);
    Stream stream = newStream(0);
    try (Event first = stream.recordEvent();
        Event second = stream.recordEvent()) {
      assertNotEquals(first.id(), second.id());
      assertNotEquals(0, first.id());
    }
  }

  @Test
  void closeIsIdempotentAndLaterUseIsRejected() {
    assumeDeclared(Capability.EVENTS);
    Stream stream = newStream(0);
    Event event = stream.recordEvent();
    assertTrue(event.synchronize(WAIT));
    event.close();
    assertDoesNotThrow(event::close);
    assertFalse(event.isCreated());
    assertThrows(IllegalStateException.class, () -> event.record(stream));
    assertThrows(IllegalStateException.class, event::query);
    assertThrows(IllegalStateException.class, () -> event.block(stream));
  }

  @Test
  void closingAnEventWhoseWorkIsPendingDoesNotStopTheWork() {
    assumeDeclared(Capability.EVENTS);
    CountDownLatch gate = gate();
    Stream stream = newStream(0);
    AtomicBoolean ran = new AtomicBoolean();
    hold(stream, gate);
    stream.recordEvent().close();
    stream.launch("after", () -> ran.set(true));
    gate.countDown();
    stream.synchronize();
    assertTrue(ran.get());
  }

  @Test
  void failedKernelIsReportedBySynchronizeOfALaterEvent() throws Exception {
    assumeDeclared(Capability.EVENTS);
    Stream stream = newStream(0);
    UnsupportedOperationException boom = new UnsupportedOperationException("kernel failed");
    stream.launch(
        "boom",
        () -> {
          throw boom;
        });
    try (Event event = stream.recordEvent()) {
      DeviceExecutionException e = assertThrows(DeviceExecutionException.class, event::synchronize);
      assertSame(boom, e.getCause());
      CompletionStage<Void> completion = event.completion();
      assertTrue(completion.toCompletableFuture().isCompletedExceptionally());
    }
    assertThrows(DeviceExecutionException.class, stream::synchronize);
  }

  @Test
  void eventSynchronizeInsideAKernelIsRejected() throws Exception {
    assumeDeclared(Capability.EVENTS);
    Stream stream = newStream(0);
    try (Event recorded = newStream(0).recordEvent()) {
      Throwable e =
          await(
              stream.submit(
                  "blocks",
                  () -> {
                    try {
                      recorded.synchronize();
                      return null;
                    } catch (IllegalStateException caught) {
                      return caught;
                    }
                  }));
      assertNotNull(e, about("Event.synchronize inside a kernel did not throw"));
      assertTrue(e.getMessage().contains("blocking call on an actor thread"), e.getMessage());
    }
  }
}
