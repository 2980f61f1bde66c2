package dev.openaccel.openreg.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.OpenRegProvider;
import dev.openaccel.openreg.testing.Gate;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Interprocess events within one accelerator: {@code handle()} and {@code openEvent(handle)}, the
 * analogue of {@code torch.Event.ipc_handle} / {@code from_ipc_handle}. The opened event follows
 * the owner's records.
 */
class EventInterprocessTest extends SharedAcceleratorTest {
  private static final Device D1 = Device.parse("openreg:1");
  private static final Duration WAIT = Duration.ofSeconds(10);

  @Override
  protected Config config() {
    return ConfigFactory.parseString("openaccel.system-name = event-ipc");
  }

  private Event interprocess() {
    return acc.newEvent(EventOptions.defaults().withInterprocess(true));
  }

  @Test
  void openedEventHasTheOwnersIdentity() {
    Event owner = interprocess();
    owner.record(acc.newStream(D1));
    Event opened = acc.openEvent(owner.handle());
    assertEquals(owner.id(), opened.id());
    assertEquals(Optional.of(D1), opened.device());
    assertEquals(OpenRegProvider.TYPE, opened.deviceType());
    assertTrue(opened.options().interprocess());
    assertFalse(opened.options().enableTiming());
  }

  @Test
  void openedEventFollowsTheOwnersLaterRecords() throws Exception {
    Stream stream = acc.newStream(D1);
    Event owner = interprocess();
    owner.record(stream);
    Event opened = acc.openEvent(owner.handle());
    assertTrue(opened.synchronize(WAIT));
    try (Gate gate = new Gate()) {
      stream.launch("gate", gate::hold);
      owner.record(stream);
      assertFalse(opened.query(), "the opened event must see the owner's new record");
      assertFalse(opened.synchronize(Duration.ofMillis(50)));
      gate.open();
      assertTrue(opened.synchronize(WAIT));
      assertTrue(opened.query());
    }
  }

  @Test
  void streamCanWaitOnAnOpenedEvent() throws Exception {
    Stream producer = acc.newStream(D1);
    Stream consumer = acc.newStream(D1);
    Event owner = interprocess();
    try (Gate gate = new Gate()) {
      producer.launch("gate", gate::hold);
      owner.record(producer);
      Event opened = acc.openEvent(owner.handle());
      consumer.waitEvent(opened);
      CompletableFuture<Boolean> gateOpenWhenRun =
          consumer.<Boolean>submit("after", gate::isOpen).toCompletableFuture();
      gate.open();
      assertTrue(gateOpenWhenRun.get(10, TimeUnit.SECONDS));
    }
  }

  @Test
  void handleIsPlainDataThatOpensTheSameEvent() {
    Event owner = interprocess();
    owner.record(acc.newStream(D1));
    EventHandle handle = owner.handle();
    EventHandle copy =
        new EventHandle(handle.deviceType(), handle.deviceIndex(), handle.eventId(), handle.node());
    assertEquals(handle, copy);
    assertEquals(owner.id(), acc.openEvent(copy).id());
  }

  @Test
  void handleIsJavaSerializableAndOpensTheSameEventAfterARoundTrip() throws Exception {
    Event owner = interprocess();
    owner.record(acc.newStream(D1));
    EventHandle handle = owner.handle();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(handle);
    }
    Object back;
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      back = in.readObject();
    }
    assertEquals(handle, back);
    assertEquals(owner.id(), acc.openEvent((EventHandle) back).id());
  }

  @Test
  void handleOfAnotherNodeIsRejected() {
    Event owner = interprocess();
    owner.record(acc.newStream(D1));
    EventHandle handle = owner.handle();
    EventHandle foreign =
        new EventHandle(
            handle.deviceType(),
            handle.deviceIndex(),
            handle.eventId(),
            "pekko://elsewhere@10.0.0.9:25520");
    assertThrows(IllegalArgumentException.class, () -> acc.openEvent(foreign));
  }

  @Test
  void handleOfAClosedEventNoLongerOpens() {
    Event owner = interprocess();
    owner.record(acc.newStream(D1));
    EventHandle handle = owner.handle();
    owner.close();
    assertThrows(IllegalArgumentException.class, () -> acc.openEvent(handle));
  }
}
