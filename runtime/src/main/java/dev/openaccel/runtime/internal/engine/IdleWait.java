package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.spi.WaitStrategy;

/**
 * How an idle device thread waits for its next task: the engine's side of a {@link WaitStrategy}.
 * One instance serves all threads of one device and must be thread-safe. Internal.
 */
interface IdleWait {

  /**
   * Waits as the strategy says for the next task of {@code queue}, which was just found empty.
   *
   * @throws InterruptedException if the thread is interrupted while it waits (the pool stops)
   */
  Runnable await(DeviceTaskQueue queue) throws InterruptedException;

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
