package dev.openaccel.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.trace.Tracer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The binder's life: what it registers, its common tags, its misuse and its close. */
class OpenAccelMetricsTest extends MetricsTest {

  @Test
  void itRegistersTheDocumentedMetersAndNoOther() {
    Set<String> names = new TreeSet<>();
    registry.getMeters().forEach(m -> names.add(m.getId().getName()));
    assertEquals(
        new TreeSet<>(
            List.of(
                MeterNames.MEMORY_ALLOCATED,
                MeterNames.MEMORY_RESERVED,
                MeterNames.MEMORY_PEAK,
                MeterNames.MEMORY_CAPACITY,
                MeterNames.STREAM_PENDING,
                MeterNames.KERNELS_STARTED,
                MeterNames.KERNELS_FINISHED,
                MeterNames.KERNELS_FAILED,
                MeterNames.KERNEL_DURATION,
                MeterNames.EVENTS_RECORDED,
                MeterNames.EVENTS_WAITED,
                MeterNames.EVENTS_SYNCHRONIZED)),
        names);
    for (Meter meter : registry.getMeters()) {
      assertTrue(meter.getId().getTag(MeterNames.DEVICE) != null, meter.getId().toString());
      assertTrue(meter.getId().getTag(MeterNames.DEVICE_TYPE) != null, meter.getId().toString());
    }
  }

  @Test
  void commonTagsAreOnEveryMeter() {
    SimpleMeterRegistry tagged = new SimpleMeterRegistry();
    try (OpenAccelMetrics named = new OpenAccelMetrics(acc, Tags.of("accelerator", "first"))) {
      named.bindTo(tagged);
      assertFalse(tagged.getMeters().isEmpty());
      for (Meter meter : tagged.getMeters()) {
        assertEquals("first", meter.getId().getTag("accelerator"), meter.getId().toString());
      }
    }
  }

  @Test
  void closeRemovesEveryMeterAndUnsubscribesFromTheTraceBus() {
    // An accelerator of its own: the class's has the leak check of @OpenAccelTest listening too.
    try (Accelerator own = started("unsubscribed")) {
      SimpleMeterRegistry ownRegistry = new SimpleMeterRegistry();
      OpenAccelMetrics binder = new OpenAccelMetrics(own);
      binder.bindTo(ownRegistry);
      Stream stream = own.newStream(OPENREG_0);
      binder.watch(stream);
      assertTrue(((Tracer) own.trace()).enabled(), "bound: subscribed");
      binder.close();
      assertEquals(List.of(), ownRegistry.getMeters());
      assertFalse(((Tracer) own.trace()).enabled(), "closed: nobody listens any more");
      own.defaultStream(OPENREG_0).launch("after close", () -> {});
      own.synchronize(OPENREG_0);
      assertEquals(List.of(), ownRegistry.getMeters(), "work after the close registers nothing");
      binder.close(); // idempotent
      stream.close();
    }
  }

  @Test
  void bindingTwiceIsRejected() {
    IllegalStateException twice =
        assertThrows(IllegalStateException.class, () -> metrics.bindTo(new SimpleMeterRegistry()));
    assertTrue(twice.getMessage().contains("already bound"), twice.getMessage());
  }

  @Test
  void aClosedBinderRejectsBindAndWatch() {
    metrics.close();
    IllegalStateException bind =
        assertThrows(IllegalStateException.class, () -> metrics.bindTo(new SimpleMeterRegistry()));
    assertTrue(bind.getMessage().contains("closed"), bind.getMessage());
    IllegalStateException watch =
        assertThrows(
            IllegalStateException.class, () -> metrics.watch(acc.defaultStream(OPENREG_0)));
    assertTrue(watch.getMessage().contains("closed"), watch.getMessage());
  }

  @Test
  void nullArgumentsAreRejected() {
    assertThrows(NullPointerException.class, () -> new OpenAccelMetrics(null));
    assertThrows(NullPointerException.class, () -> metrics.watch(null));
    assertThrows(NullPointerException.class, () -> metrics.unwatch(null));
  }

  @Test
  void aBinderClosesAfterItsAcceleratorClosed() {
    Accelerator own = started("closed-first");
    SimpleMeterRegistry ownRegistry = new SimpleMeterRegistry();
    OpenAccelMetrics binder = new OpenAccelMetrics(own);
    binder.bindTo(ownRegistry);
    own.close();
    binder.close();
    assertEquals(List.of(), ownRegistry.getMeters());
  }

  /** An accelerator of its own for a test that must not share the class's, named {@code name}. */
  private static Accelerator started(String name) {
    return Accelerator.start(ConfigFactory.parseString("openaccel.system-name = " + name));
  }
}
