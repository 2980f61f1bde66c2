package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.StreamGuard;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Conformance of a backend's streams: order and exclusivity of kernels on one stream, query and
 * synchronize, default and new streams, the current stream, cross-stream waits on one device, and
 * kernel failure reporting. Pooled streams are checked by {@link StreamPoolTck}.
 */
public abstract class StreamTck extends BackendTck {

  @Test
  void kernelsOnOneStreamRunInEnqueueOrder() {
    Stream stream = newStream(0);
    List<Integer> order = Collections.synchronizedList(new ArrayList<>());
    for (int i = 0; i < 500; i++) {
      int k = i;
      stream.launch("k" + i, () -> order.add(k));
    }
    stream.synchronize();
    assertEquals(500, order.size());
    for (int i = 0; i < 500; i++) {
      assertEquals(i, order.get(i), about("kernel order on one stream"));
    }
  }

  @Test
  void kernelsOnOneStreamNeverOverlap() {
    Stream stream = newStream(0);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    for (int i = 0; i < 200; i++) {
      stream.launch(
          "exclusive",
          () -> {
            if (running.incrementAndGet() != 1) {
              overlaps.incrementAndGet();
            }
            spin(2_000);
            running.decrementAndGet();
          });
    }
    stream.synchronize();
    assertEquals(0, overlaps.get(), about("kernels of one stream ran at the same time"));
  }

  @Test
  void queryIsTrueOnAnIdleStream() {
    assertTrue(newStream(0).query());
    assertTrue(accelerator().defaultStream(device(0)).query());
  }

  @Test
  void queryIsFalseWhileWorkIsPendingAndTrueAfterSynchronize() {
    CountDownLatch gate = gate();
    Stream stream = newStream(0);
    hold(stream, gate);
    stream.launch("after", () -> {});
    assertFalse(stream.query(), about("query while a kernel is held"));
    assertFalse(backend().queryStream(stream));
    gate.countDown();
    stream.synchronize();
    assertTrue(stream.query());
  }

