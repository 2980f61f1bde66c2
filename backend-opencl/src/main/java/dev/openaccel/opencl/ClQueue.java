package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_QUEUE_PROFILING_ENABLE;
import static org.lwjgl.opencl.CL10.clCreateCommandQueue;
import static org.lwjgl.opencl.CL10.clReleaseCommandQueue;
import static org.lwjgl.opencl.CL10.clReleaseEvent;
import static org.lwjgl.opencl.CL12.nclEnqueueBarrierWithWaitList;
import static org.lwjgl.opencl.CL12.nclEnqueueMarkerWithWaitList;

import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Completion;
import dev.openaccel.runtime.spi.DeviceQueue;
import dev.openaccel.runtime.spi.DeviceWork;
import dev.openaccel.runtime.spi.Marker;
import dev.openaccel.runtime.trace.Tracer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

/**
 * One stream's in-order {@code cl_command_queue}, as the engine's {@link DeviceQueue}: kernels and
 * copies ({@link ClWork}), markers for event records, and barriers for device-side waits.
 *
 * <p>Completions are coalesced, since the queue is in order: a command ends once a later one has.
 * Only a command submitted while no event callback is outstanding gets an event and a callback; the
 * others are enqueued without an event, and when a callback fires it completes every command up to
 * its own and, if commands without a callback remain, arms one more marker behind them. A marker
 * (an event record) always has its own event and callback, for its device time.
 *
 * <p>Submissions come from the stream's actor, one at a time; callbacks from OpenCL threads. Owns:
 * the queue handle (released by {@link #close()}), and the entries not yet completed with the count
 * of outstanding callbacks, guarded by this object's monitor (held only around enqueue calls, never
 * while a completion runs).
 */
final class ClQueue implements DeviceQueue, AutoCloseable {
  /** A submitted command not yet known to have ended. */
  private record Entry(long seq, ClWork work, Completion done) {}

  private final ClContext context;
  private final long queue;
  private final ClTrace trace;
  private final PointerBuffer event = PointerBuffer.allocateDirect(1);
  private final PointerBuffer rearmEvent = PointerBuffer.allocateDirect(1);
  private final PointerBuffer waitList = PointerBuffer.allocateDirect(1);
  private final ArrayDeque<Entry> entries = new ArrayDeque<>();
  private long submitted;
  private int outstanding;

  /** A queue on device {@code deviceIndex} that traces nothing (map queues, tests). */
  ClQueue(ClContext context, int deviceIndex, boolean profiling) {
    this(context, deviceIndex, profiling, ClTrace.NONE);
  }

  /** The queue of {@code stream}, whose commands {@code tracer} sees when enabled. */
  ClQueue(ClContext context, Stream stream, boolean profiling, Tracer tracer) {
    this(context, stream.deviceIndex(), profiling, new ClTrace(stream, tracer));
  }

