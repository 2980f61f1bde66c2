package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.spi.DeviceThread;

/**
 * One device thread of a {@link DevicePool}: takes turns until the pool stops. Internal.
 *
 * <p>Owns: its hand-off state ({@code deferring}, {@code owed}), written only by its own thread
 * (see {@link DevicePool#handOff}).
 */
final class DeviceWorker implements Runnable {
  // The worker the calling thread is; null off the device threads.
  private static final ThreadLocal<DeviceWorker> CURRENT = new ThreadLocal<>();

  final DevicePool pool;
  final DeviceThread thread;
  boolean deferring; // this thread only: inside handOff
  int owed; // this thread only: turns handed off that no thread has been woken for

  DeviceWorker(DevicePool pool, String name) {
    this.pool = pool;
    this.thread = new DeviceThread(this, name);
  }

  /** The worker the calling thread is, or null off the device threads. */
  static DeviceWorker current() {
    return CURRENT.get();
  }

  @Override
  public void run() {
    CURRENT.set(this);
    try {
      while (true) {
        Runnable task;
        try {
          task = pool.next(this);
        } catch (InterruptedException e) {
          if (pool.stoppedNow()) {
            return;
          }
          continue; // a stray interrupt while idle: keep serving
        }
        if (task == null) {
          if (pool.drained()) {
            return;
          }
          continue;
        }
        try {
          task.run();
        } catch (Throwable e) { // the pool keeps its threads; the handler reports it
          report(e);
        }
      }
    } finally {
      CURRENT.remove();
      pool.exited();
    }
  }

  private void report(Throwable failure) {
    try {
      thread.getUncaughtExceptionHandler().uncaughtException(thread, failure);
    } catch (Throwable ignored) { // a failing handler must not cost the pool a thread
    }
  }
}
