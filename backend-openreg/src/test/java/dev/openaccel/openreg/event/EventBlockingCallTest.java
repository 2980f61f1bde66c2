package dev.openaccel.openreg.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.testing.Gate;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceGuard;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Blocking calls made from inside a kernel, on a device thread, throw {@link IllegalStateException}
 * containing "blocking call on an actor thread" whatever the state of the work they would wait for;
 * the non-blocking forms work there. Each kernel catches what it throws and returns it, and the
 * test asserts on the host.
 */
class EventBlockingCallTest extends SharedAcceleratorTest {
  private static final Device D0 = Device.parse("openreg:0");
  private static final Device D1 = Device.parse("openreg:1");
  private static final String PHRASE = "blocking call on an actor thread";

  @Override
  protected Config config() {
    return ConfigFactory.parseString("openaccel.system-name = event-blocking");
  }

  /**
   * Runs {@code call} inside a kernel on a fresh stream of {@code device}; returns what it threw.
   */
  private Throwable thrownInsideAKernel(Device device, Runnable call) throws Exception {
    CompletableFuture<Throwable> thrown =
        acc.newStream(device)
            .<Throwable>submit(
                "calls-blocking",
                () -> {
                  try {
                    call.run();
                    return null;
                  } catch (RuntimeException e) {
                    return e;
                  }
                })
            .toCompletableFuture();
    // Longer than a gate holds: if the call wrongly blocks on gated work, the gate gives up first
    // and the kernel reports that nothing was thrown, instead of the host timing out.
    return thrown.get(2 * Gate.HOLD_SECONDS, TimeUnit.SECONDS);
  }

  private void assertRejectedInsideAKernel(Device device, Runnable call) throws Exception {
    Throwable e = thrownInsideAKernel(device, call);
    assertNotNull(e, "the blocking call inside a kernel did not throw");
    assertInstanceOf(IllegalStateException.class, e);
    assertTrue(e.getMessage().contains(PHRASE), e.getMessage());
  }

  @Test
  void eventSynchronizeInsideAKernelIsRejected() throws Exception {
    Event completed = acc.newStream(D0).recordEvent();
    completed.synchronize();
    assertRejectedInsideAKernel(D0, completed::synchronize);
    assertRejectedInsideAKernel(D0, () -> acc.newEvent().synchronize());
  }

  @Test
  void eventSynchronizeOfPendingWorkInsideAKernelIsRejected() throws Exception {
    Stream held = acc.newStream(D0);
    try (Gate gate = new Gate()) {
      held.launch("gate", gate::hold);
      Event pending = held.recordEvent();
      assertRejectedInsideAKernel(D0, pending::synchronize);
      assertRejectedInsideAKernel(D1, pending::synchronize);
    }
  }

  @Test
  void timedEventSynchronizeInsideAKernelIsRejected() throws Exception {
    Event completed = acc.newStream(D1).recordEvent();
    completed.synchronize();
    assertRejectedInsideAKernel(D1, () -> completed.synchronize(Duration.ofMillis(1)));
  }

  @Test
  void streamSynchronizeInsideAKernelIsRejected() throws Exception {
    Stream other = acc.newStream(D0);
    assertRejectedInsideAKernel(D0, other::synchronize);
  }

  /**
   * Synchronizes an idle device from a kernel of the other one, so that a runtime which wrongly
   * lets the call through returns at once instead of waiting for the calling kernel itself.
   */
  @Test
  void acceleratorSynchronizeInsideAKernelIsRejected() throws Exception {
    assertRejectedInsideAKernel(D1, () -> acc.synchronize(D0));
    assertRejectedInsideAKernel(
        D1,
        () -> {
          try (DeviceGuard guard = acc.deviceGuard(0)) {
            assertEquals(D0, guard.currentDevice());
            acc.synchronize();
          }
        });
  }

  @Test
  void nonBlockingEventCallsWorkInsideAKernel() throws Exception {
    Stream producer = acc.newStream(D0);
    Stream consumer = acc.newStream(D0);
    Event produced = producer.recordEvent();
    produced.synchronize();
    CompletableFuture<Event> recordedInside =
        acc.newStream(D0)
            .<Event>submit(
                "non-blocking",
                () -> {
                  assertTrue(produced.query());
                  produced.block(consumer);
                  produced.completion().toCompletableFuture().getNow(null);
                  Event inner = acc.newEvent();
                  inner.record(producer);
                  return inner;
                })
            .toCompletableFuture();
    Event inner = recordedInside.get(10, TimeUnit.SECONDS);
    assertTrue(inner.synchronize(Duration.ofSeconds(10)));
    assertEquals(D0, inner.device().orElseThrow());
  }
}
