package dev.openaccel.runtime;

import dev.openaccel.runtime.spi.BackendEvent;
import dev.openaccel.runtime.spi.DeviceGuardImpl;
import java.time.Duration;

/**
 * A host thread waiting for an event's record, as {@link InlineEvent#synchronize()} does: a
 * non-blocking event spins briefly before the backend parks the thread, as CUDA's default events
 * do; a blocking one ({@link EventOptions#blocking()}) parks at once. The caller has checked that
 * it may block. Stateless.
 */
final class HostWait {
  private static final long SPIN_NANOS = 5_000;

  private HostWait() {}

  /** Waits for {@code created}'s latest record; nothing to wait for if it is null. */
  static void synchronize(DeviceGuardImpl backend, BackendEvent created, boolean blocking) {
    if (created != null) {
      spinUnlessBlocking(backend, created, blocking);
      backend.synchronizeEvent(created);
    }
  }

  /** Like {@link #synchronize(VirtualGuardImpl, BackendEvent, boolean)}; false on timeout. */
  static boolean synchronize(
      DeviceGuardImpl backend, BackendEvent created, boolean blocking, Duration timeout) {
    if (created == null) {
      return true;
    }
    spinUnlessBlocking(backend, created, blocking);
    return backend.synchronizeEvent(created, timeout);
  }

  private static void spinUnlessBlocking(
      DeviceGuardImpl backend, BackendEvent created, boolean blocking) {
    if (blocking || backend.queryEvent(created)) {
      return; // completed work costs no clock read
    }
    long until = System.nanoTime() + SPIN_NANOS;
    while (!backend.queryEvent(created) && System.nanoTime() < until) {
      Thread.onSpinWait();
    }
  }
}