  private ClQueue(ClContext context, int deviceIndex, boolean profiling, ClTrace trace) {
    this.context = context;
    this.trace = trace;
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var rc = stack.mallocInt(1);
      this.queue =
          clCreateCommandQueue(
              context.handle(),
              context.device(deviceIndex).id(),
              profiling ? CL_QUEUE_PROFILING_ENABLE : 0,
              rc);
      ClErrors.check(rc.get(0), "clCreateCommandQueue(device " + deviceIndex + ")");
    }
  }

  long handle() {
    return queue;
  }

  @Override
  public void submit(DeviceWork work, Completion done) {
    if (!(work instanceof ClWork command)) {
      throw new IllegalArgumentException(work + " is not OpenCL work");
    }
    int rc;
    long seq;
    long handle = 0;
    boolean watched;
    synchronized (this) {
      watched = outstanding == 0 || trace.enabled();
      try {
        rc = command.enqueue(queue, watched ? MemoryUtil.memAddress(event) : 0L);
      } finally {
        command.enqueued();
      }
      if (rc != 0) {
        watched = false;
        seq = 0;
      } else {
        seq = ++submitted;
        entries.addLast(new Entry(seq, command, done));
        if (watched) {
          outstanding++;
          handle = event.get(0);
        }
      }
    }
    if (rc != 0) {
      command.ended(false);
      done.fail(new OpenClException(command.toString(), rc));
    } else if (watched) {
      watch(handle, seq, command.name());
    }
  }

  @Override
  public Marker mark(Completion done) {
    long seq;
    long handle;
    synchronized (this) {
      int rc = nclEnqueueMarkerWithWaitList(queue, 0, 0L, MemoryUtil.memAddress(event));
      if (rc != 0) {
        done.fail(new OpenClException("clEnqueueMarkerWithWaitList", rc));
        return null;
      }
      handle = event.get(0);
      seq = ++submitted;
      entries.addLast(new Entry(seq, null, done));
      outstanding++;
    }
    ClMarker marker = new ClMarker(context, handle);
    try {
      ClCallbacks.watch(handle, (ev, status, end) -> ended(seq, status, end, null));
    } catch (OpenClException e) {
      ended(seq, e.code(), 0, e); // the marker's event stays the marker's, released by the engine
    }
    return marker;
  }

  /**
   * Makes later work on this queue wait on the device for {@code marker}: false (nothing enqueued)
   * for a marker of another context or one already released.
   */
  @Override
  public boolean waitFor(Marker marker, Completion done) {
    if (!(marker instanceof ClMarker m) || m.context() != context) {
      return false;
    }
    try {
      return m.enqueueWait(markerEvent -> submit(new Barrier(markerEvent), done));
    } catch (OpenClException e) {
      return false; // the engine parks the stream on the record instead
    }
  }

  @Override
  public void close() {
    clReleaseCommandQueue(queue);
  }

  /** Registers the callback of {@code handle}, the event of command {@code seq}. */
  private void watch(long handle, long seq, String name) {
    try {
      ClCallbacks.watch(
          handle,
          (ev, status, end) -> {
            trace.ended(name, ev, status);
            clReleaseEvent(ev);
            ended(seq, status, end, null);
          });
    } catch (OpenClException e) {
      clReleaseEvent(handle);
      ended(seq, e.code(), 0, e);
    }
  }

  /**
   * The command {@code seq} ended: completes it and every command before it, then arms a marker
   * behind the commands left without a callback.
   */
  private void ended(long seq, int status, long endNanos, OpenClException cause) {
    List<Entry> ended = new ArrayList<>();
    long rearm = 0;
    long rearmHandle = 0;
    synchronized (this) {
      outstanding--;
      while (!entries.isEmpty() && entries.peekFirst().seq() <= seq) {
        ended.add(entries.pollFirst());
      }
      if (outstanding == 0 && !entries.isEmpty()) {
        if (nclEnqueueMarkerWithWaitList(queue, 0, 0L, MemoryUtil.memAddress(rearmEvent)) == 0) {
          rearm = ++submitted;
          rearmHandle = rearmEvent.get(0);
          outstanding++;
        }
      }
    }
    for (Entry entry : ended) {
      boolean failed = entry.seq() == seq && status < 0;
      if (entry.work() != null) {
        entry.work().ended(!failed);
      }
      if (failed) {
        entry.done().fail(cause != null ? cause : new OpenClException(what(entry), status));
      } else {
        entry.done().complete(endNanos);
      }
    }
    if (rearm != 0) {
      watch(rearmHandle, rearm, null);
    }
  }

  private static String what(Entry entry) {
    return entry.work() == null ? "marker on the device" : entry.work() + " on the device";
  }

  /** A barrier on one marker's event, as a command of this queue. */
  private final class Barrier implements ClWork {
    private final long markerEvent;

    Barrier(long markerEvent) {
      this.markerEvent = markerEvent;
    }

    @Override
    public int enqueue(long queue, long eventAddress) {
      waitList.put(0, markerEvent);
      return nclEnqueueBarrierWithWaitList(queue, 1, waitList.address(), eventAddress);
    }

    @Override
    public String name() {
      return null;
    }

    @Override
    public void enqueued() {}

    @Override
    public String toString() {
      return "clEnqueueBarrierWithWaitList";
    }
  }
}
