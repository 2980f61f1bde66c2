package dev.openaccel.runtime.internal.engine;

/**
 * {@code busy-spin}: polls with only a spin hint in between and never parks, so a task starts as
 * soon as its wake-up is visible; each idle thread holds a whole core. Internal.
 */
final class BusySpinWait implements IdleWait {
  /** Polls between clock reads (to count idle time and see an interrupt). */
  private static final int POLLS_PER_CHECK = 256;

  private final IdleMeter meter;

  BusySpinWait(IdleMeter meter) {
    this.meter = meter;
  }

  @Override
  public Runnable await(DeviceTaskQueue queue) throws InterruptedException {
    long since = System.nanoTime();
    while (true) {
      for (int i = 0; i < POLLS_PER_CHECK; i++) {
        Thread.onSpinWait();
        Runnable task = queue.poll();
        if (task != null) {
          meter.spun(System.nanoTime() - since, true);
          return task;
        }
      }
      long now = System.nanoTime();
      meter.spun(now - since, false); // counted as it burns, not only when work arrives
      since = now;
      IdleWait.checkInterrupt();
    }
  }
}
