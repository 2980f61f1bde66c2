package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_COMPLETE;
import static org.lwjgl.opencl.CL10.CL_PROFILING_COMMAND_END;
import static org.lwjgl.opencl.CL10.CL_PROFILING_COMMAND_START;
import static org.lwjgl.opencl.CL10.clGetEventProfilingInfo;
import static org.lwjgl.opencl.CL11.nclSetEventCallback;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.lwjgl.opencl.CLEventCallback;
import org.lwjgl.system.MemoryStack;

/**
 * Turns OpenCL event completions into Java calls through one static native callback (a callback
 * object per event would leak a native closure each), the {@code callbacks} mode of {@link
 * Completions}. The callback's user data is a key into {@link #pending}.
 *
 * <p>Owns: the watchers registered and not yet called. Whether a watcher releases its event is the
 * watcher's business (a marker's event outlives its callback). The callback runs on an OpenCL
 * runtime thread, or synchronously inside {@code clSetEventCallback} when the event is already
 * complete; the first call names a runtime thread {@value #DRIVER_THREAD} and its id. PoCL 3.1
 * never calls back for a failed event; commands the backend enqueues do not fail asynchronously on
 * it (no user events are ever failed), so that path is reported only by platforms that implement
 * it. This class is thread-safe.
 */
final class ClCallbacks {
  /** What a watched event reports to. */
  interface Watcher {
    /** Called once with the event's status and end time on the device (0 after a failure). */
    void ended(long event, int status, long endNanos);
  }

  /**
   * The name prefix of the OpenCL runtime's threads that call back: they are the platform's, live
   * as long as it does, and are named so that a leak check can tell them from a test's threads.
   */
  static final String DRIVER_THREAD = "openaccel-driver-opencl-";

  private static final ConcurrentHashMap<Long, Watcher> pending = new ConcurrentHashMap<>();
  private static final AtomicLong keys = new AtomicLong();
  private static final CLEventCallback CALLBACK = CLEventCallback.create(ClCallbacks::onEvent);

  private ClCallbacks() {}

  /**
   * Calls {@code watcher} when {@code event} completes.
   *
   * @throws OpenClException if the callback cannot be set
   */
  static void watch(long event, Watcher watcher) {
    long key = keys.incrementAndGet();
    pending.put(key, watcher);
    int rc = nclSetEventCallback(event, CL_COMPLETE, CALLBACK.address(), key);
    if (rc != 0) {
      pending.remove(key);
      throw new OpenClException("clSetEventCallback", rc);
    }
  }

  private static void onEvent(long event, int status, long key) {
    Thread thread = Thread.currentThread();
    if (!thread.getName().startsWith(DRIVER_THREAD)) { // a runtime thread, attached by this call
      thread.setName(DRIVER_THREAD + thread.getId());
    }
    Watcher watcher = pending.remove(key);
    if (watcher != null) {
      report(event, status, watcher);
    }
  }

  /** Tells {@code watcher} that {@code event} ended with {@code status}. */
  static void report(long event, int status, Watcher watcher) {
    watcher.ended(event, status, status < 0 ? 0 : endNanos(event));
  }

  /**
   * The run time on the device from {@code startEvent}'s start to {@code event}'s end (the same
   * event for one command), or 0 without profiling.
   */
  static long durationNanos(long startEvent, long event) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var start = stack.mallocLong(1);
      var end = stack.mallocLong(1);
      if (clGetEventProfilingInfo(startEvent, CL_PROFILING_COMMAND_START, start, null) != 0
          || clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, end, null) != 0) {
        return 0;
      }
      return Math.max(0, end.get(0) - start.get(0));
    }
  }

  /** The event's end on the device clock, or {@link System#nanoTime()} without profiling. */
  static long endNanos(long event) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var end = stack.mallocLong(1);
      return clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, end, null) == 0
          ? end.get(0)
          : System.nanoTime();
    }
  }
}