  @Test
  void queryAndSynchronizeStayExactAfterEarlierWorkCompleted() throws Exception {
    Stream stream = newStream(0);
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 20; i++) {
        stream.launch("earlier", () -> {});
      }
      stream.synchronize();
      assertTrue(stream.query(), about("query after synchronize in round " + round));
      CountDownLatch gate = gate();
      hold(stream, gate);
      assertFalse(stream.query(), about("query ignored a held kernel in round " + round));
      assertFalse(
          stream.synchronizeAsync().toCompletableFuture().isDone(),
          about("synchronize finished before a held kernel in round " + round));
      CompletableFuture<Void> deviceSynced =
          accelerator().synchronizeAsync(device(0)).toCompletableFuture();
      assertFalse(
          deviceSynced.isDone(),
          about("device synchronize finished before a held kernel in round " + round));
      gate.countDown();
      stream.synchronize();
      await(deviceSynced);
    }
  }

  @Test
  void synchronizeWaitsForAllEnqueuedWork() {
    Stream stream = newStream(0);
    AtomicInteger done = new AtomicInteger();
    for (int i = 0; i < 50; i++) {
      stream.launch("count", () -> spin(10_000));
      stream.launch("count", done::incrementAndGet);
    }
    stream.synchronize();
    assertEquals(50, done.get());
  }

  @Test
  void synchronizeAsyncCompletesOnlyAfterEnqueuedWork() throws Exception {
    CountDownLatch gate = gate();
    Stream stream = newStream(0);
    AtomicBoolean ran = new AtomicBoolean();
    hold(stream, gate);
    stream.launch("mark", () -> ran.set(true));
    CompletableFuture<Void> synced = stream.synchronizeAsync().toCompletableFuture();
    assertFalse(synced.isDone());
    gate.countDown();
    await(synced);
    assertTrue(ran.get());
  }

  @Test
  void submitCompletesWithTheKernelsResult() throws Exception {
    Stream stream = newStream(0);
    CompletionStage<String> result = stream.submit("answer", () -> "forty-two");
    assertEquals("forty-two", await(result));
  }

  @Test
  void defaultStreamHasIdZeroAndIsCurrentOnANewThread() throws Exception {
    for (int i = 0; i < deviceCount(); i++) {
      Stream stream = accelerator().defaultStream(device(i));
      assertEquals(0, stream.id());
      assertEquals(device(i), stream.device());
      assertEquals(stream, backend().getDefaultStream(device(i)));
      int index = i;
      assertEquals(stream, onNewThread(() -> accelerator().currentStream(device(index))));
    }
  }

  @Test
  void newStreamsAreDistinctAndFoundAgainById() {
    Stream first = newStream(0);
    Stream second = newStream(0);
    assertNotEquals(first, second);
    assertNotEquals(0, first.id());
    assertEquals(first, accelerator().stream(device(0), first.id()));
    assertEquals(first.hashCode(), accelerator().stream(device(0), first.id()).hashCode());
    assertTrue(first.toString().contains("device_type=" + deviceType().name()), first.toString());
  }

  @Test
  void unknownStreamIdIsRejected() {
    assertThrows(
        IllegalArgumentException.class, () -> accelerator().stream(device(0), 987_654_321L));
  }

  @Test
  void setStreamMakesTheStreamAndItsDeviceCurrent() {
    int last = deviceCount() - 1;
    Stream stream = newStream(last);
    accelerator().setStream(stream);
    assertEquals(device(last), accelerator().currentDevice(deviceType()));
    assertEquals(stream, accelerator().currentStream(device(last)));
  }

  @Test
  void streamGuardRestoresStreamAndDevice() {
    int last = deviceCount() - 1;
    Stream stream = newStream(last);
    Stream before = accelerator().currentStream(device(last));
    try (StreamGuard guard = accelerator().streamGuard(stream)) {
      assertEquals(before, guard.originalStream());
      assertEquals(device(0), guard.originalDevice());
      assertEquals(stream, accelerator().currentStream(device(last)));
      assertEquals(device(last), accelerator().currentDevice(deviceType()));
    }
    assertEquals(before, accelerator().currentStream(device(last)));
    assertEquals(device(0), accelerator().currentDevice(deviceType()));
  }

  @Test
  void waitStreamOrdersLaterWorkAfterTheOtherStreamsEarlierWork() throws Exception {
    CountDownLatch gate = gate();
    Stream producer = newStream(0);
    Stream consumer = newStream(0);
    AtomicBoolean produced = new AtomicBoolean();
    hold(producer, gate);
    producer.launch("produce", () -> produced.set(true));
    consumer.waitStream(producer);
    CompletionStage<Boolean> seen = consumer.submit("consume", produced::get);
    producer.launch("later", () -> {});
    assertFalse(consumer.query(), about("a waiting stream reported idle"));
    gate.countDown();
    assertTrue(await(seen), about("the waiting stream ran before the work it waits for"));
  }

  @Test
  void waitStreamOnItselfKeepsTheStreamUsable() throws Exception {
    Stream stream = newStream(0);
    stream.launch("before", () -> {});
    stream.waitStream(stream);
    assertEquals(7, await(stream.submit("after", () -> 7)));
  }

  @Test
  void kernelFailureIsReportedOnceAtStreamSynchronize() {
    Stream stream = newStream(0);
    IllegalStateException boom = new IllegalStateException("kernel failed on purpose");
    AtomicBoolean laterRan = new AtomicBoolean();
    stream.launch(
        "boom",
        () -> {
          throw boom;
        });
    stream.launch("later", () -> laterRan.set(true));
    DeviceExecutionException e = assertThrows(DeviceExecutionException.class, stream::synchronize);
    assertSame(boom, e.getCause());
    assertTrue(laterRan.get(), about("work after a failed kernel must still run"));
    stream.synchronize();
  }

  @Test
  void failedSubmitCompletesItsStageExceptionallyAndIsNotReportedAgainBySync() throws Exception {
    Stream stream = newStream(0);
    CompletionStage<Integer> result =
        stream.submit(
            "boom",
            () -> {
              throw new ArithmeticException("no result");
            });
    ExecutionException e = assertThrows(ExecutionException.class, () -> await(result));
    Throwable cause = e.getCause();
    assertNotNull(cause);
    Throwable root = cause instanceof DeviceExecutionException ? cause.getCause() : cause;
    assertTrue(root instanceof ArithmeticException, "unexpected failure " + cause);
    stream.synchronize(); // reported once, by its stage: the next sync does not throw it again
    assertTrue(stream.recordEvent().synchronize(Duration.ofSeconds(10)));
  }

  @Test
  void blockingCallInsideAKernelIsRejected() throws Exception {
    Stream stream = newStream(0);
    Stream other = newStream(0);
    CompletionStage<Throwable> caught =
        stream.submit(
            "blocks",
            () -> {
              try {
                other.synchronize();
                return null;
              } catch (IllegalStateException e) {
                return e;
              }
            });
    Throwable e = await(caught);
    assertNotNull(e, about("Stream.synchronize inside a kernel did not throw"));
    assertTrue(e.getMessage().contains("blocking call on an actor thread"), e.getMessage());
    Throwable none = await(stream.submit("ok", () -> null));
    assertNull(none);
  }
}
