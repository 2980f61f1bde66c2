package dev.openaccel.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Stream;
import dev.openaccel.testkit.StreamStepper;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.ref.WeakReference;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

/** The queue-depth gauges: default streams always, other streams while watched. */
class StreamGaugesTest extends MetricsTest {

  private Gauge pending(Stream stream) {
    return registry
        .find(MeterNames.STREAM_PENDING)
        .tag(MeterNames.DEVICE, stream.device().toString())
        .tag(MeterNames.STREAM, Long.toString(stream.id()))
        .gauge();
  }

  @Test
  void queueDepthReadsFourWhileAKernelIsHeldWithThreeQueuedAndZeroAfterSynchronize() {
    Stream stream = acc.newStream(OPENREG_0);
    metrics.watch(stream);
    try (StreamStepper stepper = StreamStepper.on(acc, stream)) {
      stream.launch("held", () -> {});
      for (int i = 0; i < 3; i++) {
        stream.launch("queued" + i, () -> {});
      }
      assertEquals("held", stepper.awaitHeld(WAIT));
      assertEquals(4, pending(stream).value(), "a held kernel and three queued behind it");
    } // the stream runs freely again
    stream.synchronize();
    assertEquals(0, pending(stream).value(), "after synchronize");
    assertEquals("items", pending(stream).getId().getBaseUnit());
    stream.close();
  }

  @Test
  void theDefaultStreamOfEveryDeviceIsWatched() {
    for (DeviceType type : acc.deviceTypes()) {
      for (int i = 0; i < acc.deviceCount(type); i++) {
        Stream defaultStream = acc.defaultStream(Device.of(type, i));
        assertNotNull(pending(defaultStream), "gauge of " + defaultStream);
        assertEquals(0, pending(defaultStream).value());
      }
    }
  }

  @Test
  void unwatchRemovesTheGaugeAndWatchingTwiceRegistersOne() {
    Stream stream = acc.newStream(OPENREG_0);
    metrics.watch(stream);
    metrics.watch(stream);
    assertEquals(
        1,
        registry
            .find(MeterNames.STREAM_PENDING)
            .tag(MeterNames.STREAM, Long.toString(stream.id()))
            .gauges()
            .size());
    assertTrue(metrics.unwatch(stream));
    assertNull(pending(stream), "gauge after unwatch");
    assertFalse(metrics.unwatch(stream), "a second unwatch finds nothing");
    stream.close();
  }

  @Test
  void aClosedStreamStillReportsItsQueueDepthUntilUnwatched() {
    Stream stream = acc.newStream(OPENREG_0);
    metrics.watch(stream);
    stream.launch("before close", () -> {});
    stream.close();
    awaitTrue(() -> pending(stream).value() == 0, "the closed stream's work to complete");
    assertTrue(metrics.unwatch(stream));
    assertNull(pending(stream), "gauge after unwatch");
  }

  @Test
  void aStreamWatchedBeforeTheBindGetsItsGaugeAtTheBind() {
    Stream stream = acc.newStream(OPENREG_0);
    SimpleMeterRegistry later = new SimpleMeterRegistry();
    try (OpenAccelMetrics unbound = new OpenAccelMetrics(acc)) {
      unbound.watch(stream);
      unbound.bindTo(later);
      assertNotNull(
          later
              .find(MeterNames.STREAM_PENDING)
              .tag(MeterNames.STREAM, Long.toString(stream.id()))
              .gauge());
    }
    stream.close();
  }

  @Test
  void theBinderDoesNotKeepAClosedStreamAliveAndItsGaugeGoesAwayOnceItIsCollected() {
    Closed closed = watchedAndClosed();
    awaitTrue(
        () -> {
          System.gc();
          return closed.stream().get() == null;
        },
        "the closed, unreferenced stream to be collected");
    Gauge gauge = pendingOfId(closed.id());
    assertNotNull(gauge, "the gauge stays until it is read");
    assertTrue(Double.isNaN(gauge.value()), "a collected stream's gauge reads NaN");
    awaitTrue(() -> pendingOfId(closed.id()) == null, "the collected stream's gauge to go");
  }

  @Test
  void watchingAStreamOfAnotherDeviceIsRejected() {
    Stream foreign =
        Stream.wrap(
            Device.of(OPENREG, acc.deviceCount(OPENREG)),
            1,
            0,
            (Stream.Ops)
                Proxy.newProxyInstance(
                    Stream.Ops.class.getClassLoader(),
                    new Class<?>[] {Stream.Ops.class},
                    (proxy, method, args) -> {
                      throw new UnsupportedOperationException(method.getName());
                    }));
    IllegalArgumentException rejected =
        assertThrows(IllegalArgumentException.class, () -> metrics.watch(foreign));
    assertTrue(
        rejected.getMessage().contains(foreign.toString())
            && rejected.getMessage().contains("openreg:1]"),
        rejected.getMessage());
  }

  private record Closed(WeakReference<Stream> stream, long id) {}

  /** A stream watched, given work, closed and settled, of which the caller keeps no reference. */
  private Closed watchedAndClosed() {
    Stream stream = acc.newStream(OPENREG_0);
    metrics.watch(stream);
    stream.launch("before close", () -> {});
    stream.close();
    long id = stream.id();
    awaitTrue(() -> !isListed(OPENREG_0, id), "the closed stream to leave its device");
    return new Closed(new WeakReference<>(stream), id);
  }

  private Gauge pendingOfId(long id) {
    return registry
        .find(MeterNames.STREAM_PENDING)
        .tag(MeterNames.DEVICE, OPENREG_0.toString())
        .tag(MeterNames.STREAM, Long.toString(id))
        .gauge();
  }

  private boolean isListed(Device device, long id) {
    try {
      acc.stream(device, id);
      return true;
    } catch (IllegalArgumentException unknown) {
      return false;
    }
  }
}
