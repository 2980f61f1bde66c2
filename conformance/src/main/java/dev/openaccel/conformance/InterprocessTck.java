package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Conformance of {@link Capability#INTERPROCESS_EVENTS}: declared, an interprocess event's handle
 * opens an event that follows the owner's records; undeclared, interprocess events are reported as
 * unsupported. Port of the intent of the IPC cases of torch_openreg/tests/test_event.py.
 */
public abstract class InterprocessTck extends BackendTck {
  private static final EventOptions INTERPROCESS = EventOptions.defaults().withInterprocess(true);

  private EventHandle unknownHandle() {
    return new EventHandle(
        deviceType(), 0, 987_654_321L, accelerator().system().address().toString());
  }

  @Test
  void interprocessEventsAreUnsupportedWhenUndeclared() {
    assumeUndeclared(Capability.INTERPROCESS_EVENTS);
    assertUnsupported(() -> newEvent(INTERPROCESS));
    assertUnsupported(() -> accelerator().openEvent(unknownHandle()));
  }

  @Test
  void anInterprocessTimingEventIsRejectedAtCreation() {
    assertThrows(
        IllegalArgumentException.class, () -> newEvent(INTERPROCESS.withTiming(true)).close());
  }

  @Test
  void handleOfANonInterprocessEventIsRejected() {
    assumeDeclared(Capability.EVENTS);
    try (Event event = newStream(0).recordEvent()) {
      assertThrowsWith(IllegalStateException.class, "not an interprocess event", event::handle);
    }
  }

  @Test
  void handleNamesTheEventsTypeDeviceAndId() {
    assumeDeclared(Capability.INTERPROCESS_EVENTS);
    int last = deviceCount() - 1;
    try (Event event = newEvent(INTERPROCESS)) {
      event.record(newStream(last));
      EventHandle handle = event.handle();
      assertEquals(deviceType(), handle.deviceType());
      assertEquals(last, handle.deviceIndex());
      assertEquals(event.id(), handle.eventId());
      assertEquals(handle, event.handle());
    }
  }

  @Test
  void anOpenedEventFollowsTheOwnersRecords() {
    assumeDeclared(Capability.INTERPROCESS_EVENTS);
    CountDownLatch first = gate();
    CountDownLatch second = gate();
    Stream stream = newStream(0);
    try (Event owner = newEvent(INTERPROCESS)) {
      hold(stream, first);
      owner.record(stream);
      Event opened = accelerator().openEvent(owner.handle());
      assertEquals(deviceType(), opened.deviceType());
      assertEquals(owner.deviceIndex(), opened.deviceIndex());
      assertFalse(opened.query(), about("the opened event ignored the owner's pending record"));
      first.countDown();
      assertTrue(opened.synchronize(WAIT));
      hold(stream, second);
      owner.record(stream);
      assertFalse(opened.query(), about("the opened event ignored the owner's re-record"));
      second.countDown();
      assertTrue(opened.synchronize(WAIT));
    }
  }

  @Test
  void aStreamBlockedOnAnOpenedEventWaitsForTheOwnersWork() throws Exception {
    assumeDeclared(Capability.INTERPROCESS_EVENTS);
    CountDownLatch gate = gate();
    Stream producer = newStream(0);
    Stream consumer = newStream(0);
    AtomicBoolean produced = new AtomicBoolean();
    try (Event owner = newEvent(INTERPROCESS)) {
      hold(producer, gate);
      producer.launch("produce", () -> produced.set(true));
      owner.record(producer);
      Event opened = accelerator().openEvent(owner.handle());
      consumer.waitEvent(opened);
      CompletionStage<Boolean> seen = consumer.submit("consume", produced::get);
      gate.countDown();
      assertTrue(await(seen), about("the stream ran before the work behind the handle"));
    }
  }

  @Test
  void handleOfANeverRecordedEventIsRejected() {
    assumeDeclared(Capability.INTERPROCESS_EVENTS);
    try (Event event = newEvent(INTERPROCESS)) {
      assertThrows(IllegalStateException.class, event::handle);
    }
  }

  @Test
  void openingAnUnknownHandleIsRejected() {
    assumeDeclared(Capability.INTERPROCESS_EVENTS);
    assertThrows(IllegalArgumentException.class, () -> accelerator().openEvent(unknownHandle()));
  }

  @Test
  void aClosedEventsHandleCannotBeOpened() {
    assumeDeclared(Capability.INTERPROCESS_EVENTS);
    Event owner = newEvent(INTERPROCESS);
    owner.record(newStream(0));
    EventHandle handle = owner.handle();
    assertTrue(owner.synchronize(WAIT));
    owner.close();
    assertThrows(IllegalArgumentException.class, () -> accelerator().openEvent(handle));
  }
}
