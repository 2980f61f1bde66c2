package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.GraphCapture;
import dev.openaccel.runtime.Kernel;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.trace.TraceEvent;
import java.nio.ByteBuffer;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The public {@link Stream}'s operations, each built as work items appended with one {@link
 * #enqueue}: submits, copies, kernels over buffers, waits on other streams and on signals outside
 * the engine, and the host's synchronize. The queue itself, and {@code launch}, the hot path, are
 * {@link StreamQueue}'s, its one subclass. Internal.
 *
 * <p>Owns nothing that callers write: every operation appends to the stream's queue. {@code
 * kernels} is written once, by the stream's actor when it opens the stream. Thread-safe.
 */
abstract class StreamOps implements Stream.Ops {
  private static final CompletionStage<Void> SETTLED = CompletableFuture.completedStage(null);

  private final ActorEngine engine;
  private final Stream stream;
  private final boolean exclusive; // from newStream: its user may close it
  private volatile Kernels kernels; // its actor's, once started: for interrupts at shutdown

  StreamOps(ActorEngine engine, Device device, long id, int priority, boolean exclusive) {
    this.engine = engine;
    this.stream = Stream.wrap(device, id, priority, this);
    this.exclusive = exclusive;
  }

  /**
   * Appends {@code item} and wakes the stream's actor if it was idle. This method is thread-safe.
   *
   * @throws IllegalStateException if the stream accepts no more work (its system is stopping); the
   *     item is then settled as failed, like the work the stream had queued
   */
  abstract void enqueue(WorkItem item);

  /** How many items were ever reserved, counting appends in progress; final once stopped. */
  abstract long enqueued();

  abstract StreamProgress progress();

  /** The capture this stream's work goes to, or null. */
  abstract Capture capture();

  /** Throws if the stream is being captured: {@code call} would observe or wait for its work. */
  final void checkNotCapturing(String call) {
    Capture current = capture();
    if (current != null) {
      throw new IllegalStateException(Capture.NOT_PERMITTED + call + " in " + current);
    }
  }

  @Override
  public GraphCapture beginCapture() {
    engine.require(Capability.GRAPHS, "graphs");
    return Capture.begin((StreamQueue) this);
  }

  /** Whether the stream takes the user's work: it was neither closed nor stopped. */
  abstract boolean acceptsWork();

  /** Whether {@link #close} was called; any thread. */
  abstract boolean closing();

  /** Closes the stream's queue to the user's work; its owner stops once all of it is done. */
  abstract void closeQueue();

  @Override
  public boolean query() {
    checkNotCapturing("Stream.query()");
    long target = enqueued(); // read first: completed then covers at least these
    return progress().completed() >= target;
  }

  @Override
  public long pendingWork() {
    long done = progress().completed(); // read first: every completed item was reserved before
    return enqueued() - done;
  }

  /** True when idle and no failure awaits reporting: a synchronize would return at once. */
  final boolean isSettled() {
    return query() && progress().unreported() == null;
  }

  @Override
  public void close() {
    checkNotCapturing("Stream.close()");
    if (!exclusive) {
      throw new IllegalStateException(
          stream
              + (stream.id() == 0 ? " is its device's default stream" : " is a pooled stream")
              + ", shared by every user of the device: only a stream from newStream can be closed");
    }
    closeQueue();
  }

  // A sync on a closed stream: refused at the call, as its other calls are.
  private void checkOpen() {
    if (closing()) {
      throw new IllegalStateException(stopFailure("it was closed").getMessage());
    }
  }

  /**
   * True if all the stream's work has completed, no failure awaits reporting and it takes work: a
   * point enqueued now may be completed by the caller instead, ordered after all work enqueued
   * before (completed: device work counts as completed only once the device reported its end) and
   * before all work enqueued after. Reads the completed count before the failure, which the actor
   * writes before it publishes the count.
   */
  final boolean completesAtOnce() {
    return acceptsWork() && isSettled();
  }

