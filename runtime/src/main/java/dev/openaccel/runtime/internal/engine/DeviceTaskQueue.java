package dev.openaccel.runtime.internal.engine;

import java.util.concurrent.LinkedTransferQueue;

/**
 * The task queue of a device's thread pool: Pekko's dispatcher puts each actor turn (a stream's
 * wake-up, a resume, a device callback) here, and an idle device thread takes the next one the way
 * the device's {@link IdleWait} says. Offers are lock-free; a thread that parks is woken by the
 * offer that matches it. Internal.
 *
 * <p>Owns: nothing beyond the {@link LinkedTransferQueue} it is, which is thread-safe.
 */
final class DeviceTaskQueue extends LinkedTransferQueue<Runnable> {
  private static final long serialVersionUID = 1L;

  private final transient IdleWait idleWait;

  DeviceTaskQueue(IdleWait idleWait) {
    this.idleWait = idleWait;
  }

  /** What an idle pool thread calls: waits as the device's strategy says. */
  @Override
  public Runnable take() throws InterruptedException {
    return idleWait.take(this);
  }

  /** Parks until a task arrives: the strategies' last resort. */
  Runnable park() throws InterruptedException {
    return super.take();
  }
}
