package dev.openaccel.runtime.internal.engine;

import java.util.concurrent.LinkedBlockingQueue;

/**
 * The task queue of a device's thread pool: Pekko's dispatcher puts each actor turn (a stream's
 * wake-up, a resume, a device callback) here, and an idle device thread takes the next one the way
 * the device's {@link IdleWait} says. A {@link LinkedBlockingQueue}, as the device pools always
 * used, so {@code blocking} behaves exactly as before; a poll of the empty queue takes no lock, so
 * spinning threads only read its count. Internal.
 *
 * <p>Owns: nothing beyond the {@link LinkedBlockingQueue} it is, which is thread-safe, and each
 * pool thread's binding to it (set once, by the thread itself, when it starts).
 */
final class DeviceTaskQueue extends LinkedBlockingQueue<Runnable> {
  private static final long serialVersionUID = 1L;
  // The task queue of the pool the calling thread belongs to; null off the device threads.
  private static final ThreadLocal<DeviceTaskQueue> POOL = new ThreadLocal<>();

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

  /** {@code body}, run as a thread of the pool this queue feeds. */
  Runnable bind(Runnable body) {
    return () -> {
      POOL.set(this);
      body.run();
    };
  }

  /**
   * Whether another actor's turn waits for a thread of the calling thread's device: then a stream
   * that has run its batch yields its thread. True off the device threads, so that there a stream
   * always yields after its batch.
   */
  static boolean othersWaiting() {
    DeviceTaskQueue pool = POOL.get();
    return pool == null || !pool.isEmpty();
  }

  /** Parks until a task arrives: the strategies' last resort. */
  Runnable park() throws InterruptedException {
    return super.take();
  }
}