  /** The actor's Java kernels, which {@link #interruptKernel} may interrupt; set once. */
  void runsKernelsWith(Kernels actorKernels) {
    kernels = actorKernels;
  }

  /**
   * Interrupts the Java kernel this stream runs now, if any (the actor system is shutting down and
   * the kernel has outlasted the grace period); any thread.
   *
   * @return the kernel's name if this call interrupted it, else null
   */
  String interruptKernel() {
    Kernels running = kernels;
    return running == null ? null : running.interrupt();
  }

  /** The failure a stream stopped for {@code reason} gives its work, and a late producer gets. */
  DeviceExecutionException stopFailure(String reason) {
    return new DeviceExecutionException(reason + "; " + stream() + " accepts no more work");
  }

  /** The public value for this stream. */
  Stream stream() {
    return stream;
  }

  ActorEngine engine() {
    return engine;
  }

  @Override
  public Event newEvent(EventOptions options) {
    return engine.newEvent(options);
  }

  @Override
  public void synchronize() {
    checkOpen();
    checkNotCapturing("Stream.synchronize()");
    engine.checkMayBlock("Stream.synchronize()", "Stream.synchronizeAsync()");
    if (engine.sanitizer() != null) {
      engine.sanitizer().hostSynchronized(stream); // the host is after what is enqueued now
    }
    if (engine.tracer().enabled()) {
      engine
          .tracer()
          .publish(
              new TraceEvent.StreamSynchronized(stream.device(), stream.id(), System.nanoTime()));
    }
    if (!isSettled()) {
      CompletableFuture<Void> done = new CompletableFuture<>();
      enqueue(new WorkItem.Sync(done)); // after the stop: IllegalStateException, as launch throws
      Failures.await(done, "the work of " + stream);
    }
  }

  @Override
  public CompletionStage<Void> synchronizeAsync() {
    checkOpen();
    checkNotCapturing("Stream.synchronizeAsync()");
    return isSettled() ? SETTLED : syncStage();
  }

  /**
   * A stage the stream completes when it reaches it, covering the work enqueued before: failed with
   * what is unreported, or with its stop.
   */
  CompletableFuture<Void> syncStage() {
    CompletableFuture<Void> done = new CompletableFuture<>();
    enqueueOrSettle(new WorkItem.Sync(done));
    return done;
  }

  /**
   * Enqueues {@code item} for the engine's own bookkeeping, also on a closing stream; on a stopped
   * stream it is settled instead of throwing: as failed, or as passed after a clean close.
   */
  abstract void enqueueOrSettle(WorkItem item);

  @Override
  @SuppressWarnings("unchecked")
  public <T> CompletionStage<T> submit(String name, Callable<T> kernel) {
    CompletableFuture<Object> result = new CompletableFuture<>();
    enqueue(new WorkItem.HostKernel(name, kernel::call, result));
    return (CompletionStage<T>) (CompletionStage<?>) result;
  }

  @Override
  public void copyToDevice(ByteBuffer src, DeviceBuffer dst) {
    enqueue(MemoryWork.copyToDevice(engine, stream, src, dst));
  }

  @Override
  public void copyToHost(DeviceBuffer src, ByteBuffer dst) {
    enqueue(MemoryWork.copyToHost(engine, stream, src, dst));
  }

  @Override
  public void copy(DeviceBuffer src, DeviceBuffer dst) {
    enqueue(MemoryWork.copy(engine, stream, src, dst));
  }

  @Override
  public void launch(String name, Kernel kernel, DeviceBuffer... buffers) {
    enqueue(MemoryWork.kernel(engine, name, kernel, stream, buffers));
  }

  @Override
  public void waitFor(Stream other) {
    StreamWaits.onStream(this, other);
  }

  @Override
  public void waitFor(CompletionStage<?> signal) {
    waitFor(signal, "an external signal");
  }

  /** Work enqueued after this call waits until {@code signal}, named {@code what}, completes. */
  void waitFor(CompletionStage<?> signal, String what) {
    StreamWaits.onSignal(this, signal, what);
  }

  @Override
  public String toString() {
    return stream.toString();
  }
}
