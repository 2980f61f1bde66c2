package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.clReleaseCommandQueue;
import static org.lwjgl.opencl.CL12.nclEnqueueMarkerWithWaitList;

import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Completion;
import dev.openaccel.runtime.spi.DeviceQueue;
import dev.openaccel.runtime.spi.DeviceWork;
import dev.openaccel.runtime.spi.Marker;
import dev.openaccel.runtime.trace.Tracer;
import java.util.List;
import java.util.function.LongToIntFunction;
import org.lwjgl.PointerBuffer;
import org.lwjgl.opencl.CL10;
import org.lwjgl.system.MemoryUtil;

/**
 * One stream's in-order {@code cl_command_queue}, as the engine's {@link DeviceQueue}: kernels and
 * copies ({@link ClWork}), markers for event records ({@link ClMarker}), and barriers for
 * device-side waits ({@link ClBarrier}). Completions are coalesced, since the queue is in order:
 * few commands get a report of their own ({@link ClBatch}), and a report completes every command up
 * to its own ({@link ClReports} states the rules, and those of a lost queue); {@link ClPending}
 * keeps what is pending. Submissions come from the stream's actor, one at a time; reports from
 * OpenCL's callback threads or from waiting threads ({@link Completions}).
 *
 * <p>Owns: the queue handle (released by {@link #close()}) and its one lock, {@code order}, held
 * around every OpenCL call that adds to the queue or flushes it, and while {@link #close()} marks
 * it closed (no call follows), so that sequence numbers follow the queue's order and no call meets
 * a released handle; under it, the event slots the enqueues write ({@code event}, {@code
 * rearmEvent}) and the {@code admission} of the command being enqueued, written by whichever thread
 * holds {@code order} (the stream's actor, or a thread reporting an end that arms a marker).
 *
 * <p>Lock order: {@code order}, then {@link ClPending}'s monitor, never the reverse ({@link
 * #lockOrder} asserts it); only a report that enqueues a marker takes {@code order}, once it has
 * completed what ended. A marker's monitor may be held while a barrier on it takes {@code order}
 * ({@link ClMarker#enqueueWait}), never the reverse; a kernel's lock is taken under {@code order}
 * as it is enqueued. No completion runs under these locks.
 */
final class ClQueue implements DeviceQueue, AutoCloseable {
  /** How a command is to be enqueued: {@link ClPending#admit} writes it, under {@code order}. */
  static final class Admission {
    OpenClException refused; // the queue is lost: the command fails without an OpenCL call
    Runnable prompt; // for the last command so far, to run once the new one is enqueued
    boolean watched; // the new command gets a report of its own
  }

