package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.KernelContext;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Conformance of {@link Stream#close}: queued work still runs, in order; the call waits for
 * nothing; every later call that enqueues or synchronizes is refused at the call; the stream then
 * leaves its device (its id is unknown from then on) and the device's other streams and its
 * synchronize are unaffected. Also {@link Stream#pendingWork}, and {@code newStream} on a closed
 * accelerator.
 */
public abstract class StreamCloseTck extends BackendTck {
  private static final String REFUSED = "accepts no more work";

  @Test
  void pendingWorkCountsWhatHasNotCompleted() {
    CountDownLatch gate = gate();
    Stream stream = newStream(0);
    assertEquals(0, stream.pendingWork(), about("an idle stream's pending work"));
    hold(stream, gate);
    for (int i = 0; i < 3; i++) {
      stream.launch("queued" + i, () -> {});
    }
    assertEquals(4, stream.pendingWork(), about("a held kernel and three queued behind it"));
    gate.countDown();
    stream.synchronize();
    assertEquals(0, stream.pendingWork(), about("pending work after synchronize"));
  }

  @Test
  void closeWaitsForNothingAndQueuedWorkStillRunsInOrder() throws Exception {
    CountDownLatch gate = gate();
    CountDownLatch last = new CountDownLatch(1);
    AtomicInteger next = new AtomicInteger();
    AtomicInteger outOfOrder = new AtomicInteger();
    Stream stream = newStream(0);
    hold(stream, gate);
    for (int i = 0; i < 50; i++) {
      int expected = i;
      stream.launch(
          "queued" + i,
          () -> {
            if (next.getAndIncrement() != expected) {
              outOfOrder.incrementAndGet();
            }
          });
    }
    stream.launch("last", last::countDown);
    stream.close(); // returns although the stream is held: it waits for nothing
    assertFalse(stream.query(), about("the held stream right after close"));
    gate.countDown();
    assertOpens(last);
    assertEquals(50, next.get(), about("kernels queued before close that ran"));
    assertEquals(0, outOfOrder.get(), about("kernels that ran out of order after close"));
    assertEventually(stream::query, "the closed stream's query() after its work ran");
    assertEquals(0, stream.pendingWork());
  }

  @Test
  void everyCallThatEnqueuesOrSynchronizesIsRefusedAfterClose() {
    Stream stream = newStream(0);
    stream.launch("before", () -> {});
    stream.close();
    Event event = newEvent();
    try {
      assertRefused(() -> stream.launch("after", () -> {}), "launch");
      assertRefused(() -> stream.submit("after", () -> 1), "submit");
      assertRefused(stream::synchronize, "synchronize");
      assertRefused(stream::synchronizeAsync, "synchronizeAsync");
      assertRefused(() -> event.record(stream), "record");
      assertRefused(() -> stream.waitStream(newStream(0)), "waitStream on it");
      assertRefused(() -> newStream(0).waitStream(stream), "waitStream for it");
    } finally {
      event.close();
    }
    stream.close(); // idempotent
  }

  @Test
  void aClosedStreamLeavesItsDeviceAndItsIdIsNotReused() {
    Stream unused = newStream(0);
    unused.close(); // never had work: gone at once
    assertUnknown(unused);
    Stream used = newStream(0);
    used.launch("k", () -> {});
    used.close();
    assertEventually(() -> isUnknown(used), used + " to leave its device after its work ran");
    Stream later = newStream(0);
    assertTrue(later.id() != used.id() && later.id() != unused.id(), "a closed stream's id reused");
    later.launch("k", () -> {});
    later.synchronize();
  }

  @Test
  void deviceSynchronizeIsUnaffectedByStreamsClosingAroundIt() {
    for (int round = 0; round < 50; round++) {
      Stream stream = newStream(0);
      AtomicInteger ran = new AtomicInteger();
      for (int i = 0; i < 5; i++) {
        stream.launch("k", ran::incrementAndGet);
      }
      stream.close();
      accelerator().synchronize(device(0)); // covers the closing stream's work; never fails
      assertEquals(5, ran.get(), about("kernels of a closing stream a device sync covered"));
    }
  }

  @Test
  void sharedStreamsCannotBeClosed() {
    Stream defaultStream = accelerator().defaultStream(device(0));
    IllegalStateException refused = assertThrows(IllegalStateException.class, defaultStream::close);
    assertTrue(refused.getMessage().contains("default stream"), refused.getMessage());
    defaultStream.launch("still usable", () -> {});
    defaultStream.synchronize();
  }

  @Test
  void newStreamOnAClosedAcceleratorIsRefusedAtTheCall() {
    String name = ("stream-close-" + deviceType().name()).replace('_', '-');
    Accelerator closed =
        Accelerator.start(
            ConfigFactory.parseString("openaccel.system-name = \"" + name + "\"")
                .withFallback(backendConfig()));
    closed.close();
    IllegalStateException refused =
        assertThrows(IllegalStateException.class, () -> closed.newStream(device(0)));
    assertTrue(refused.getMessage().contains("accepts no more"), refused.getMessage());
  }

  @Test
  void memoryOfAClosedStreamGoesBackToTheDevice() {
    assumeDeclared(Capability.DEVICE_MEMORY);
    Device device = device(0);
    Stream stream = newStream(0);
    accelerator().setStream(stream);
    long before = accelerator().memoryStats(device).reserved();
    DeviceBuffer cached = accelerator().allocate(device, 4096);
    DeviceBuffer open = accelerator().allocate(device, 8192);
    cached.close(); // into the stream's cache
    stream.launch("uses it", (KernelContext context) -> {}, open);
    stream.close();
    assertRefused(() -> accelerator().allocate(device, 4096), "allocate");
    accelerator().setStream(accelerator().defaultStream(device));
    open.close(); // after the stream's work: straight back to the device
    assertEventually(
        () -> accelerator().memoryStats(device).reserved() == before,
        "reserved memory back at " + before + " after the stream closed");
  }

  private void assertRefused(Executable call, String what) {
    IllegalStateException refused =
        assertThrows(IllegalStateException.class, call, about(what + " on a closed stream"));
    assertTrue(
        String.valueOf(refused.getMessage()).contains(REFUSED),
        about(what + " on a closed stream threw: " + refused.getMessage()));
  }

  private void assertUnknown(Stream stream) {
    assertTrue(isUnknown(stream), about(stream + " is still known after close"));
  }

  private boolean isUnknown(Stream stream) {
    try {
      accelerator().stream(stream.device(), stream.id());
      return false;
    } catch (IllegalArgumentException unknown) {
      return true;
    }
  }

  // A condition the stream's own actor makes true after its last item: polled, bounded by WAIT.
  private void assertEventually(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, about("waited " + WAIT + " for " + what));
      Thread.yield();
    }
  }
}
