package dev.openaccel.openreg.event;

import static dev.openaccel.conformance.BackendTck.assertThrowsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.OpenRegEvent;
import dev.openaccel.openreg.OpenRegProvider;
import dev.openaccel.openreg.testing.Gate;
import dev.openaccel.openreg.testing.OtherTypeBackend;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceGuard;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Misuse of {@link Event} at record and creation time: recording on a stream of another device or
 * device type, interprocess timing events, and handles of non-interprocess events. Each rejection
 * is thrown at the call, with its fixed phrase.
 */
class EventRecordMisuseTest extends SharedAcceleratorTest {
  private static final Device D0 = Device.parse("openreg:0");
  private static final Device D1 = Device.parse("openreg:1");
  private static final String OTHER_DEVICE = "does not match recording stream's device";
  private static final String OTHER_TYPE = "does not match recording stream's device type";

  private OtherTypeBackend other;

  @Override
  protected Config config() {
    return ConfigFactory.parseString("openaccel.system-name = event-misuse");
  }

  @BeforeAll
  void startOther() {
    other = new OtherTypeBackend(acc);
  }

  @Test
  void recordOnAStreamOfAnotherDeviceIsRejected() {
    Event event = acc.newEvent();
    event.record(acc.newStream(D0));
    assertThrowsWith(
        IllegalArgumentException.class, OTHER_DEVICE, () -> event.record(acc.newStream(D1)));
  }

  @Test
  void recordEventOnAStreamOfAnotherDeviceIsRejected() {
    Event event = acc.newStream(D1).recordEvent();
    Stream onD0 = acc.newStream(D0);
    assertThrowsWith(IllegalArgumentException.class, OTHER_DEVICE, () -> onD0.recordEvent(event));
  }

  @Test
  void recordOnTheCurrentStreamOfAnotherCurrentDeviceIsRejected() {
    Event event = acc.newEvent();
    event.record(acc.newStream(D0));
    try (DeviceGuard guard = acc.deviceGuard(1)) {
      assertEquals(D1, guard.currentDevice());
      assertThrowsWith(IllegalArgumentException.class, OTHER_DEVICE, event::record);
    }
  }

  @Test
  void rejectedRecordLeavesTheBindingAndTheLatestRecordUnchanged() throws Exception {
    Stream onD0 = acc.newStream(D0);
    Event event = acc.newEvent();
    try (Gate gate = new Gate()) {
      onD0.launch("gate", gate::hold);
      event.record(onD0);
      long id = event.id();
      assertThrowsWith(
          IllegalArgumentException.class, OTHER_DEVICE, () -> event.record(acc.newStream(D1)));
      assertEquals(Optional.of(D0), event.device());
      assertEquals(id, event.id());
      assertFalse(event.query(), "the latest record is still the one behind the gate");
      gate.open();
      assertTrue(event.synchronize(Duration.ofSeconds(10)));
    }
  }

  @Test
  void recordOnAStreamOfAnotherDeviceTypeIsRejected() {
    Event unbound = acc.newEvent();
    assertThrowsWith(
        IllegalArgumentException.class, OTHER_TYPE, () -> unbound.record(other.newStream()));
    assertFalse(unbound.wasRecorded());

    Event bound = acc.newStream(D0).recordEvent();
    assertThrowsWith(
        IllegalArgumentException.class, OTHER_TYPE, () -> bound.record(other.newStream()));
    assertEquals(Optional.of(D0), bound.device());
  }

  @Test
  void eventOfAnotherDeviceTypeIsRejectedOnAnOpenRegStream() {
    Event foreign = other.newEvent(EventOptions.defaults());
    Stream openreg = acc.newStream(D0);
    assertThrowsWith(IllegalArgumentException.class, OTHER_TYPE, () -> foreign.record(openreg));
    assertThrowsWith(
        IllegalArgumentException.class, OTHER_TYPE, () -> openreg.recordEvent(foreign));
  }

  @Test
  void blockOnAStreamOfAnotherDeviceTypeIsRejected() {
    Event event = acc.newStream(D0).recordEvent();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> event.block(other.newStream()));
    assertTrue(e.getMessage().contains("device type"), e.getMessage());
  }

  @Test
  void interprocessTimingEventIsRejectedAtCreation() {
    EventOptions both = EventOptions.timing().withInterprocess(true);
    for (Executable create :
        new Executable[] {
          () -> acc.newEvent(both),
          () -> acc.newEvent(OpenRegProvider.TYPE, both),
          () -> new OpenRegEvent(acc, both)
        }) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, create);
      assertTrue(e.getMessage().contains("interprocess"), e.getMessage());
    }
  }

  @Test
  void interprocessEventWithoutTimingIsAccepted() {
    Event event = acc.newEvent(EventOptions.defaults().withInterprocess(true));
    assertTrue(event.options().interprocess());
    event.record(acc.newStream(D1));
    EventHandle handle = event.handle();
    assertEquals(OpenRegProvider.TYPE, handle.deviceType());
    assertEquals(1, handle.deviceIndex());
    assertEquals(event.id(), handle.eventId());
  }

  @Test
  void handleOfANonInterprocessEventIsRejected() {
    Event neverRecorded = acc.newEvent();
    assertThrowsWith(
        IllegalStateException.class, "not an interprocess event", neverRecorded::handle);
    Event recorded = acc.newStream(D0).recordEvent();
    assertThrowsWith(IllegalStateException.class, "not an interprocess event", recorded::handle);
    Event timing = acc.newEvent(EventOptions.timing());
    timing.record(acc.newStream(D0));
    assertThrowsWith(IllegalStateException.class, "not an interprocess event", timing::handle);
  }
}
