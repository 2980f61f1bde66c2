package dev.openaccel.runtime.internal.engine;

/**
 * {@code busy-spin}: every idle thread polls with only a spin hint in between and never parks, so a
 * task starts as soon as it is queued and no hand-off needs an OS wake-up; each idle thread holds a
 * whole core. Internal.
 */
final class BusySpinWait implements IdleWait {
  /** Polls between clock reads (to count idle time and see an interrupt or a shutdown). */
  private static final int POLLS_PER_CHECK = 256;

  private final IdleMeter meter;

  BusySpinWait(IdleMeter meter) {
    this.meter = meter;
  }

  @Override
  public Runnable await(Source source) throws InterruptedException {
    source.startPolling(Integer.MAX_VALUE);
    Runnable task = null;
    try {
      long since = System.nanoTime();
      while (true) {
        for (int i = 0; i < POLLS_PER_CHECK; i++) {
          Thread.onSpinWait();
          task = source.poll();
          if (task != null) {
            meter.spun(System.nanoTime() - since, true);
            return task;
          }
        }
        long now = System.nanoTime();
        meter.spun(now - since, false); // counted as it burns, not only when work arrives
        since = now;
        IdleWait.checkInterrupt();
        if (source.stopping()) {
          return null;
        }
      }
    } finally {
      source.stopPolling(task != null);
    }
  }
}