  private final ClContext context;
  private final Object order = new Object(); // see the class comment: taken before ClPending's
  private final long queue;
  private final PointerBuffer event = PointerBuffer.allocateDirect(1); // under order
  private final PointerBuffer rearmEvent = PointerBuffer.allocateDirect(1); // under order
  private final Admission admission = new Admission(); // under order
  private final LongToIntFunction flushCall; // clFlush (a test may make it fail)
  private final ClReports reports;
  private final ClPending pending;

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
    this.flushCall = flush;
    this.reports = new ClReports(context, trace, this);
    this.pending = reports.pending();
    this.queue = context.newQueue(deviceIndex, profiling);
  }

  long handle() {
    return queue;
  }

  /** How many reports of its own this queue has asked OpenCL for so far (callbacks or waits). */
  long reports() {
    return pending.reportsAskedFor();
  }

  @Override
  public void submit(DeviceWork work, Completion done) {
    if (!(work instanceof ClWork command)) {
      throw new IllegalArgumentException(work + " is not OpenCL work");
    }
    enqueue(command, done).run();
  }

  /**
   * Enqueues {@code command}; returns what is left to do outside every lock the caller holds (it
   * may lock other queues and markers), which the caller runs. The enqueue runs under {@code order}
   * alone: {@link ClPending}'s monitor is held just before it (to decide how the command will be
   * reported) and just after (to record it).
   */
  Runnable enqueue(ClWork command, Completion done) {
    int rc;
    long seq = 0;
    long handle = 0;
    boolean watched;
    Runnable prompt;
    OpenClException thrown = null;
    synchronized (lockOrder()) {
      boolean spanned = !(command instanceof ClBarrier); // barriers are no kernel spans
      pending.admit(spanned, admission);
      OpenClException refused = admission.refused;
      prompt = admission.prompt;
      admission.prompt = null; // holds no marker or barrier past this enqueue
      watched = admission.watched;
      boolean traced = spanned && !watched && reports.tracing();
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
        seq = pending.enqueued(command, done, spanned, watched, traced ? handle : 0L);
      }
    }
    if (rc == 0 && !watched && prompt == ClPending.NOTHING) {
      return ClPending.NOTHING; // the common case in a run: nothing left to do, nothing to allocate
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
        reports.watch(watchedHandle, watchedSeq, command);
      }
    };
  }

  @Override
  public Marker mark(Completion done) {
    ClMarker marker = null;
    Runnable arm = ClPending.NOTHING;
    OpenClException refused;
    synchronized (lockOrder()) {
      refused = pending.lost(); // set only under order
      if (refused == null) {
        int rc = nclEnqueueMarkerWithWaitList(queue, 0, 0L, MemoryUtil.memAddress(event));
        refused = rc == 0 ? null : new OpenClException("clEnqueueMarkerWithWaitList", rc);
      }
      if (refused == null) {
        marker = new ClMarker(context, event.get(0), reports, pending.submitted() + 1);
        arm = pending.marked(marker, done);
      }
    }
    if (refused != null) {
      done.fail(refused); // outside the locks, like every completion
      return null;
    }
    arm.run();
    return marker;
  }

  /**
   * Makes later work on this queue wait on the device for {@code marker}: false (nothing enqueued)
   * for a marker of another context or one already released ({@link ClBarrier#enqueueWait}).
   */
  @Override
  public boolean waitFor(Marker marker, Completion done) {
    return marker instanceof ClMarker m
        && m.context() == context
        && ClBarrier.enqueueWait(this, pending.runsAtOnce(), m, done);
  }

  /** Makes sure every command submitted so far will be reported, then sends them to the device. */
  @Override
  public void flush() {
    Runnable arm;
    long upTo;
    synchronized (lockOrder()) {
      arm = pending.flushed();
      upTo = pending.submitted(); // a marker arm enqueued included
    }
    arm.run();
    reports.send(upTo);
  }

  /**
   * {@code clFlush}, unless every command up to {@code seq} was flushed already: OpenCL may hold
   * enqueued commands on the host until their queue is flushed (some for milliseconds), so neither
   * their callbacks nor another queue's barrier on one of their events is sure to see them end
   * before. Under {@code order}, like an enqueue, so that no caller goes on before the flush it
   * needs has been made.
   *
   * @throws OpenClException if this queue is lost, now or before ({@link ClReports})
   */
  void sendToDevice(long seq) {
    if (pending.flushedUpTo(seq)) {
      return; // without waiting for an enqueue in progress
    }
    OpenClException failed;
    List<ClEntry> held;
    synchronized (lockOrder()) {
      if (pending.flushedUpTo(seq)) {
        return;
      }
      long upTo = pending.submitted();
      int rc = flushCall.applyAsInt(queue);
      if (rc == 0) {
        pending.sent(upTo);
        return;
      }
      failed =
          new OpenClException(
              "clFlush",
              rc,
              "; the queue is lost: its commands may never run, and it takes no more work");
      held = pending.lose(failed);
    }
    ClReports.lost(held, failed);
    throw failed;
  }

  /**
   * Releases the queue. Commands still running end as usual, and their reports still complete their
   * entries (a copy to a heap buffer, which the engine has failed by then, no longer writes the
   * caller's buffer), but touch the released handle no more; a marker enqueued before the release
   * reports the last of them ({@link ClPending#close}). Called once, by the stream's actor; the
   * release runs outside the locks: an implementation may wait in it for reports that need them.
   */
  @Override
  public void close() {
    Runnable arm;
    synchronized (lockOrder()) { // no OpenCL call on the queue is under way or follows
      arm = pending.close();
    }
    clReleaseCommandQueue(queue); // flushes what was enqueued, the marker armed above included
    arm.run();
  }

  /**
   * Enqueues a marker that reports the commands before it; returns its event, or 0 if it could not
   * be enqueued. For {@link ClPending}, which holds its monitor, under {@code order}.
   */
  long enqueueReportMarker() {
    assert Thread.holdsLock(order) : "a report marker enqueued without the queue's enqueue lock";
    return nclEnqueueMarkerWithWaitList(queue, 0, 0L, MemoryUtil.memAddress(rearmEvent)) == 0
        ? rearmEvent.get(0)
        : 0L;
  }

  /**
   * What a report that left commands arms, decided again under {@code order} ({@link ClReports}).
   */
  Runnable armAfterReport() {
    synchronized (lockOrder()) {
      return pending.armAfterReport();
    }
  }

  /** A marker could not be watched: a fresh marker behind it reports it instead. */
  void rearmBehind() {
    Runnable arm;
    synchronized (lockOrder()) {
      arm = pending.rearmInstead();
    }
    arm.run(); // flushes the marker first
  }

  /** {@code order}, asserting the lock order (see the class comment) when assertions are on. */
  private Object lockOrder() {
    assert !Thread.holdsLock(pending) : "the enqueue lock taken under the pending state's monitor";
    return order;
  }
}
