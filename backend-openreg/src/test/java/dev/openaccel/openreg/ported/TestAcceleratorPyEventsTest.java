package dev.openaccel.openreg.ported;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.StreamGuard;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Port of the event cases of PyTorch's {@code test/test_accelerator.py} ({@code
 * test_generic_event_behavior}, {@code test_generic_stream_behavior}) to OpenAccel's generic {@code
 * Accelerator}/{@code Event} API, on the OpenReg backend. PyTorch raises {@code ValueError} for
 * both elapsed-time errors; OpenAccel makes "never recorded" an {@link IllegalStateException}.
 */
class TestAcceleratorPyEventsTest extends SharedAcceleratorTest {
  @Override
  protected Config config() {
    return ConfigFactory.parseString("openaccel.system-name = accelerator-event");
  }

  /** test_generic_event_behavior, first case */
  @Test
  void elapsedTimeOfEventsCreatedWithoutTimingIsRejected() {
    Event start = acc.newEvent(EventOptions.defaults().withTiming(false));
    Event end = acc.newEvent(EventOptions.defaults().withTiming(false));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> start.elapsedTime(end));
    assertTrue(e.getMessage().contains("must be created with enable_timing"), e.getMessage());
  }

  /** test_generic_event_behavior, second case */
  @Test
  void elapsedTimeOfNeverRecordedTimingEventsIsRejected() {
    Event start = acc.newEvent(EventOptions.timing());
    Event end = acc.newEvent(EventOptions.timing());
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> start.elapsedTime(end));
    assertTrue(
        e.getMessage().contains("must be recorded before calculating elapsed time"),
        e.getMessage());
  }

  /** test_generic_event_behavior, third case: timing is off by default */
  @Test
  void eventsHaveTimingOffByDefault() {
    Event start = acc.newEvent();
    Event end = acc.newEvent();
    assertFalse(start.options().enableTiming());
    assertEquals(EventOptions.defaults(), end.options());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> start.elapsedTime(end));
    assertTrue(e.getMessage().contains("must be created with enable_timing"), e.getMessage());
  }

  /**
   * test_generic_stream_behavior: an event recorded on a stream that is not current orders the host
   * against that stream's copies, and can be recorded again after a synchronize.
   */
  @Test
  void eventRecordedOnANonCurrentStreamOrdersTheHostAgainstIt() {
    Stream computeStream = acc.newStream();
    Stream copyStream = acc.newStream();
    Event event = acc.newEvent();
    int[] a = {1, 2, 3};
    int[] b = {10, 20, 30};
    AtomicReference<int[]> aOnDevice = new AtomicReference<>();
    AtomicReference<int[]> bOnDevice = new AtomicReference<>();
    AtomicReference<int[]> sum = new AtomicReference<>();
    acc.setStream(computeStream);
    try {
      try (StreamGuard guard = acc.streamGuard(copyStream)) {
        assertEquals(copyStream, guard.currentStream());
        assertEquals(copyStream, acc.currentStream());
        acc.currentStream().launch("copy a", () -> aOnDevice.set(a.clone()));
        acc.currentStream().launch("copy b", () -> bOnDevice.set(b.clone()));
      }
      assertEquals(computeStream, acc.currentStream());
      event.record(copyStream);
      event.synchronize();
      acc.currentStream()
          .launch(
              "add",
              () -> {
                int[] out = new int[a.length];
                for (int i = 0; i < out.length; i++) {
                  out[i] = aOnDevice.get()[i] + bOnDevice.get()[i];
                }
                sum.set(out);
              });
      event.record(copyStream);
      acc.synchronize();
      assertTrue(event.query());
      assertArrayEquals(new int[] {11, 22, 33}, sum.get());
    } finally {
      acc.setStream(acc.defaultStream(computeStream.device()));
    }
  }
}
