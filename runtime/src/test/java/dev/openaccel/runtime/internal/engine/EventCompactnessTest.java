package dev.openaccel.runtime.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.actor.EventSignal;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.EngineSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * An event packs its state into few fields (the options and the closed flag in one byte; id, device
 * and timing flag in one key): every part reads back as given, the first record is made once
 * however many threads race to make it, records stay numbered exactly, and a close races safely
 * with another.
 */
class EventCompactnessTest {
  private static final ActorTestKit KIT = ActorTestKit.create();
  private static final DeviceType TYPE = DeviceType.of("compact");
  private static final ActorEngine ENGINE =
      Engines.start(
          KIT.system(),
          EngineSpec.builder(TYPE)
              .deviceCount(2)
              .computeUnits(2)
              .capabilities(Capability.EVENTS, Capability.TIMING, Capability.INTERPROCESS_EVENTS)
              .build());

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  @Test
  void theKeyKeepsIdDeviceAndTimingApart() {
    EngineEvent largest = new EngineEvent(EngineEvent.ID_MASK, EngineEvent.MAX_DEVICE_INDEX, true);
    assertEquals(EngineEvent.ID_MASK, largest.id());
    assertEquals(EngineSpec.MAX_DEVICE_COUNT - 1, largest.deviceIndex());
    assertTrue(largest.timing());
    EngineEvent small = new EngineEvent(1, 0, false);
    assertEquals(1, small.id());
    assertEquals(0, small.deviceIndex());
    assertFalse(small.timing());
    assertThrows(IllegalArgumentException.class, () -> new EngineEvent(0, 0, false));
    assertThrows(
        IllegalArgumentException.class, () -> new EngineEvent(EngineEvent.ID_MASK + 1, 0, false));
    assertThrows(
        IllegalArgumentException.class,
        () -> new EngineEvent(1, EngineEvent.MAX_DEVICE_INDEX + 1, false));
  }

  @Test
  void anEngineServesAtMostTheDevicesAKeyCanName() {
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () -> EngineSpec.builder(TYPE).deviceCount(EngineSpec.MAX_DEVICE_COUNT + 1).build());
    assertTrue(error.getMessage().contains("deviceCount"), error.getMessage());
    assertTrue(
        error.getMessage().contains(String.valueOf(EngineSpec.MAX_DEVICE_COUNT + 1)),
        error.getMessage());
  }

  @Test
  void everyOptionReadsBackAndCloseKeepsThem() {
    for (boolean timing : new boolean[] {false, true}) {
      for (boolean blocking : new boolean[] {false, true}) {
        for (boolean interprocess : new boolean[] {false, true}) {
          if (timing && interprocess) {
            continue; // rejected by the contract
          }
          EventOptions options = new EventOptions(timing, blocking, interprocess);
          Event event = Engines.newEvent(ENGINE, options);
          assertEquals(options, event.options());
          event.record(ENGINE.getNewStream(Device.of(TYPE, 1), 0));
          assertEquals(1, event.deviceIndex());
          assertEquals(Device.of(TYPE, 1), event.device().orElseThrow());
          assertTrue(event.isCreated());
          event.close();
          assertFalse(event.isCreated());
          assertEquals(options, event.options(), "closing keeps the options");
          assertEquals(1, event.deviceIndex(), "closing keeps the device");
        }
      }
    }
  }

  @Test
  void racingFirstRecordsMakeOneEventAndEveryRecordCounts() throws Exception {
    int threads = 4;
    int recordsEach = 2_000;
    Event event = Engines.newEvent(ENGINE, EventOptions.defaults());
    race(
        threads,
        stream -> {
          for (int i = 0; i < recordsEach; i++) {
            event.record(stream);
          }
        });
    assertEquals((long) threads * recordsEach, latestGeneration(event), "records numbered exactly");
    event.close();
  }

  @Test
  void racingRecordOncesRecordOnce() throws Exception {
    for (int round = 0; round < 50; round++) {
      Event event = Engines.newEvent(ENGINE, EventOptions.defaults());
      race(4, event::recordOnce);
      assertEquals(1, latestGeneration(event), "one record among the racing recordOnce calls");
      event.close();
    }
  }

  /** Runs {@code body} on {@code threads} threads at once, each with a stream of its own. */
  private static void race(int threads, Consumer<Stream> body) throws Exception {
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Thread> recorders = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Stream stream = ENGINE.getNewStream(Device.of(TYPE, 0), 0);
      Thread recorder =
          new Thread(
              () -> {
                try {
                  start.await(10, TimeUnit.SECONDS);
                  body.accept(stream);
                } catch (Throwable e) {
                  synchronized (errors) {
                    errors.add(e);
                  }
                }
              });
      recorders.add(recorder);
      recorder.start();
    }
    for (Thread recorder : recorders) {
      recorder.join(TimeUnit.SECONDS.toMillis(30));
      assertFalse(recorder.isAlive(), "a recorder finished");
    }
    assertEquals(List.of(), errors);
  }

  /** The generation number of {@code event}'s latest record, from its completion signal. */
  private static long latestGeneration(Event event) {
    TestProbe<EventSignal> probe = KIT.createTestProbe();
    event.subscribe(probe.ref());
    EventSignal.Completed done = probe.expectMessageClass(EventSignal.Completed.class);
    assertEquals(event.id(), done.eventId());
    return done.generation();
  }

  @Test
  void racingClosesReleaseAnExportedEvent() throws Exception {
    Event event = Engines.newEvent(ENGINE, EventOptions.defaults().withInterprocess(true));
    event.record(ENGINE.getNewStream(Device.of(TYPE, 0), 0));
    long id = event.handle().eventId();
    assertEquals(event.id(), ENGINE.openEvent(id).id());
    Thread other = new Thread(event::close);
    other.start();
    event.close();
    other.join(TimeUnit.SECONDS.toMillis(10));
    assertFalse(other.isAlive());
    assertFalse(event.isCreated());
    IllegalArgumentException gone =
        assertThrows(IllegalArgumentException.class, () -> ENGINE.openEvent(id));
    assertTrue(gone.getMessage().contains(String.valueOf(id)), gone.getMessage());
  }
}
