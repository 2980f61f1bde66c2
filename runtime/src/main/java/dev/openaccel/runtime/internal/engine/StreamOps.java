package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Kernel;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.trace.TraceEvent;
import java.nio.ByteBuffer;
import java.util.Objects;
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
 * hostOnly} and {@code kernels} are written once each, by the stream's actor when it opens the
 * stream. Thread-safe.
 */
abstract class StreamOps implements Stream.Ops {
  private static final CompletionStage<Void> SETTLED = CompletableFuture.completedStage(null);

  private final ActorEngine engine;
  private final Stream stream;
  // Written once by the stream's actor when it opens the stream (false until then): no device
  // queue.
  private volatile boolean hostOnly;
  private volatile Kernels kernels; // its actor's, once started: for interrupts at shutdown

  StreamOps(ActorEngine engine, Device device, long id, int priority) {
    this.engine = engine;
    this.stream = Stream.wrap(device, id, priority, this);
  }

  /**
   * Appends {@code item} and wakes the stream's actor if it was idle. This method is thread-safe.
   *
   * @throws IllegalStateException if the stream accepts no more work (its system is stopping); the
   *     item is then settled as failed, like the work the stream had queued
   */
  abstract void enqueue(WorkItem item);

  /** True when idle and no failure awaits reporting: a synchronize would return at once. */
  abstract boolean isSettled();

  /** Whether the stream takes work: it has not stopped. */
  abstract boolean acceptsWork();

  /**
   * True if the stream has no device queue, all its work has completed, no failure awaits reporting
   * and it takes work: a point enqueued now may be completed by the caller instead, ordered after
   * all work enqueued before (completed) and before all work enqueued after. Reads the completed
   * count before the failure, which the actor writes before it publishes the count.
   */
  final boolean completesAtOnce() {
    return hostOnly && acceptsWork() && isSettled();
  }

  /** Called by the stream's actor once, before its first item: whether it has no device queue. */
  void opened(boolean withoutDeviceQueue) {
    hostOnly = withoutDeviceQueue;
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
    engine.checkMayBlock("Stream.synchronize()", "Stream.synchronizeAsync()");
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
   * Enqueues {@code item} for the engine's own bookkeeping; on a stopped stream it is settled as
   * failed instead of throwing, so every caller sees a stopped stream the same way: as work that
   * failed.
   */
  void enqueueOrSettle(WorkItem item) {
    try {
      enqueue(item);
    } catch (IllegalStateException stopped) {
      // settled by enqueue: the item carries the stream's stop as its failure
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T> CompletionStage<T> submit(String name, Callable<T> kernel) {
    CompletableFuture<Object> result = new CompletableFuture<>();
    enqueue(new WorkItem.HostKernel(name, kernel::call, result));
    return (CompletionStage<T>) (CompletionStage<?>) result;
  }

  @Override
  public void copyToDevice(ByteBuffer src, DeviceBuffer dst) {
    enqueue(MemoryWork.copyToDevice(engine, src, dst));
  }

  @Override
  public void copyToHost(DeviceBuffer src, ByteBuffer dst) {
    enqueue(MemoryWork.copyToHost(engine, src, dst));
  }

  @Override
  public void copy(DeviceBuffer src, DeviceBuffer dst) {
    enqueue(MemoryWork.copy(engine, src, dst));
  }

  @Override
  public void launch(String name, Kernel kernel, DeviceBuffer... buffers) {
    enqueue(MemoryWork.kernel(engine, name, kernel, stream, buffers));
  }

  @Override
  public void waitFor(Stream other) {
    StreamQueue source;
    if (other.deviceType().equals(stream.deviceType())) {
      source = engine.handleOf(other);
      if (source == this) {
        return; // a stream is always ordered after its own earlier work
      }
      if (!other.device().equals(stream.device())) {
        engine.require(Capability.CROSS_DEVICE_WAIT, "waiting on a stream of another device");
      }
    } else if (other.ops() instanceof StreamQueue ofAnotherBackend) {
      source = ofAnotherBackend;
    } else {
      waitForRecordOn(other); // not a stream of this engine: a remote node's
      return;
    }
    if (source.completesAtOnce()) {
      return; // everything enqueued on other before this call has completed without failure
    }
    // An unnamed record there, which carries other's failure without reporting it (a sync would use
    // the failure up, and other's own next sync would then pass), and makes no event. A stopped
    // stream of another backend fails it, and so this stream's next sync; one of this backend
    // throws here.
    Generation end = Generation.unnamed(waitStreamOn(other));
    if (source.engine() == engine) {
      source.enqueue(end);
    } else {
      source.enqueueOrSettle(end);
    }
    enqueue(new WorkItem.Wait(end));
  }

  /**
   * Work enqueued after this call waits for an event recorded on {@code other}, a stream of no
   * engine (its failure travels as the record's; a stream that cannot record is synchronized).
   */
  private void waitForRecordOn(Stream other) {
    String what = waitStreamOn(other);
    Event end;
    try {
      end = other.recordEvent();
    } catch (UnsupportedOperationException | IllegalStateException cannotRecord) {
      // A backend without events, or a stream that stopped: its sync, which then fails this
      // stream's next sync instead of throwing here.
      waitFor(other.synchronizeAsync(), what);
      return;
    }
    CompletionStage<Void> done = end.completion();
    done.whenComplete((ok, failed) -> end.close());
    waitFor(done, what);
  }

  private static String waitStreamOn(Stream other) {
    return "the work enqueued on " + other + " before waitStream";
  }

  @Override
  public void waitFor(CompletionStage<?> signal) {
    waitFor(signal, "an external signal");
  }

  /** Work enqueued after this call waits until {@code signal}, named {@code what}, completes. */
  void waitFor(CompletionStage<?> signal, String what) {
    Objects.requireNonNull(signal, "signal");
    Generation external = Generation.unnamed(what);
    enqueue(new WorkItem.Wait(external));
    signal.whenComplete(
        (ok, error) ->
            external.complete(
                System.nanoTime(), error == null ? null : Failures.asExecutionFailure(error)));
  }

  @Override
  public String toString() {
    return stream.toString();
  }
}
