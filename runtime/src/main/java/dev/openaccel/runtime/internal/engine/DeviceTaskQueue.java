package dev.openaccel.runtime.internal.engine;

import java.util.concurrent.LinkedBlockingQueue;

/**
 * The task queue of a device's thread pool: Pekko's dispatcher puts each actor turn (a stream's
 * wake-up, a resume, a device callback) here, and an idle device thread takes the next one the way
 * the device's {@link IdleWait} says. A {@link LinkedBlockingQueue}, as the device pools always
 * used, so {@code blocking} behaves exactly as before; a poll of the empty queue takes no lock, so
 * spinning threads only read its count. Internal.
 *
 * <p>Owns: nothing beyond the {@link LinkedBlockingQueue} it is, which is thread-safe.
 */
final class DeviceTaskQueue extends LinkedBlockingQueue<Runnable> {
  private static final long serialVersionUID = 1L;

  private final transient IdleWait idleWait;

  DeviceTaskQueue(IdleWait idleWait) {
    this.idleWait = idleWait;
  }

  /**
   * What a pool thread calls for its next task: one poll, and only if the queue is empty, a wait as
   * the device's strategy says.
   */
  @Override
  public Runnable take() throws InterruptedException {
    Runnable task = poll();
    return task != null ? task : idleWait.await(this);
  }

  /** Parks until a task arrives: the strategies' last resort. */
  Runnable park() throws InterruptedException {
    return super.take();
  }
}
