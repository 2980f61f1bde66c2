package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.spi.DeviceThread;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The executor of a device dispatcher: a fixed set of {@link DeviceThread}s, one per simulated
 * compute unit, taking actor turns (a stream's wake-up, a resume, a device callback) from one
 * queue. An idle thread waits for the next turn as the device's {@link IdleWait} says. Internal.
 *
 * <p>A turn is handed over with as few OS wake-ups as the strategy allows: a thread is unparked
 * only if the queue was empty and no thread of the pool is polling (a thread that takes a turn with
 * more behind it wakes the next), the thread that parked last, and a record that a stream makes on
 * its device thread resumes the streams of the same device that wait for it without waking anyone
 * ({@link #handOff}): the recording thread takes their turns itself when it comes back to the pool,
 * a few hundred nanoseconds later, or wakes threads for them before it runs anything else ({@link
 * #settle}: the stream's next item, another message of its actor, a caller's callback). A
 * cross-stream hop then costs no futex call on its critical path.
 *
 * <p>Owns: the task queue with its count and the registry of parked threads (lock-free, any thread;
 * a {@link Parking} is claimed once, by its waker or by its thread), the count of polling threads
 * (atomic), the run state (volatile, set by the shutdown calls), and per thread its {@link
 * DeviceWorker} hand-off state (written only by that thread).
 */
final class DevicePool extends AbstractExecutorService implements IdleWait.Source {
  private static final int RUNNING = 0;
  private static final int SHUTDOWN = 1; // runs what is queued, takes nothing new
  private static final int STOP = 2; // interrupted; what is queued was handed back

  private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedDeque<Parking> parked = new ConcurrentLinkedDeque<>(); // a stack
  private final AtomicInteger polling = new AtomicInteger();
  private final AtomicInteger queued = new AtomicInteger(); // offered and not yet taken
  private final IdleWait idleWait;
  private final DeviceWorker[] workers;
  private final CountDownLatch exited;
  private volatile int state = RUNNING;

  /** Starts {@code threads} device threads named {@code name-1}, {@code name-2}, ... */
  DevicePool(String name, int threads, IdleWait idleWait) {
    if (threads < 1) {
      throw new IllegalArgumentException("a device pool needs at least 1 thread, got " + threads);
    }
    this.idleWait = idleWait;
    this.workers = new DeviceWorker[threads];
    this.exited = new CountDownLatch(threads);
    for (int i = 0; i < threads; i++) {
      workers[i] = new DeviceWorker(this, name + "-" + (i + 1));
    }
    for (DeviceWorker worker : workers) {
      worker.thread.start(); // every thread waits in the strategy from the start
    }
  }

  // ---- the calls of device code ----

  /**
   * A waiter that only schedules an actor turn, so that its wake-up may be handed off ({@link
   * #handOff}).
   */
  interface HandOff {}

  /**
   * Runs {@code send} with {@code value}; the actor turn it schedules on the calling device
   * thread's pool wakes no thread: the caller runs it next or wakes a thread for it at its next
   * {@link #settle}. Off the device threads, {@code send} runs as is. The caller must reach a
   * {@code settle} before it runs anything that may take long.
   */
  static <T> void handOff(Consumer<T> send, T value) {
    DeviceWorker worker = DeviceWorker.current();
    if (worker == null) {
      send.accept(value);
      return;
    }
    boolean outer = worker.deferring;
    worker.deferring = true;
    try {
      send.accept(value);
    } finally {
      worker.deferring = outer;
    }
  }

  /**
   * Wakes a thread for each turn the calling thread handed off and has not run yet: called before
   * anything that may run long (a kernel, a caller's callback), so that a turn never waits behind
   * it. Cheap when nothing is owed; a no-op off the device threads.
   */
  static void settle() {
    DeviceWorker worker = DeviceWorker.current();
    if (worker != null && worker.owed > 0) {
      worker.pool.wake(worker.owed);
      worker.owed = 0;
    }
  }

  /**
   * Whether another turn waits for a thread of the calling thread's device: then a stream that has
   * run its batch yields its thread. True off the device threads, so that there a stream always
   * yields after its batch.
   */
  static boolean othersWaiting() {
    DeviceWorker worker = DeviceWorker.current();
    return worker == null || worker.pool.hasQueued();
  }

  /** Whether turns are queued and not yet taken. */
  boolean hasQueued() {
    return !tasks.isEmpty();
  }

  // ---- ExecutorService ----

  @Override
  public void execute(Runnable task) {
    if (state != RUNNING) {
      throw new RejectedExecutionException("the device pool is shut down");
    }
    tasks.offer(task);
    int before = queued.getAndIncrement();
    if (state != RUNNING && tasks.remove(task)) { // shut down meanwhile: its threads may be gone
      queued.decrementAndGet();
      throw new RejectedExecutionException("the device pool is shut down");
    }
    DeviceWorker worker = DeviceWorker.current();
    if (worker != null && worker.deferring && worker.pool == this) {
      worker.owed++;
      return;
    }
    if (before == 0) { // else a thread is about to take the turns before it, and wakes the next
      wake(1);
    }
  }

  @Override
  public void shutdown() {
    if (state == RUNNING) {
      state = SHUTDOWN;
    }
    for (DeviceWorker worker : workers) {
      LockSupport.unpark(worker.thread); // parked threads see the state and leave once idle
    }
  }

  @Override
  public List<Runnable> shutdownNow() {
    state = STOP;
    for (DeviceWorker worker : workers) {
      worker.thread.interrupt();
    }
    List<Runnable> left = new ArrayList<>();
    for (Runnable task; (task = tasks.poll()) != null; ) {
      left.add(task);
    }
    return left;
  }

  @Override
  public boolean isShutdown() {
    return state != RUNNING;
  }

  @Override
  public boolean isTerminated() {
    return exited.getCount() == 0;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return exited.await(timeout, unit);
  }

  // ---- IdleWait.Source: what the strategies wait with ----

  @Override
  public Runnable poll() {
    Runnable task = tasks.poll();
    if (task != null && queued.getAndDecrement() > 1) {
      wake(1); // more are queued: the next gets a thread of its own
    }
    return task;
  }

  @Override
  public boolean startPolling(int most) {
    for (int now = polling.get(); now < most; now = polling.get()) {
      if (polling.compareAndSet(now, now + 1)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void stopPolling(boolean found) {
    polling.decrementAndGet();
    if (found && !tasks.isEmpty()) {
      wake(1); // a burst: the next turn gets a thread of its own
    }
  }

  @Override
  public boolean stopping() {
    return state != RUNNING;
  }

  @Override
  public Runnable park() throws InterruptedException {
    Parking parking = new Parking(Thread.currentThread());
    parked.push(parking);
    while (true) {
      // Registered before this poll and a producer offers before it looks for a parked thread:
      // one of the two sees the other, so no wake-up is lost.
      Runnable task = poll();
      if (task != null || state != RUNNING) {
        if (parking.claim()) {
          parked.remove(parking);
        } else if (task != null && !tasks.isEmpty()) {
          wake(1); // a wake-up was spent on this thread (even poll()'s own, above): pass it on
        }
        return task;
      }
      if (parking.get() == Parking.SIGNALLED) { // woken, but another thread took the turn
        parking = new Parking(Thread.currentThread());
        parked.push(parking);
        continue;
      }
      LockSupport.park(this);
      if (Thread.interrupted() && state == STOP) {
        if (parking.claim()) {
          parked.remove(parking);
        }
        throw new InterruptedException("device thread interrupted while parked");
      }
    }
  }

  // ---- internals ----

  /** Unparks up to {@code count} parked threads, unless a thread is polling and will take it. */
  void wake(int count) {
    if (polling.get() > 0) {
      return;
    }
    for (int woken = 0; woken < count; ) {
      Parking parking = parked.pollFirst(); // the latest parked: its core is likely idle and warm
      if (parking == null) {
        return;
      }
      if (parking.signal()) { // else its thread left on its own: try the next
        LockSupport.unpark(parking.thread);
        woken++;
      }
    }
  }

  /** The next turn for {@code worker}, or null when the pool stops and nothing is queued. */
  Runnable next(DeviceWorker worker) throws InterruptedException {
    Runnable task = poll(); // with more queued, among them turns it handed off, poll wakes the next
    worker.owed = 0;
    if (task != null) {
      return task;
    }
    return state == RUNNING || state == SHUTDOWN && !tasks.isEmpty() ? idleWait.await(this) : null;
  }

  /** Whether the pool was stopped with {@link #shutdownNow}: an interrupted thread then leaves. */
  boolean stoppedNow() {
    return state == STOP;
  }

  /** Whether the pool is shut down and has nothing left to run: an idle thread then leaves. */
  boolean drained() {
    return state != RUNNING && tasks.isEmpty();
  }

  /** Called once by each thread as it leaves. */
  void exited() {
    exited.countDown();
  }
}
