package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_EVENT_COMMAND_EXECUTION_STATUS;
import static org.lwjgl.opencl.CL10.CL_INVALID_CONTEXT;
import static org.lwjgl.opencl.CL10.CL_INVALID_EVENT;
import static org.lwjgl.opencl.CL10.clGetEventInfo;
import static org.lwjgl.opencl.CL10.nclWaitForEvents;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.lwjgl.system.MemoryStack;

/**
 * The {@code waiting-threads} mode of {@link Completions}: each watched event gets a thread that
 * blocks in {@code clWaitForEvents} until it ends, then reports it like a callback would ({@link
 * ClCallbacks#report}). Threads are reused, and end after a minute without work.
 *
 * <p>Owns: its threads (daemons), stopped by {@link #close()}; one blocked in OpenCL is left to end
 * with its event. The event stays live while its thread waits: the watcher, which releases it if
 * anyone does, runs only afterwards. Thread-safe.
 */
final class ClWaitingThreads implements AutoCloseable {
  private final AtomicInteger names = new AtomicInteger();
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "openaccel-opencl-waiter-" + names.incrementAndGet());
            thread.setDaemon(true);
            return thread;
          });

  /**
   * Calls {@code watcher} from a waiting thread once {@code event} has ended.
   *
   * @throws OpenClException once this was closed
   */
  void watch(long event, ClCallbacks.Watcher watcher) {
    try {
      threads.execute(() -> reportWhenEnded(event, watcher));
    } catch (RejectedExecutionException e) {
      throw new OpenClException("clWaitForEvents (the backend is closed)", CL_INVALID_CONTEXT);
    }
  }

  private static void reportWhenEnded(long event, ClCallbacks.Watcher watcher) {
    int status = waitFor(event);
    if (status > 0) { // the wait failed while the command still runs: its callback tells
      try {
        ClCallbacks.watch(event, watcher);
        return;
      } catch (OpenClException e) {
        status = e.code();
      }
    }
    ClCallbacks.report(event, status, watcher);
  }

  /**
   * Blocks until {@code event} ends; returns its status: {@code CL_COMPLETE} (0), negative if it
   * failed, positive (queued, submitted, running) if the wait itself failed first.
   */
  private static int waitFor(long event) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var events = stack.pointers(event);
      int rc = nclWaitForEvents(1, events.address());
      var status = stack.mallocInt(1);
      if (clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, status, null) != 0) {
        return rc == 0 ? CL_INVALID_EVENT : rc; // cannot tell: a failure all the same
      }
      return status.get(0);
    }
  }

  @Override
  public void close() {
    threads.shutdownNow();
  }
}
