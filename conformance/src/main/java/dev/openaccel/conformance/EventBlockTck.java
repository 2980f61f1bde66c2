package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Conformance of {@link Capability#EVENTS}, stream side: a stream blocked on an event waits for the
 * record current at call time (its generation), never for a later one, and a failed record does not
 * hang its waiters. Port of the intent of torch_openreg/tests/test_event.py and test_stream.py.
 */
public abstract class EventBlockTck extends BackendTck {

  @Test
  void blockIsUnsupportedWithoutEvents() {
    assumeUndeclared(Capability.EVENTS);
    Stream stream = newStream(0);
    assertUnsupported(stream::recordEvent);
  }

  @Test
  void blockMakesTheStreamWaitForTheRecordedWork() throws Exception {
    assumeDeclared(Capability.EVENTS);
    CountDownLatch gate = gate();
    Stream producer = newStream(0);
    Stream consumer = newStream(0);
    AtomicBoolean produced = new AtomicBoolean();
    hold(producer, gate);
    producer.launch("produce", () -> produced.set(true));
    try (Event event = producer.recordEvent()) {
      event.block(consumer);
      CompletionStage<Boolean> seen = consumer.submit("consume", produced::get);
      assertFalse(consumer.query(), about("a blocked stream reported idle"));
      gate.countDown();
      assertTrue(await(seen), about("the blocked stream ran before the recorded work"));
    }
  }

  @Test
  void waitEventIsBlockOnTheStream() throws Exception {
    assumeDeclared(Capability.EVENTS);
    CountDownLatch gate = gate();
    Stream producer = newStream(0);
    Stream consumer = newStream(0);
    AtomicBoolean produced = new AtomicBoolean();
    hold(producer, gate);
    producer.launch("produce", () -> produced.set(true));
    try (Event event = producer.recordEvent()) {
      consumer.waitEvent(event);
      CompletionStage<Boolean> seen = consumer.submit("consume", produced::get);
      gate.countDown();
      assertTrue(await(seen));
    }
  }

  @Test
  void blockWithoutStreamBlocksTheCurrentStream() throws Exception {
    assumeDeclared(Capability.EVENTS);
    CountDownLatch gate = gate();
    Stream producer = newStream(0);
    Stream consumer = newStream(0);
    AtomicBoolean produced = new AtomicBoolean();
    hold(producer, gate);
    producer.launch("produce", () -> produced.set(true));
    try (Event event = producer.recordEvent()) {
      accelerator().setStream(consumer);
      event.block();
      CompletionStage<Boolean> seen = consumer.submit("consume", produced::get);
      gate.countDown();
      assertTrue(await(seen));
    }
  }

  @Test
  void blockCapturesTheRecordCurrentAtCallTime() throws Exception {
    assumeDeclared(Capability.EVENTS);
    CountDownLatch firstGate = gate();
    CountDownLatch secondGate = gate();
    Stream producer = newStream(0);
    Stream consumer = newStream(0);
    try (Event event = newEvent()) {
      hold(producer, firstGate);
      event.record(producer);
      event.block(consumer);
      hold(producer, secondGate);
      event.record(producer);
      CompletionStage<Integer> ran = consumer.submit("after first record", () -> 1);
      firstGate.countDown();
      // the consumer must not wait for the second record, which stays held
      assertEquals(1, await(ran), about("block followed a later record"));
      assertFalse(event.query(), about("the second record completed while held"));
      secondGate.countDown();
      assertTrue(event.synchronize(WAIT));
    }
  }

  @Test
  void blockOnANeverRecordedEventIsANoOp() throws Exception {
    assumeDeclared(Capability.EVENTS);
    Stream stream = newStream(0);
    try (Event event = newEvent()) {
      event.block(stream);
      assertEquals(3, await(stream.submit("runs", () -> 3)));
      assertFalse(event.wasRecorded());
    }
  }

  @Test
  void oneEventReleasesManyBlockedStreams() throws Exception {
    assumeDeclared(Capability.EVENTS);
    CountDownLatch gate = gate();
    Stream producer = newStream(0);
    AtomicInteger released = new AtomicInteger();
    hold(producer, gate);
    try (Event event = producer.recordEvent()) {
      CompletableFuture<?>[] all = new CompletableFuture<?>[8];
      for (int i = 0; i < all.length; i++) {
        Stream consumer = newStream(0);
        event.block(consumer);
        all[i] = consumer.submit("released", released::incrementAndGet).toCompletableFuture();
      }
      assertEquals(0, released.get());
      gate.countDown();
      await(CompletableFuture.allOf(all));
      assertEquals(all.length, released.get());
    }
  }

  @Test
  void blockingOnACompletedRecordDoesNotDelayTheStream() throws Exception {
    assumeDeclared(Capability.EVENTS);
    Stream producer = newStream(0);
    Stream consumer = newStream(0);
    try (Event event = producer.recordEvent()) {
      assertTrue(event.synchronize(WAIT));
      event.block(consumer);
      assertEquals(5, await(consumer.submit("runs", () -> 5)));
    }
  }

  @Test
  void aStreamBlockedOnAFailedRecordDoesNotHangAndReportsTheFailure() throws Exception {
    assumeDeclared(Capability.EVENTS);
    Stream producer = newStream(0);
    Stream consumer = newStream(0);
    IllegalStateException boom = new IllegalStateException("producer failed");
    producer.launch(
        "boom",
        () -> {
          throw boom;
        });
    try (Event event = producer.recordEvent()) {
      event.block(consumer);
      AtomicBoolean ran = new AtomicBoolean();
      consumer.launch("after", () -> ran.set(true));
      ExecutionException e =
          assertThrows(ExecutionException.class, () -> await(consumer.synchronizeAsync()));
      assertTrue(e.getCause() instanceof DeviceExecutionException, String.valueOf(e.getCause()));
      assertEquals(boom, e.getCause().getCause());
      assertTrue(ran.get(), about("the waiting stream stopped running its work"));
    }
    assertThrows(DeviceExecutionException.class, producer::synchronize);
  }
}
