package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceContext;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.CurrentContext;
import dev.openaccel.runtime.spi.LaunchModel;
import dev.openaccel.runtime.trace.Tracer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;

/**
 * Runs one stream's Java kernels on the device thread, each in a clean environment: after the
 * launch delay, with the stream's device and the stream itself current in the caller's device
 * context, and with the thread's interrupt flag clear. What a kernel changes there (the current
 * device or stream, the interrupt flag) ends when it returns. Every {@link Throwable} a kernel
 * throws, {@link OutOfMemoryError} and {@link StackOverflowError} included, becomes that kernel's
 * {@link DeviceExecutionException}, as {@code FutureTask} hands every throwable to its future.
 * Internal; confined to the stream's actor.
 *
 * <p>The stream's context stays installed from one kernel to the next within a turn of the actor
 * (one thread-local read per kernel, not three); the actor calls {@link #leave}, which gives the
 * thread a fresh context, before anything else runs on the thread and after each message.
 *
 * <p>A kernel still running while the actor system shuts down may be interrupted ({@link
 * #interrupt}). That costs a release store and a volatile read per kernel, no fence: a kernel ends
 * with a compare-and-set, which waits for an interrupt on its way and so keeps it from landing on
 * what the thread runs next, only once the shutdown has begun ({@code shuttingDown}). Interrupts
 * are sent only a grace period (at least 10 ms, 2 s by default) after that, so this relies on a
 * kernel that read the flag as false storing its end within that time; a thread stalled longer
 * right there gets the interrupt after its kernel, during the shutdown, where the device pool keeps
 * serving through it.
 *
 * <p>Owns: {@code running}, {@code runner} and {@code kernelName}, which the device thread writes
 * as a kernel starts and ends and {@link #interrupt} reads (see {@code running}); {@code pinnedOn}
 * and {@code pinned}, the thread the stream last ran on and its context, written by the stream's
 * owner in its turns; the failure it returns is recorded by the actor.
 */
final class Kernels {

  // The states of {@code running}. OUT -> IN and IN -> OUT by the device thread around a kernel
  // (release stores; during a shutdown, IN -> OUT by compare-and-set); IN -> INTERRUPTING ->
  // INTERRUPTED by interrupt(), which interrupts the thread in between; a kernel ending meanwhile
  // waits for INTERRUPTED, then clears the thread's flag and writes OUT. interrupt() runs only a
  // grace period after shuttingDown turned true, so a kernel that read it false has (in all but a
  // thread stalled that long) stored OUT long before; interrupt() never overwrites a newer state.
  private static final int OUT = 0;
  private static final int IN = 1;
  private static final int INTERRUPTING = 2;
  private static final int INTERRUPTED = 3;
  private static final VarHandle RUNNING;

