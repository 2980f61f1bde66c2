package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.spi.DeviceThread;

/**
 * One device thread of a {@link DevicePool}: takes turns until the pool stops. Internal.
 *
 * <p>Owns: its hand-off state ({@code deferring}, {@code owed}), written only by its own thread
 * (see {@link DevicePool#handOff}).
 */
final class DeviceWorker implements Runnable {
  /** A device thread that knows its worker, so that finding it is a field read. */
  private static final class WorkerThread extends DeviceThread {
    final DeviceWorker worker;

    WorkerThread(DeviceWorker worker, String name) {
      super(worker, name);
      this.worker = worker;
    }
  }

  final DevicePool pool;
  final DeviceThread thread;
  boolean deferring; // this thread only: inside handOff
  int owed; // this thread only: turns handed off that no thread has been woken for

  DeviceWorker(DevicePool pool, String name) {
    this.pool = pool;
    this.thread = new WorkerThread(this, name);
  }

  /** The worker the calling thread is, or null off the device threads. */
  static DeviceWorker current() {
    return Thread.currentThread() instanceof WorkerThread t ? t.worker : null;
  }

  @Override
  public void run() {
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
