package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.spi.WaitStrategy;

/**
 * How an idle device thread waits for its next task: the engine's side of a {@link WaitStrategy}.
 * One instance serves all threads of one device and must be thread-safe. Internal.
 */
interface IdleWait {

  /**
   * Returns the next task of {@code queue}, waiting for one as the strategy says.
   *
   * @throws InterruptedException if the thread is interrupted while it waits (the pool stops)
   */
  Runnable take(DeviceTaskQueue queue) throws InterruptedException;

  /** The implementation of {@code strategy}, counting what it burns in {@code meter}. */
  static IdleWait of(WaitStrategy strategy, IdleMeter meter) {
    return switch (strategy) {
      case BLOCKING -> new BlockingWait(meter);
      case YIELDING -> new YieldingWait(meter);
      case BUSY_SPIN -> new BusySpinWait(meter);
    };
  }

  /** Throws if the current thread was interrupted, clearing the flag (as a blocking take does). */
  static void checkInterrupt() throws InterruptedException {
    if (Thread.interrupted()) {
      throw new InterruptedException("device thread interrupted while idle");
    }
  }
}
