package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_QUEUE_PROFILING_ENABLE;
import static org.lwjgl.opencl.CL10.clCreateCommandQueue;
import static org.lwjgl.opencl.CL10.clReleaseCommandQueue;
import static org.lwjgl.opencl.CL10.clReleaseEvent;
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
import java.util.function.LongToIntFunction;
import org.lwjgl.PointerBuffer;
import org.lwjgl.opencl.CL10;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One stream's in-order {@code cl_command_queue}, as the engine's {@link DeviceQueue}: kernels and
 * copies ({@link ClWork}), markers for event records, and barriers for device-side waits.
 *
 * <p>Completions are coalesced, since the queue is in order: a command ends once a later one has.
 * Only a command or record submitted while no callback is outstanding, first in a run of
 * submissions (or, in a long one, {@value #DEFERRED_AT_MOST} or more after the last that got one),
 * gets one (barriers never do); a callback completes every command up to its own. When none is
 * outstanding and commands are left (at {@link #flush}, or after a callback once every command left
 * was flushed: until then the stream's next flush will do it), the last of them decides: a marker
 * that a barrier of another queue waits for is reported by that barrier ({@link ClBarrier});
 * another marker gets a callback on its own event (skipped if a barrier took over by then); other
 * commands get a marker behind them (and at {@link #close()} every command left does, whatever is
 * outstanding, since no report arms one after the release). A barrier takes the report over only if
 * nothing but markers of its own queue is pending in front of it, so that it runs as soon as the
 * marker ends. So no callback runs on the OpenCL thread that ends a waited-for marker or a barrier
 * (PoCL calls back before it releases the commands waiting), and a cross-stream hop stays on the
 * device. But a record never waits for later work to be reported: when a command that is not a
 * marker is enqueued behind a marker, that marker gets its own callback (unless a barrier reports
 * it), and behind a barrier, the barrier hands its marker's report back to that marker's queue.
 *
 * <p>A queue whose {@code clFlush} fails is lost for good, as a CUDA context with a sticky error
 * is: the commands it holds may never reach the device, so their completions fail at once, naming
 * the error; later submissions fail without an OpenCL call; no other queue waits on the device for
 * its markers, and its barriers hand the reports of other queues' markers back to those queues. Its
 * commands stay referenced, with the staging memory they use, and it still asks for a report of the
 * last: what the device does run still ends and gives its memory back (on a device that is really
 * gone nothing does, and that memory is kept rather than freed under it).
 *
 * <p>Submissions come from the stream's actor, one at a time; reports from OpenCL's callback
 * threads or from waiting threads ({@link Completions}). Owns: the queue handle (released by {@link
 * #close()}), and the entries not yet completed with the count of outstanding callbacks, how far
 * the stream and {@code clFlush} have flushed and the error that lost it. Two locks, always taken
 * in this order: {@code order}, held around every OpenCL call that adds to the queue or flushes it,
 * and while {@link #close()} marks it closed (no call follows), so that sequence numbers follow the
 * queue's order and no call meets a released handle; and this object's monitor, which guards the
 * state and is held only briefly, never across the enqueue of a command, so that a report does not
 * wait for the driver to take a command (on NVIDIA's platform a waiting thread blocked on a monitor
 * held across each enqueue cost the enqueuing thread a futex wake per command); only a report that
 * enqueues a marker takes {@code order}, once it has completed what ended. Neither is held while a
 * completion runs.
 */
final class ClQueue implements DeviceQueue, AutoCloseable {
  /**
   * A submitted command not yet known to have ended; {@code marker} for an event record; {@code
   * traced} the event kept for its trace span, when tracing and it has no report of its own (0).
   */
  private record Entry(long seq, ClWork work, Completion done, ClMarker marker, long traced) {}

  private static final Runnable NOTHING = () -> {};
  private static final Logger LOG = LoggerFactory.getLogger(ClQueue.class);

  /**
   * Commands a stream submits after its last flush, or after the last of them that got a report of
   * its own, before another one gets one: a stream whose producer keeps it busy flushes only once
   * it runs dry or yields, and its commands must not wait that long to be completed.
   */
  private static final int DEFERRED_AT_MOST = 64;

  private final ClContext context;
  private final Object order = new Object(); // see the class comment; taken before the monitor
  private final long queue;
  private final ClTrace trace;
  private final PointerBuffer event = PointerBuffer.allocateDirect(1); // under order
  private final PointerBuffer rearmEvent = PointerBuffer.allocateDirect(1); // under order
  private final ArrayDeque<Entry> entries = new ArrayDeque<>();
  private long submitted;
  private long flushed; // submitted at the stream's last flush: it arms the commands after it
  private int run; // commands and markers since then, or since one of them got a report
  private long sent; // submitted at the last clFlush
  private int outstanding;
  private long reports; // callbacks asked for (or waiting threads), ever
  private boolean closed; // the handle is released: reports touch the queue no more
  private final LongToIntFunction flushCall; // clFlush (a test may make it fail)
  private OpenClException lost; // a clFlush failed: sticky, see the class comment
  private long failedUpTo; // entries up to this seq had their completion failed when it was lost

  /** A queue on device {@code deviceIndex} that traces nothing (map queues, tests). */
  ClQueue(ClContext context, int deviceIndex, boolean profiling) {
    this(context, deviceIndex, profiling, ClTrace.NONE, CL10::clFlush);
  }

  /** The queue of {@code stream}, whose commands {@code tracer} sees when enabled. */
  ClQueue(ClContext context, Stream stream, boolean profiling, Tracer tracer) {
    this(context, stream.deviceIndex(), profiling, new ClTrace(stream, tracer), CL10::clFlush);
  }

  /** A queue that flushes with {@code flush} instead of {@code clFlush} (tests of a lost queue). */
  ClQueue(ClContext context, int deviceIndex, boolean profiling, LongToIntFunction flush) {
    this(context, deviceIndex, profiling, ClTrace.NONE, flush);
  }

  private ClQueue(
      ClContext context,
      int deviceIndex,
      boolean profiling,
      ClTrace trace,
      LongToIntFunction flush) {
    this.context = context;
    this.trace = trace;
    this.flushCall = flush;
    this.queue = context.whileOpen("create a queue", () -> create(context, deviceIndex, profiling));
  }

  private static long create(ClContext context, int deviceIndex, boolean profiling) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var rc = stack.mallocInt(1);
      long queue =
          clCreateCommandQueue(
              context.handle(),
              context.device(deviceIndex).id(),
              profiling ? CL_QUEUE_PROFILING_ENABLE : 0,
              rc);
      ClErrors.check(rc.get(0), "clCreateCommandQueue(device " + deviceIndex + ")");
      return queue;
    }
  }

  long handle() {
    return queue;
  }

  /** How many reports of its own this queue has asked OpenCL for so far (callbacks or waits). */
  synchronized long reports() {
    return reports;
  }

  @Override
  public void submit(DeviceWork work, Completion done) {
    if (!(work instanceof ClWork command)) {
      throw new IllegalArgumentException(work + " is not OpenCL work");
    }
    enqueue(command, done).run();
  }

  /**
   * Enqueues {@code command}; returns what is left to do outside this queue's locks (and outside
   * any other lock the caller holds: it may lock other queues and markers), which the caller runs.
   * The enqueue itself runs under {@code order} alone: the monitor is held just before it (to
   * decide how the command will be reported) and just after (to record it).
   */
  private Runnable enqueue(ClWork command, Completion done) {
    int rc;
    long seq = 0;
    long handle = 0;
    boolean watched;
    Runnable prompt;
    OpenClException thrown = null;
    synchronized (order) {
      boolean spanned = !(command instanceof ClBarrier); // barriers are no kernel spans
      boolean traced;
      OpenClException refused;
      synchronized (this) {
        refused = lost; // set only under order: it cannot change before the enqueue below
        prompt = refused != null ? NOTHING : keepTailPromptLocked();
        watched = refused == null && spanned && startsReportLocked();
        traced = spanned && !watched && trace.enabled();
      }
      if (refused != null) {
        command.enqueued();
        return () -> {
          command.ended(false);
          done.fail(refused);
        };
      }
      try {
        rc = command.enqueue(queue, watched || traced ? MemoryUtil.memAddress(event) : 0L);
      } catch (OpenClException e) { // e.g. clSetKernelArg: fails like an enqueue, prompt still runs
        rc = e.code();
        thrown = e;
      } finally {
        command.enqueued();
      }
      if (rc != 0) {
        watched = false;
      } else {
        handle = event.get(0);
        synchronized (this) {
          seq = ++submitted;
          if (spanned) {
            run++;
          }
          entries.addLast(new Entry(seq, command, done, null, traced ? handle : 0L));
          if (watched) {
            outstanding++;
            reports++;
          }
        }
      }
    }
    if (rc == 0 && !watched && prompt == NOTHING) {
      return NOTHING; // the common case in a run: nothing left to do, nothing to allocate
    }
    int code = rc;
    long watchedSeq = watched ? seq : 0;
    long watchedHandle = handle;
    OpenClException failure = thrown;
    return () -> {
      prompt.run();
      if (code != 0) {
        command.ended(false);
        done.fail(failure != null ? failure : new OpenClException(command.toString(), code));
      } else if (watchedSeq != 0) {
        watch(watchedHandle, watchedSeq, command.name());
      }
    };
  }

  /**
   * Whether the command or marker being submitted gets a report of its own: none is outstanding,
   * and it is the first since the stream's last flush, or comes {@value #DEFERRED_AT_MOST} or more
   * after it or after the last command of its run that got one (which then starts the count again).
   * Other commands of a run are reported by the flush that ends it, so a busy stream asks OpenCL
   * for an event per run of submissions and per {@value #DEFERRED_AT_MOST} commands of a long one,
   * not per command or per report (an event per command halved NVIDIA's enqueue rate).
   */
  private boolean startsReportLocked() {
    if (outstanding > 0 || (run > 0 && run < DEFERRED_AT_MOST)) {
      return false;
    }
    run = 0;
    return true;
  }

  /**
   * Called before a command that is not a marker is enqueued behind the current last one: that one
   * may now end long before anything behind it is reported, so a marker there gets its own callback
   * (unless a barrier reports it), and a barrier there hands the report of its marker back to that
   * marker's queue ({@link ClBarrier#handBack}). A record's completion never waits for later work.
   * Returns what to run outside the monitor.
   */
  private Runnable keepTailPromptLocked() {
    Entry last = entries.peekLast();
    if (last == null) {
      return NOTHING;
    }
    if (last.work() instanceof ClBarrier barrier) {
      return barrier::handBack;
    }
    return last.marker() == null ? NOTHING : watchUnreportedLocked(last.marker());
  }

  /**
   * Marker {@code marker} of this queue is no longer reported by a barrier: it gets its own
   * callback if it has not been reported yet.
   */
  void reportPromptly(ClMarker marker) {
    Runnable watch;
    synchronized (this) {
      Entry first = entries.peekFirst();
      watch = first == null || first.seq() > marker.seq() ? NOTHING : watchUnreportedLocked(marker);
    }
    watch.run();
  }

  /** A callback for {@code marker}, unless a barrier reports it or one is registered already. */
  private Runnable watchUnreportedLocked(ClMarker marker) {
    if (marker.reported() || !marker.claimWatch()) {
      return NOTHING;
    }
    outstanding++;
    reports++;
    return () -> watchMarker(marker);
  }

  @Override
  public Marker mark(Completion done) {
    ClMarker marker = null;
    Runnable arm = NOTHING;
    OpenClException refused;
    synchronized (order) {
      synchronized (this) {
        refused = lost; // set only under order
      }
      if (refused == null) {
        int rc = nclEnqueueMarkerWithWaitList(queue, 0, 0L, MemoryUtil.memAddress(event));
        refused = rc == 0 ? null : new OpenClException("clEnqueueMarkerWithWaitList", rc);
      }
      if (refused == null) {
        long handle = event.get(0);
        synchronized (this) {
          boolean first = startsReportLocked();
          long seq = ++submitted;
          run++;
          marker = new ClMarker(context, handle, this, seq);
          entries.addLast(new Entry(seq, null, done, marker, 0L));
          // First in its run, the marker gets its own callback; later in a run, a barrier that
          // waits for it may report it, or the next command or flush arms it (no callback inside
          // a hop).
          arm = first ? armIfIdleLocked(true) : NOTHING;
        }
      }
    }
    if (refused != null) {
      done.fail(refused); // outside the monitor, like every completion
      return null;
    }
    arm.run();
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
    boolean reports = runsAtOnce();
    try {
      Runnable rest =
          m.enqueueWait(
              reports, markerEvent -> enqueue(new ClBarrier(m, markerEvent, reports), done));
      if (rest == null) {
        return false;
      }
      rest.run(); // outside the marker's monitor: it may lock other markers
      return true;
    } catch (OpenClException e) {
      return false; // the engine parks the stream on the record instead
    }
  }

  /**
   * Whether a barrier enqueued now runs as soon as the marker it waits for ends (only then does it
   * report that marker): nothing but markers is pending in front of it, and markers end as soon as
   * the work before them, which has all ended, has.
   */
  private synchronized boolean runsAtOnce() {
    for (Entry entry : entries) {
      if (entry.marker() == null) {
        return false;
      }
    }
    return true;
  }

  /** Makes sure every command submitted so far will be reported, then sends them to the device. */
  @Override
  public void flush() {
    Runnable arm;
    long upTo;
    synchronized (order) {
      synchronized (this) {
        flushed = submitted;
        run = 0;
        arm = armIfIdleLocked(true);
        upTo = submitted; // a marker arm enqueued included
      }
    }
    arm.run();
    send(upTo);
  }

  /**
   * {@link #sendToDevice}, from a path that has no caller to tell of a failure (the queue is lost
   * then, and its commands' completions have failed).
   */
  private void send(long upTo) {
    try {
      sendToDevice(upTo);
    } catch (OpenClException e) {
      // reported through the commands' completions
    }
  }

  /**
   * {@code clFlush}, unless every command up to {@code seq} was flushed already: OpenCL may hold
   * enqueued commands on the host until their queue is flushed (some implementations for
   * milliseconds), so neither their callbacks nor another queue's barrier on one of their events is
   * sure to see them end before. Under {@code order}, like an enqueue, so that no caller goes on
   * before the flush it needs has been made.
   *
   * @throws OpenClException if this queue is lost, now or before (see the class comment)
   */
  void sendToDevice(long seq) {
    if (flushedUpTo(seq)) {
      return; // without waiting for an enqueue in progress
    }
    OpenClException failed;
    List<Entry> held;
    synchronized (order) {
      long upTo;
      synchronized (this) {
        if (flushedUpTo(seq)) {
          return;
        }
        upTo = submitted;
      }
      int rc = flushCall.applyAsInt(queue);
      synchronized (this) {
        if (rc == 0) {
          sent = Math.max(sent, upTo);
          return;
        }
        failed =
            new OpenClException(
                "clFlush",
                rc,
                "; the queue is lost: its commands may never run, and it takes no more work");
        lost = failed;
        failedUpTo = submitted; // a later report of these skips their completions
        held = new ArrayList<>(entries);
      }
    }
    LOG.error("{}", failed.getMessage());
    for (Entry entry : held) {
      entry.done().fail(failed);
      if (entry.work() instanceof ClBarrier barrier) {
        barrier.handBack(); // its marker's own queue reports it: a healthy stream waits not on this
      }
    }
    throw failed;
  }

  /**
   * True if every command up to {@code seq} was flushed, or there is nothing to flush any more (the
   * queue is released).
   *
   * @throws OpenClException if this queue is lost
   */
  private synchronized boolean flushedUpTo(long seq) {
    if (lost != null) {
      throw lost;
    }
    return closed || sent >= seq;
  }

  /**
   * Releases the queue. Commands still running end as usual, and their reports still complete their
   * entries (which frees what the commands used only then; a copy to a heap buffer, which the
   * engine has failed by then, no longer writes the caller's buffer), but touch the released handle
   * no more: no marker is armed and nothing flushed; a marker enqueued before the release reports
   * the last of them. Called once, by the stream's actor; the release itself runs outside this
   * queue's monitor, since an implementation may wait in it for commands whose reports need the
   * monitor.
   */
  @Override
  public void close() {
    Runnable arm;
    synchronized (order) { // no OpenCL call on the queue is under way or follows
      synchronized (this) {
        arm = armAtCloseLocked();
        closed = true;
        ArrayDeque<Entry> left = new ArrayDeque<>(entries.size());
        for (Entry entry : entries) {
          releaseTraced(entry); // its span is not published
          left.addLast(new Entry(entry.seq(), entry.work(), entry.done(), entry.marker(), 0L));
        }
        entries.clear();
        entries.addAll(left);
      }
    }
    clReleaseCommandQueue(queue); // flushes what was enqueued, the marker armed above included
    arm.run();
  }

  /**
   * At close, a marker with a callback behind the commands left, whatever is outstanding: a report
   * still to come may cover only commands before it, and once the handle is released no report arms
   * a marker, so the commands behind would never end and keep what they hold (a heap copy's staging
   * memory). A fresh marker, since a record's own may be released by then. Returns what to run once
   * the queue is released.
   */
  private Runnable armAtCloseLocked() {
    return entries.isEmpty() ? NOTHING : rearmLocked();
  }

  private static void releaseTraced(Entry entry) {
    if (entry.traced() != 0) {
      clReleaseEvent(entry.traced());
    }
  }

  /**
   * Registers the callback of {@code handle}, the event of command {@code seq}, once the command is
   * flushed. A report is watched only once the command is on its way to the device, so that a
   * waiting thread ({@link Completions}) waits no longer than the command takes: on NVIDIA's
   * platform a thread waiting for an event of a queue makes enqueues onto that queue about 4x
   * slower (48.6 against 11.0 µs per empty kernel, an H100), and an unflushed command may wait on
   * the host for as long as its stream keeps submitting.
   */
  private void watch(long handle, long seq, String name) {
    send(seq);
    try {
      context.watch(
          handle,
          (ev, status, end) -> {
            trace.ended(name, ev, status);
            clReleaseEvent(ev);
            settle(seq, status, end, null, true);
          });
    } catch (OpenClException e) {
      clReleaseEvent(handle);
      settle(seq, e.code(), 0, e, true);
    }
  }

  /** Registers a callback on {@code marker}'s own event (which the marker keeps), once flushed. */
  private void watchMarker(ClMarker marker) {
    long seq = marker.seq();
    send(seq);
    try {
      ClCallbacks.Watcher watcher =
          (ev, status, end) -> {
            if (status >= 0 && marker.reported()) {
              marker.unclaimWatch(); // should that barrier hand the report back, watch again
              settle(0, status, end, null, true); // a barrier took the report over meanwhile
            } else {
              settle(seq, status, end, null, true);
            }
          };
      if (!marker.watch(watcher)) {
        rearmBehind(seq); // released: the engine is done with it; report the rest another way
      }
    } catch (OpenClException e) {
      settle(seq, e.code(), 0, e, true);
    }
  }

  /** Marker {@code seq} ended, as a barrier of another queue that waited for it reports. */
  void endedOnDevice(long seq, long endNanos) {
    settle(seq, 0, endNanos, null, false);
  }

  /**
   * The command {@code seq} ended: completes it and every command before it, then makes sure the
   * commands left will be reported.
   *
   * @param fromCallback true for this queue's own callback (one fewer outstanding)
   */
  private void settle(
      long seq, int status, long endNanos, OpenClException cause, boolean fromCallback) {
    List<Entry> ended = new ArrayList<>();
    Runnable arm;
    long failedAlready;
    boolean afterClose;
    synchronized (this) {
      failedAlready = failedUpTo;
      afterClose = closed;
      if (fromCallback) {
        outstanding--;
      }
      while (!entries.isEmpty() && entries.peekFirst().seq() <= seq) {
        ended.add(entries.pollFirst());
      }
      arm = armAfterReportLocked(false);
    }
    for (Entry entry : ended) {
      boolean failed = entry.seq() == seq && status < 0;
      if (entry.traced() != 0) {
        trace.endedBefore(entry.work().name(), entry.traced(), failed, endNanos);
        releaseTraced(entry);
      }
      if (entry.work() != null) {
        // After close the engine has failed what is left: a copy then gives its staging memory back
        // without writing the caller's buffer, while a barrier still reports its marker's end.
        entry.work().ended(!failed && (!afterClose || entry.work() instanceof ClBarrier));
      }
      if (entry.seq() <= failedAlready) {
        continue; // its completion failed when the queue was lost
      }
      if (failed) {
        entry.done().fail(cause != null ? cause : new OpenClException(what(entry), status));
      } else {
        entry.done().complete(endNanos);
      }
    }
    if (arm == null) { // a marker is to be enqueued: again in order, once what ended is completed
      synchronized (order) {
        synchronized (this) {
          arm = armAfterReportLocked(true);
        }
      }
    }
    arm.run(); // a marker it watches is flushed first
  }

  /**
   * What a report arms: nothing while the stream is still submitting (commands submitted since its
   * last flush are armed by its next one, once it has submitted all it has, or by a command 64
   * after the last reported: no marker per report while it submits), else {@link #armIfIdleLocked};
   * null if that would enqueue a marker and the caller does not hold {@code order}.
   */
  private Runnable armAfterReportLocked(boolean ordered) {
    Entry last = entries.peekLast();
    return last != null && last.seq() > flushed ? NOTHING : armIfIdleLocked(ordered);
  }

  /**
   * If no callback is outstanding, decides how the commands left will be reported, by their last
   * one (its end implies the others'): a marker a barrier reports needs nothing; another marker
   * gets a callback; other commands a marker behind them. Returns what to run outside the locks, or
   * null if a marker is to be enqueued and the caller does not hold {@code order} ({@code ordered}
   * false).
   */
  private Runnable armIfIdleLocked(boolean ordered) {
    Entry last = entries.peekLast();
    if (outstanding > 0 || last == null || (last.marker() != null && last.marker().reported())) {
      return NOTHING;
    }
    if (last.marker() == null) {
      return ordered ? rearmLocked() : null;
    }
    return watchUnreportedLocked(last.marker());
  }

  /**
   * A marker with a callback behind the commands left (nothing if none can be enqueued). The caller
   * holds {@code order} and the monitor.
   */
  private Runnable rearmLocked() {
    if (closed
        || nclEnqueueMarkerWithWaitList(queue, 0, 0L, MemoryUtil.memAddress(rearmEvent)) != 0) {
      return NOTHING;
    }
    long rearm = ++submitted;
    long handle = rearmEvent.get(0);
    outstanding++;
    reports++;
    return () -> watch(handle, rearm, null);
  }

  /** Marker {@code seq} could not be watched: a fresh marker behind it reports it instead. */
  private void rearmBehind(long seq) {
    Runnable arm;
    synchronized (order) {
      synchronized (this) {
        outstanding--;
        arm = rearmLocked();
      }
    }
    arm.run(); // flushes the marker first
  }

  private static String what(Entry entry) {
    return entry.work() == null ? "marker on the device" : entry.work() + " on the device";
  }
}