  static {
    try {
      RUNNING = MethodHandles.lookup().findVarHandle(Kernels.class, "running", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final KernelHooks hooks;
  private final CurrentContext current;
  private final DeviceContext kernelContext;
  private final EngineDevices devices; // whether the actor system's shutdown has begun

  @SuppressWarnings("unused") // through RUNNING
  private volatile int running;

  private Thread runner; // written before running is set to IN, read after reading IN
  private String kernelName; // likewise
  // The context of the thread pinnedOn (current.ofCallingThread()), found once per thread rather
  // than once per kernel; written by the stream's owner, like everything but running.
  private Thread pinnedOn;
  private CurrentContext pinned;

  /**
   * @param devices the engine's devices, which say whether the actor system's shutdown has begun
   */
  Kernels(
      Stream stream,
      LaunchModel launchModel,
      Tracer tracer,
      CurrentContext current,
      EngineDevices devices) {
    this.devices = devices;
    this.hooks = new KernelHooks(stream, launchModel, tracer);
    this.current = current;
    this.kernelContext = DeviceContext.empty().withDevice(stream.device()).withStream(stream);
  }

  /** The Java kernels of {@code handle}'s stream, which its interrupt at shutdown reaches. */
  static Kernels of(StreamQueue handle) {
    ActorEngine engine = handle.engine();
    Kernels kernels =
        new Kernels(
            handle.stream(),
            engine.spec().launchModel(),
            engine.tracer(),
            engine.current(),
            engine.devices());
    handle.runsKernelsWith(kernels);
    return kernels;
  }

  /** The outcome of one kernel: its value, or its failure. */
  record Outcome(Object value, DeviceExecutionException failure) {
    /** Completes {@code result} with this outcome. */
    void complete(CompletableFuture<Object> result) {
      if (failure == null) {
        result.complete(value);
      } else {
        result.completeExceptionally(failure);
      }
    }
  }

  /**
   * Runs {@code kernel}, a Java kernel (or a graph's {@link WorkItem.Segment} of them, each failing
   * as a launch) of the stream whose {@code progress} this is, and counts it: a launch's failure is
   * reported at the stream's next sync; a submit's once, by its stage (not again by later syncs or
   * records), which completes after the count so that {@code query()} agrees with it. Owner only.
   */
  void runCounted(WorkItem.HostWork kernel, StreamProgress progress) {
    if (kernel instanceof WorkItem.Segment segment) {
      runAll(segment.kernels(), progress);
      progress.itemCompletedUnpublished(); // one item: the actor's drain publishes
      return;
    }
    Outcome outcome = run(kernel.name(), kernel);
    if (kernel.result() == null) {
      progress.fail(outcome.failure());
      progress.itemCompletedUnpublished(); // the actor's drain publishes
      return;
    }
    leave(); // the result's callbacks run in a fresh context
    progress.itemCompleted();
    outcome.complete(kernel.result());
  }

  /**
   * Runs a graph segment's kernels in one window of the running flag: each with its launch delay,
   * clean context, trace hooks and failure of its own, and with the interrupt flag it set cleared
   * after it (an interrupt of the shutdown stays for the next, which the shutdown is stopping too).
   */
  private void runAll(WorkItem.HostWork[] kernels, StreamProgress progress) {
    runner = Thread.currentThread();
    kernelName = kernels[0].name();
    RUNNING.setRelease(this, IN);
    try {
      for (WorkItem.HostWork each : kernels) {
        String name = each.name();
        kernelName = name;
        hooks.delay();
        boolean traced = hooks.started(name);
        enter();
        DeviceExecutionException failure = null;
        try {
          each.run(); // a launch's body is its kernel
        } catch (Throwable t) {
          failure = hooks.failed(name, t);
        }
        if (!devices.shuttingDown()) {
          Thread.interrupted();
        }
        hooks.finished(traced, name, failure);
        if (failure != null) {
          progress.fail(failure);
        }
      }
    } finally {
      end();
    }
  }

  /** Runs one kernel with its launch delay, clean context and trace hooks. */
  Outcome run(String name, WorkItem.Body body) {
    boolean traced = begin(name);
    Object value = null;
    DeviceExecutionException failure = null;
    try {
      value = body.run();
    } catch (Throwable t) {
      failure = hooks.failed(name, t);
    } finally {
      end();
    }
    hooks.finished(traced, name, failure);
    return new Outcome(value, failure);
  }

  /**
   * Runs one launched kernel like {@link #run(String, WorkItem.Body)}, allocating nothing.
   *
   * @return its failure, or null
   */
  DeviceExecutionException run(String name, Runnable kernel) {
    boolean traced = begin(name);
    DeviceExecutionException failure = null;
    try {
      kernel.run();
    } catch (Throwable t) {
      failure = hooks.failed(name, t);
    } finally {
      end();
    }
    hooks.finished(traced, name, failure);
    return failure;
  }

  /** Delays, reports the start, installs the context and marks the kernel as running. */
  private boolean begin(String name) {
    hooks.delay();
    boolean traced = hooks.started(name);
    enter();
    runner = Thread.currentThread();
    kernelName = name;
    RUNNING.setRelease(this, IN);
    return traced;
  }

  /** Marks the kernel as ended, letting an interrupt on its way land first, then clears it. */
  private void end() {
    if (!devices.shuttingDown()) {
      RUNNING.setRelease(this, OUT);
    } else if (!RUNNING.compareAndSet(this, IN, OUT)) {
      while ((int) RUNNING.getAcquire(this) == INTERRUPTING) {
        Thread.onSpinWait(); // the interrupt is on its way: let it land before clearing it
      }
      RUNNING.setRelease(this, OUT);
    }
    Thread.interrupted(); // a kernel's interrupt flag ends with it, as in ThreadPoolExecutor
  }

  /**
   * Installs the stream's context, unless it still is from the previous kernel (a kernel that
   * changed it: that change ended with it).
   */
  private void enter() {
    CurrentContext slot = slot();
    if (slot.get() != kernelContext) {
      slot.set(kernelContext);
    }
  }

  /** The calling thread's context, found again only when the stream runs on another thread. */
  private CurrentContext slot() {
    Thread thread = Thread.currentThread();
    if (thread != pinnedOn) {
      pinned = current.ofCallingThread();
      pinnedOn = thread;
    }
    return pinned;
  }

  /**
   * Interrupts the thread of the kernel running now, if one is and it was not interrupted before;
   * any thread.
   *
   * @return the kernel's name if this call interrupted it, else null
   */
  String interrupt() {
    if (!RUNNING.compareAndSet(this, IN, INTERRUPTING)) {
      return null;
    }
    String name = kernelName;
    try {
      runner.interrupt();
    } finally {
      RUNNING.compareAndSet(this, INTERRUPTING, INTERRUPTED); // unless the kernel ended unaware
    }
    return name;
  }

  /**
   * Gives the device thread a fresh context (as a new thread's) for what runs next outside a
   * kernel, which is a caller's callbacks: neither a kernel's context nor what an earlier callback
   * set there reaches them.
   */
  void leave() {
    CurrentContext slot = slot();
    if (slot.get() != DeviceContext.empty()) {
      slot.set(DeviceContext.empty());
    }
  }
}
