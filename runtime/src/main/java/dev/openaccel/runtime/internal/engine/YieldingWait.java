package dev.openaccel.runtime.internal.engine;

/**
 * {@code yielding}: spins briefly, then polls between {@code Thread.yield}s for at most {@link
 * #YIELD_NANOS}, then parks. A task that arrives within that window starts without an OS wake-up;
 * the window is the idle CPU a thread may burn per idle period, and any other runnable thread gets
 * the core at each yield. Internal.
 */
final class YieldingWait implements IdleWait {
  /** Polls with only a spin hint in between before the first yield, as in the Disruptor. */
  static final int SPIN_TRIES = 100;

  /** How long an idle thread keeps polling before it parks. */
  static final long YIELD_NANOS = 1_000_000;

  private final IdleMeter meter;

  YieldingWait(IdleMeter meter) {
    this.meter = meter;
  }

  @Override
  public Runnable await(DeviceTaskQueue queue) throws InterruptedException {
    long start = System.nanoTime();
    Runnable task = null;
    for (int i = 0; i < SPIN_TRIES && task == null; i++) {
      Thread.onSpinWait();
      task = queue.poll();
    }
    long now = start;
    while (task == null && now - start < YIELD_NANOS) {
      IdleWait.checkInterrupt();
      Thread.yield();
      task = queue.poll();
      now = System.nanoTime();
    }
    meter.spun(System.nanoTime() - start, task != null);
    if (task != null) {
      return task;
    }
    meter.parked();
    return queue.park();
  }
}
