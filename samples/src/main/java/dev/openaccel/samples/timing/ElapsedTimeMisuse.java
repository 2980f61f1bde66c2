package dev.openaccel.samples.timing;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The five ways to use {@code Event.elapsedTime} wrong, in the order it checks them, each caught
 * and printed with the error the runtime raises.
 */
final class ElapsedTimeMisuse {
  private ElapsedTimeMisuse() {}

  /** One mistake: what it is, the call that makes it, and the error it must raise. */
  private record Mistake(
      String what, Class<? extends RuntimeException> error, String phrase, Runnable call) {}

  /** Makes each mistake; true if each raised its own error. */
  static boolean run(Accelerator accelerator, PrintStream out) throws InterruptedException {
    out.println("elapsedTime used wrong, in the order its checks run:");
    Device d0 = Device.of(accelerator.currentAccelerator(), 0);
    Event done = completed(accelerator, accelerator.newStream(d0));
    CountDownLatch gate = new CountDownLatch(1);
    Stream held = accelerator.newStream(d0);
    held.launch("held until the host opens the gate", () -> await(gate));
    Event pending = timing(accelerator);
    pending.record(held);
    boolean ok = true;
    try {
      ok &=
          check(
              out,
              1,
              new Mistake(
                  "events of two device types ("
                      + d0.type()
                      + " and "
                      + ToyBackendProvider.TYPE
                      + ")",
                  IllegalArgumentException.class,
                  "does not match other's device type",
                  () -> done.elapsedTime(toyEvent(accelerator))));
      ok &=
          check(
              out,
              2,
              new Mistake(
                  "an event created without enable_timing",
                  IllegalArgumentException.class,
                  "must be created with enable_timing",
                  () -> done.elapsedTime(completedUntimed(accelerator, d0))));
      ok &=
          check(
              out,
              3,
              new Mistake(
                  "an event that was never recorded",
                  IllegalStateException.class,
                  "must be recorded before calculating elapsed time",
                  () -> done.elapsedTime(timing(accelerator))));
      ok &=
          check(
              out,
              4,
              new Mistake(
                  "an event whose work is still running (no synchronize first)",
                  IllegalStateException.class,
                  "must be completed before calculating elapsed time",
                  () -> done.elapsedTime(pending)));
      if (accelerator.deviceCount() > 1) {
        Device d1 = Device.of(d0.type(), 1);
        ok &=
            check(
                out,
                5,
                new Mistake(
                    "events recorded on two devices (" + d0 + " and " + d1 + ")",
                    IllegalArgumentException.class,
                    "must be recorded on the same device",
                    () -> done.elapsedTime(completed(accelerator, accelerator.newStream(d1)))));
      } else {
        out.println("  5. events recorded on two devices: skipped, there is only one device");
      }
    } finally {
      gate.countDown();
      held.synchronize();
    }
    return ok;
  }

  private static boolean check(PrintStream out, int number, Mistake mistake) {
    out.printf("  %d. %s%n", number, mistake.what());
    try {
      mistake.call().run();
      out.println("     UNEXPECTED: no error");
      return false;
    } catch (RuntimeException e) {
      boolean expected = mistake.error().isInstance(e) && e.getMessage().contains(mistake.phrase());
      out.printf(
          "     %s%s: %s%n",
          expected ? "-> " : "UNEXPECTED ", e.getClass().getSimpleName(), e.getMessage());
      return expected;
    }
  }

  private static Event timing(Accelerator accelerator) {
    return accelerator.newEvent(EventOptions.timing());
  }

  private static Event completed(Accelerator accelerator, Stream stream) {
    Event event = timing(accelerator);
    event.record(stream);
    event.synchronize();
    return event;
  }

  private static Event completedUntimed(Accelerator accelerator, Device device) {
    Event event = accelerator.newEvent(EventOptions.defaults());
    event.record(accelerator.newStream(device));
    event.synchronize();
    return event;
  }

  private static Event toyEvent(Accelerator accelerator) {
    Event event = accelerator.newEvent(ToyBackendProvider.TYPE, EventOptions.timing());
    event.record(accelerator.newStream(Device.of(ToyBackendProvider.TYPE, 0)));
    event.synchronize();
    return event;
  }

  /** Waits for the host, bounded so a forgotten gate cannot hang the device. */
  private static void await(CountDownLatch gate) {
    try {
      if (!gate.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the gate was not opened within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while held", e);
    }
  }
}
