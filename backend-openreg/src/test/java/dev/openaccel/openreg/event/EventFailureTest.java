package dev.openaccel.openreg.event;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.testing.Gate;
import dev.openaccel.openreg.testing.Kernels;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Failure semantics of events: a kernel that throws fails every event recorded after it on its
 * stream with a {@link DeviceExecutionException} naming the kernel and carrying the kernel's
 * exception as its cause; later work still runs; a stream waiting on a failed record does not hang,
 * and the failure propagates to what that stream records next.
 */
class EventFailureTest extends SharedAcceleratorTest {
  private static final Device D0 = Device.parse("openreg:0");
  private static final Device D1 = Device.parse("openreg:1");
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String KERNEL = "exploding-kernel";

  @Override
  protected Config config() {
    return ConfigFactory.parseString("openaccel.system-name = event-failure");
  }

  /** Asserts that {@code e} reports the failure of {@link #KERNEL} caused by {@code cause}. */
  private static void assertReports(Throwable e, RuntimeException cause) {
    DeviceExecutionException failure = assertInstanceOf(DeviceExecutionException.class, e);
    assertTrue(failure.getMessage().contains(KERNEL), failure.getMessage());
    assertSame(cause, failure.getCause());
  }

  @Test
  void eventRecordedAfterAFailingKernelFailsSynchronize() {
    Stream stream = acc.newStream(D0);
    IllegalStateException boom = new IllegalStateException("boom");
    stream.launch(KERNEL, Kernels.throwing(boom));
    Event event = stream.recordEvent();
    assertReports(assertThrows(DeviceExecutionException.class, event::synchronize), boom);
    assertTrue(event.query(), "failed work has completed");
  }

  @Test
  void eventRecordedAfterAFailingKernelFailsTimedSynchronize() {
    Stream stream = acc.newStream(D1);
    ArithmeticException boom = new ArithmeticException("division by zero");
    stream.launch(KERNEL, Kernels.throwing(boom));
    Event event = stream.recordEvent();
    assertReports(
        assertThrows(DeviceExecutionException.class, () -> event.synchronize(WAIT)), boom);
  }

  @Test
  void completionOfAnEventRecordedAfterAFailingKernelFails() {
    Stream stream = acc.newStream(D0);
    IllegalArgumentException boom = new IllegalArgumentException("bad input");
    stream.launch(KERNEL, Kernels.throwing(boom));
    CompletableFuture<Void> completion = stream.recordEvent().completion().toCompletableFuture();
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> completion.get(10, TimeUnit.SECONDS));
    assertReports(e.getCause(), boom);
  }

  @Test
  void eventRecordedBeforeTheFailingKernelSucceeds() {
    Stream stream = acc.newStream(D0);
    Event before = stream.recordEvent();
    stream.launch(KERNEL, Kernels.throwing(new IllegalStateException("boom")));
    Event after = stream.recordEvent();
    assertThrows(DeviceExecutionException.class, after::synchronize);
    assertDoesNotThrow(() -> before.synchronize());
  }

  @Test
  void workAfterAFailingKernelStillRuns() throws Exception {
    Stream stream = acc.newStream(D0);
    stream.launch(KERNEL, Kernels.throwing(new IllegalStateException("boom")));
    CompletableFuture<String> later =
        stream.submit("later", () -> "still runs").toCompletableFuture();
    assertEquals("still runs", later.get(10, TimeUnit.SECONDS));
    Event event = stream.recordEvent();
    assertThrows(DeviceExecutionException.class, event::synchronize);
  }

  @Test
  void eventsRecordedAfterTheFailureFailUntilTheStreamReportsIt() {
    Stream stream = acc.newStream(D1);
    IllegalStateException boom = new IllegalStateException("boom");
    stream.launch(KERNEL, Kernels.throwing(boom));
    Event first = stream.recordEvent();
    stream.launch("fine", () -> {});
    Event second = stream.recordEvent();
    assertReports(assertThrows(DeviceExecutionException.class, first::synchronize), boom);
    assertReports(assertThrows(DeviceExecutionException.class, second::synchronize), boom);
    assertReports(assertThrows(DeviceExecutionException.class, stream::synchronize), boom);
    Event afterReport = stream.recordEvent();
    assertDoesNotThrow(() -> afterReport.synchronize());
  }

  @Test
  void streamWaitingOnAFailedEventDoesNotHang() throws Exception {
    Stream producer = acc.newStream(D0);
    Stream consumer = acc.newStream(D0);
    producer.launch(KERNEL, Kernels.throwing(new IllegalStateException("boom")));
    Event failed = producer.recordEvent();
    consumer.waitEvent(failed);
    CompletableFuture<String> later = consumer.submit("later", () -> "ran").toCompletableFuture();
    assertEquals("ran", later.get(10, TimeUnit.SECONDS));
  }

  @Test
  void failureOfAWaitedEventPropagatesToTheWaitingStreamsNextRecord() throws Exception {
    Stream producer = acc.newStream(D0);
    Stream consumer = acc.newStream(D0);
    IllegalStateException boom = new IllegalStateException("boom");
    try (Gate gate = new Gate()) {
      producer.launch("gate", gate::hold);
      producer.launch(KERNEL, Kernels.throwing(boom));
      Event failed = producer.recordEvent();
      consumer.waitEvent(failed);
      Event next = consumer.recordEvent();
      gate.open();
      assertReports(assertThrows(DeviceExecutionException.class, next::synchronize), boom);
    }
  }

  @Test
  void failureOfAWaitedEventPropagatesAcrossDevices() {
    Stream producer = acc.newStream(D0);
    Stream consumer = acc.newStream(D1);
    IllegalStateException boom = new IllegalStateException("boom");
    producer.launch(KERNEL, Kernels.throwing(boom));
    Event failed = producer.recordEvent();
    consumer.waitEvent(failed);
    Event next = consumer.recordEvent();
    assertReports(assertThrows(DeviceExecutionException.class, next::synchronize), boom);
    assertReports(assertThrows(DeviceExecutionException.class, consumer::synchronize), boom);
    assertDoesNotThrow(consumer::synchronize);
  }
}
