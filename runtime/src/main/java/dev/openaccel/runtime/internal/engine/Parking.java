package dev.openaccel.runtime.internal.engine;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One parked period of one device thread of a {@link DevicePool}, claimed once: by a waker
 * (signalled: it unparks the thread) or by the thread leaving on its own. A new period gets a new
 * one, so a waker that took an old registry entry cannot signal a later period.
 *
 * <p>Owns: its state, moved once from {@code WAITING} by a compare-and-set: to {@code SIGNALLED} by
 * a waker, or to {@code LEFT} by its own thread.
 */
final class Parking extends AtomicInteger {
  private static final long serialVersionUID = 1L;
  static final int WAITING = 0;
  static final int SIGNALLED = 1;
  static final int LEFT = 2;

  final transient Thread thread;

  Parking(Thread thread) {
    this.thread = thread;
  }

  /** The waker's claim; true if the thread was still waiting and must be unparked. */
  boolean signal() {
    return compareAndSet(WAITING, SIGNALLED);
  }

  /** The thread's own claim when it leaves; false if a waker signalled it first. */
  boolean claim() {
    return compareAndSet(WAITING, LEFT);
  }
}
