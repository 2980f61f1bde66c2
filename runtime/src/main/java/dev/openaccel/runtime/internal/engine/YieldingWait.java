package dev.openaccel.runtime.internal.engine;

/**
 * {@code yielding}: one idle thread of the device at a time spins briefly, then polls between
 * {@code Thread.yield}s for at most {@link #YIELD_NANOS}, then parks; the device's other idle
 * threads park at once. A task that arrives within that window starts without an OS wake-up (the
 * poller takes it, and a burst's next task wakes a parked thread); the window is the idle CPU the
 * device may burn per idle period, and any other runnable thread gets the core at each yield. One
 * poller per device keeps the other cores for the work itself. Internal.
 */
final class YieldingWait implements IdleWait {
  /** Polls with only a spin hint in between before the first yield, as in the Disruptor. */
  static final int SPIN_TRIES = 100;

  /** How long an idle thread keeps polling before it parks. */
  static final long YIELD_NANOS = 1_000_000;

  /** How many threads of a device poll at once. */
  static final int POLLERS = 1;

  private final IdleMeter meter;

  YieldingWait(IdleMeter meter) {
    this.meter = meter;
  }

  @Override
  public Runnable await(Source source) throws InterruptedException {
    if (!source.startPolling(POLLERS)) {
      meter.parked();
      return source.park();
    }
    long start = System.nanoTime();
    Runnable task = null;
    try {
      for (int i = 0; i < SPIN_TRIES && task == null; i++) {
        Thread.onSpinWait();
        task = source.poll();
      }
      long now = start;
      while (task == null && now - start < YIELD_NANOS && !source.stopping()) {
        IdleWait.checkInterrupt();
        Thread.yield();
        task = source.poll();
        now = System.nanoTime();
      }
    } finally {
      source.stopPolling(task != null);
    }
    meter.spun(System.nanoTime() - start, task != null);
    if (task != null || source.stopping()) {
      return task;
    }
    meter.parked();
    return source.park();
  }
}
