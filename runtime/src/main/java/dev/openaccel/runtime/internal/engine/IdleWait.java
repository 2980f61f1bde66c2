package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.spi.WaitStrategy;

/**
 * How an idle device thread waits for its next task: the engine's side of a {@link WaitStrategy}.
 * One instance serves all threads of one device and must be thread-safe. Internal.
 */
interface IdleWait {

  /**
   * Waits as the strategy says for the next task of {@code source}, which was just found empty.
   *
   * @return the task, or null if the pool stops meanwhile
   * @throws InterruptedException if the thread is interrupted while it waits (the pool stops)
   */
  Runnable await(Source source) throws InterruptedException;

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

  /** What a strategy waits with: the pool's task queue and its registries of idle threads. */
  interface Source {
    /** The next task, or null; never waits. */
    Runnable poll();

    /**
     * Counts the calling thread as polling, unless {@code most} threads already are: while one
     * polls, a new task wakes no parked thread.
     *
     * @return false if the calling thread must not poll (it parks instead)
     */
    boolean startPolling(int most);

    /** Ends the calling thread's polling; {@code found}: a task ended it. */
    void stopPolling(boolean found);

    /** True once the pool is shutting down: a polling thread returns null. */
    boolean stopping();

    /** Parks until a task arrives (or the pool stops: then null). */
    Runnable park() throws InterruptedException;
  }
}
