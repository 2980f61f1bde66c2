package dev.openaccel.runtime.internal.engine;

/** {@code blocking}: parks until a task arrives; no idle CPU. Internal. */
final class BlockingWait implements IdleWait {
  private final IdleMeter meter;

  BlockingWait(IdleMeter meter) {
    this.meter = meter;
  }

  @Override
  public Runnable await(Source source) throws InterruptedException {
    meter.parked();
    return source.park();
  }
}
