package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_CONTEXT_PLATFORM;
import static org.lwjgl.opencl.CL10.CL_QUEUE_PROFILING_ENABLE;
import static org.lwjgl.opencl.CL10.clCreateCommandQueue;
import static org.lwjgl.opencl.CL10.clCreateContext;
import static org.lwjgl.opencl.CL10.clReleaseContext;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;

/**
 * One {@code cl_context} over every selected device of a platform, so that a queue of one device
 * can wait for a marker of another on the device.
 *
 * <p>Owns: the context handle, released by {@link #close()} after every queue, program and buffer
 * made from it was released, and the waiting threads of {@link Completions#WAITING_THREADS}; and
 * whether it still makes queues, programs and buffers ({@link #whileOpen}), guarded by a read-write
 * lock so that {@link #stopMaking} waits for those under way. Thread-safe: OpenCL contexts are.
 */
final class ClContext implements AutoCloseable {
  private final ClPlatforms.Found platform;
  private final long context;
  private final ClWaitingThreads waiting; // null: completions by callbacks
  private final ReentrantReadWriteLock making = new ReentrantReadWriteLock();
  private boolean stopped; // under making's write lock; read under its read lock
  private volatile CompletableFuture<?> ended = new CompletableFuture<>(); // the actor system's

  /**
   * @param completions how commands' ends reach Java ({@code auto} is decided here)
   */
  ClContext(ClPlatforms.Found platform, Completions completions) {
    this.platform = platform;
    this.waiting =
        completions.on(platform.platformName()) == Completions.WAITING_THREADS
            ? new ClWaitingThreads()
            : null;
    try (MemoryStack stack = MemoryStack.stackPush()) {
      PointerBuffer properties =
          stack.mallocPointer(3).put(CL_CONTEXT_PLATFORM).put(platform.platform()).put(0).flip();
      PointerBuffer devices = stack.mallocPointer(platform.devices().size());
      platform.devices().forEach(d -> devices.put(d.id()));
      devices.flip();
      var rc = stack.mallocInt(1);
      this.context = clCreateContext(properties, devices, null, 0, rc);
      ClErrors.check(rc.get(0), "clCreateContext(" + platform.platformName() + ")");
    }
  }

  long handle() {
    return context;
  }

  /**
   * Calls {@code watcher} once {@code event} has ended: from a waiting thread or a callback, as the
   * context's {@link Completions} say for its platform.
   *
   * @throws OpenClException if it cannot be watched
   */
  void watch(long event, ClCallbacks.Watcher watcher) {
    if (waiting != null) {
      waiting.watch(event, watcher);
    } else {
      ClCallbacks.watch(event, watcher);
    }
  }

  /**
   * Runs {@code make}, which makes something of this context (a queue, a program, a buffer), unless
   * the backend was closed: a released context's handle would crash the JVM inside OpenCL.
   *
   * @throws IllegalStateException once {@link #stopMaking} was called, naming {@code what}
   */
  <T> T whileOpen(String what, Supplier<T> make) {
    making.readLock().lock();
    try {
      if (stopped || ended.isDone()) {
        throw new IllegalStateException(
            "cannot " + what + ": the accelerator's opencl backend is closed");
      }
      return make.get();
    } finally {
      making.readLock().unlock();
    }
  }

  /**
   * A new in-order {@code cl_command_queue} on device {@code deviceIndex}, with profiling if asked;
   * the caller releases it.
   *
   * @throws IllegalStateException once the backend is closed ({@link #whileOpen})
   * @throws OpenClException if OpenCL refuses it
   */
  long newQueue(int deviceIndex, boolean profiling) {
    return whileOpen(
        "create a queue",
        () -> {
          try (MemoryStack stack = MemoryStack.stackPush()) {
            var rc = stack.mallocInt(1);
            long queue =
                clCreateCommandQueue(
                    context,
                    device(deviceIndex).id(),
                    profiling ? CL_QUEUE_PROFILING_ENABLE : 0,
                    rc);
            ClErrors.check(rc.get(0), "clCreateCommandQueue(device " + deviceIndex + ")");
            return queue;
          }
        });
  }

  /**
   * {@link #whileOpen} throws once {@code termination} (the actor system's) has completed, even
   * before the backend's release has begun: {@code Accelerator.close()} returns once it has.
   */
  void endsWith(CompletionStage<?> termination) {
    ended = termination.toCompletableFuture();
  }

  /** From now on {@link #whileOpen} throws; returns once nothing is being made. */
  void stopMaking() {
    making.writeLock().lock();
    try {
      stopped = true;
    } finally {
      making.writeLock().unlock();
    }
  }

  String platformName() {
    return platform.platformName();
  }

  List<ClDevice> devices() {
    return platform.devices();
  }

  ClDevice device(int index) {
    return platform.devices().get(index);
  }

  @Override
  public void close() {
    if (waiting != null) {
      waiting.close();
    }
    clReleaseContext(context);
  }

  @Override
  public String toString() {
    return "ClContext(" + platform.platformName() + ", " + devices().size() + " devices)";
  }
}
