package dev.openaccel.openreg.event;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.OpenRegEvent;
import dev.openaccel.openreg.testing.Gate;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream.Builder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An event's life: creation by the first record, ids, and close (idempotent, never throws; every
 * operation after it throws {@link IllegalStateException}).
 */
class EventLifecycleTest extends SharedAcceleratorTest {
  private static final Device D0 = Device.parse("openreg:0");
  private static final Device D1 = Device.parse("openreg:1");

  @Override
  protected Config config() {
    return ConfigFactory.parseString("openaccel.system-name = event-lifecycle");
  }

  // ---- ids and creation ----

  @Test
  void idIsZeroAndNothingIsCreatedBeforeTheFirstRecord() {
    Event event = acc.newEvent();
    assertEquals(0, event.id());
    assertFalse(event.isCreated());
    assertFalse(event.wasRecorded());
    event.record(acc.newStream(D0));
    assertNotEquals(0, event.id());
    assertTrue(event.isCreated());
    assertTrue(event.wasRecorded());
  }

  @Test
  void idIsStableAcrossReRecordsOnStreamsOfItsDevice() {
    Event event = acc.newEvent();
    event.record(acc.newStream(D1));
    long id = event.id();
    event.record(acc.newStream(D1));
    event.record(acc.defaultStream(D1));
    event.synchronize();
    event.record(acc.newStream(D1));
    assertEquals(id, event.id());
  }

  @Test
  void idsAreUniqueAmongLiveEventsOfAllDevicesAndClasses() {
    List<Event> live = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      Stream stream = acc.newStream(i % 2 == 0 ? D0 : D1);
      live.add(stream.recordEvent());
      Event generic = acc.newEvent(EventOptions.timing());
      generic.record(stream);
      live.add(generic);
      Event openReg = new OpenRegEvent(acc);
      openReg.record(stream);
      live.add(openReg);
    }
    Set<Long> ids = new HashSet<>();
    for (Event event : live) {
      assertNotEquals(0, event.id());
      assertTrue(ids.add(event.id()), "duplicate id " + event.id());
    }
  }

  // ---- close ----

  @Test
  void closeIsIdempotentAndNeverThrowsInAnyState() throws Exception {
    Event neverRecorded = acc.newEvent();
    Event completed = acc.newStream(D0).recordEvent();
    completed.synchronize();
    try (Gate gate = new Gate()) {
      Stream stream = acc.newStream(D0);
      stream.launch("gate", gate::hold);
      Event pending = stream.recordEvent();
      for (Event event : List.of(neverRecorded, completed, pending)) {
        assertDoesNotThrow(event::close);
        assertDoesNotThrow(event::close);
        assertFalse(event.isCreated());
      }
    }
  }

  @Test
  void closedEventKeepsItsIdentity() {
    Event event = acc.newEvent(EventOptions.timing());
    event.record(acc.newStream(D1));
    long id = event.id();
    event.close();
    assertEquals(id, event.id());
    assertEquals(Optional.of(D1), event.device());
    assertEquals(1, event.deviceIndex());
    assertEquals(EventOptions.timing(), event.options());
    assertTrue(event.wasRecorded());
    assertFalse(event.isCreated());
  }

  java.util.stream.Stream<Arguments> operations() {
    Builder<Arguments> ops = java.util.stream.Stream.builder();
    add(ops, "record(stream)", e -> e.record(acc.newStream(D0)));
    add(ops, "record()", Event::record);
    add(ops, "recordOnce(stream)", e -> e.recordOnce(acc.newStream(D0)));
    add(ops, "block(stream)", e -> e.block(acc.newStream(D0)));
    add(ops, "block()", Event::block);
    add(ops, "query()", Event::query);
    add(ops, "synchronize()", Event::synchronize);
    add(ops, "synchronize(timeout)", e -> e.synchronize(Duration.ofSeconds(1)));
    add(ops, "completion()", Event::completion);
    add(ops, "elapsedTime(open end)", e -> e.elapsedTime(timingCompletedOnD0()));
    add(ops, "elapsedTime as the end", e -> timingCompletedOnD0().elapsedTime(e));
    add(ops, "elapsed(open end)", e -> e.elapsed(timingCompletedOnD0()));
    add(ops, "stream.waitEvent", e -> acc.newStream(D0).waitEvent(e));
    add(ops, "stream.recordEvent", e -> acc.newStream(D0).recordEvent(e));
    return ops.build();
  }

  private static void add(Builder<Arguments> ops, String name, Consumer<Event> op) {
    ops.add(Arguments.of(name, op));
  }

  private Event timingCompletedOnD0() {
    Event event = acc.newEvent(EventOptions.timing());
    event.record(acc.newStream(D0));
    event.synchronize();
    return event;
  }

  @ParameterizedTest(name = "{0} on a closed recorded event")
  @MethodSource("operations")
  void operationOnAClosedRecordedEventIsRejected(String name, Consumer<Event> operation) {
    Event event = timingCompletedOnD0();
    event.close();
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> operation.accept(event), name);
    assertTrue(e.getMessage().contains("closed"), e.getMessage());
  }

  @ParameterizedTest(name = "{0} on a closed never-recorded event")
  @MethodSource("operations")
  void operationOnAClosedNeverRecordedEventIsRejected(String name, Consumer<Event> operation) {
    Event event = acc.newEvent(EventOptions.timing());
    event.close();
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> operation.accept(event), name);
    assertTrue(e.getMessage().contains("closed"), e.getMessage());
    assertFalse(event.wasRecorded());
  }

  @Test
  void handleOfAClosedInterprocessEventIsRejected() {
    Event event = acc.newEvent(EventOptions.defaults().withInterprocess(true));
    event.record(acc.newStream(D0));
    event.close();
    IllegalStateException e = assertThrows(IllegalStateException.class, event::handle);
    assertTrue(e.getMessage().contains("closed"), e.getMessage());
  }

  @Test
  void closingAnEventDoesNotCancelWaitsOrCompletionsTakenBeforeIt() throws Exception {
    Stream producer = acc.newStream(D0);
    Stream consumer = acc.newStream(D0);
    try (Gate gate = new Gate()) {
      producer.launch("gate", gate::hold);
      Event event = producer.recordEvent();
      consumer.waitEvent(event);
      CompletableFuture<Void> completion = event.completion().toCompletableFuture();
      event.close();
      CompletableFuture<Boolean> after =
          consumer.<Boolean>submit("after", gate::isOpen).toCompletableFuture();
      gate.open();
      assertTrue(after.get(10, TimeUnit.SECONDS));
      completion.get(10, TimeUnit.SECONDS);
    }
  }
}
