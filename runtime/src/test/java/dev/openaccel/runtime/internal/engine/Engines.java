package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceContext;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.InlineEvent;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.internal.AcceleratorCore;
import dev.openaccel.runtime.spi.CurrentContext;
import dev.openaccel.runtime.spi.EngineSpec;
import dev.openaccel.runtime.spi.VirtualGuardImpl;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.pekko.actor.typed.ActorSystem;

/** Engines for the engine's own tests, built straight from a spec in a test kit's system. */
final class Engines {
  private Engines() {}

  /** An engine of {@code spec} whose blocking calls give up after 30 s. */
  static ActorEngine start(ActorSystem<?> system, EngineSpec spec) {
    return start(system, spec, Duration.ofSeconds(30));
  }

  static ActorEngine start(ActorSystem<?> system, EngineSpec spec, Duration syncTimeout) {
    return start(system, spec, syncTimeout, SanitizerMode.OFF);
  }

  /** An engine of {@code spec} whose stream sanitizer runs in {@code sanitizer} mode. */
  static ActorEngine start(ActorSystem<?> system, EngineSpec spec, SanitizerMode sanitizer) {
    return start(system, spec, Duration.ofSeconds(30), sanitizer);
  }

  private static ActorEngine start(
      ActorSystem<?> system, EngineSpec spec, Duration syncTimeout, SanitizerMode sanitizer) {
    return new ActorEngine(
        spec,
        system,
        AcceleratorCore.get(system).tracer(),
        threadConfined(),
        syncTimeout,
        sanitizer);
  }

  static Event newEvent(ActorEngine engine, EventOptions options) {
    return InlineEvent.create(new VirtualGuardImpl(engine), options);
  }

  /** How long a kernel of {@link #awaiting} waits for its gate before it fails. */
  private static final Duration GATE_WAIT = Duration.ofSeconds(10);

  /**
   * A kernel body that waits for {@code gate} to open and fails if it does not within {@link
   * #GATE_WAIT}: the engine's own form of the conformance kit's {@code Gates.await}, which the
   * runtime's tests cannot use (the kit's module depends on the runtime).
   */
  static Runnable awaiting(CountDownLatch gate) {
    return () -> {
      try {
        if (!gate.await(GATE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
          throw new IllegalStateException("latch not opened within " + GATE_WAIT);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for a latch", e);
      }
    };
  }

  /** Launches a kernel on {@code stream} that holds it until the returned gate opens. */
  static CountDownLatch hold(Stream stream) {
    CountDownLatch gate = new CountDownLatch(1);
    stream.launch("gate", awaiting(gate));
    return gate;
  }

  /** Waits until {@code condition} holds, at most 10 s; false if it never did. */
  static boolean eventually(BooleanSupplier condition) {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.yield();
    }
    return true;
  }

  private static CurrentContext threadConfined() {
    ThreadLocal<DeviceContext> slot = ThreadLocal.withInitial(DeviceContext::empty);
    return new CurrentContext() {
      @Override
      public DeviceContext get() {
        return slot.get();
      }

      @Override
      public void set(DeviceContext context) {
        slot.set(context);
      }
    };
  }
}
