package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Kernel;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.DeviceThread;
import dev.openaccel.runtime.trace.TraceEvent;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The producer side of a stream: the public {@link Stream}'s operations, each an append to the
 * stream's {@link StreamQueue} plus, if the stream was idle, one wake-up for its {@link
 * StreamActor}. Internal.
 *
 * <p>Ordering point: every enqueue onto the stream, from any thread, is one {@link
 * StreamQueue#offer}; the actor runs items in queue order. Pekko's mailbox only carries wake-ups,
 * so per-sender ordering of messages never matters. The queue's count of enqueues is what {@link
 * #query} compares with the completed count.
 *
 * <p>Owns nothing that producers write: the stream's state belongs to its owner (its actor, which
 * sets {@code actor} when it claims the queue and {@code hostOnly} and {@code kernels} when it
 * opens; or whoever stops a stream no actor claimed). Producers only append and wake; a producer
 * that finds the stream stopped learns it from the queue's state word and settles only its own
 * item. Progress is in {@link StreamProgress}.
 */
final class StreamHandle implements Stream.Ops {
  private static final CompletionStage<Void> IDLE = CompletableFuture.completedStage(null);

  private final ActorEngine engine;
  private final Stream stream;
  private final ActorRef<DeviceActor.Command> device;
  private final int batch;
  private final StreamQueue queue = new StreamQueue();
  private final StreamProgress progress = new StreamProgress();
  private volatile ActorRef<StreamActor.Command> actor; // written once, by the actor's claim
  // Written once by the actor when it opens the stream (false until then): no device queue.
  private volatile boolean hostOnly;
  private volatile Kernels kernels; // its actor's, once started: for interrupts at shutdown

  /**
   * A stream of {@code device}'s actor, which spawns this stream's actor on the first enqueue: a
   * stream that never gets work never costs an actor.
   *
   * @param batch items the stream's actor runs per turn
   */
  StreamHandle(
      ActorEngine engine,
      ActorRef<DeviceActor.Command> device,
      Device deviceId,
      long id,
      int priority,
      int batch) {
    this.engine = engine;
    this.device = device;
    this.batch = batch;
    this.stream = Stream.wrap(deviceId, id, priority, this);
  }

  /** The public value for this stream. */
  Stream stream() {
    return stream;
  }

  ActorEngine engine() {
    return engine;
  }

  StreamProgress progress() {
    return progress;
  }

  /** The queue; its consumer side is the owner's. */
  StreamQueue queue() {
    return queue;
  }

  int batch() {
    return batch;
  }

  @Override
  public Event newEvent(EventOptions options) {
    return engine.events().newEvent(options);
  }

  @Override
  public boolean query() {
    long target = queue.enqueued(); // read first: completed then covers at least these
    return progress.completed() >= target;
  }

  /** True when idle and no failure awaits reporting: a synchronize would return at once. */
  boolean isSettled() {
    return query() && progress.unreported() == null;
  }

  /**
   * True if a record (or any point) enqueued now would complete as soon as the actor reached it,
   * without failure and without a device marker: the stream has no device queue, all its work has
   * completed, no failure awaits reporting and it accepts work. Such a point may be completed by
   * the caller instead; it is ordered after all work enqueued before this call, which has
   * completed, and before all work enqueued after it. Reads the completed count before the failure,
   * which the actor writes before it publishes the count.
   */
  boolean completesAtOnce() {
    return hostOnly && !queue.stopped() && isSettled();
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

  @Override
  public void synchronize() {
    DeviceThread.checkMayBlock("Stream.synchronize()", "Stream.synchronizeAsync()");
    if (engine.tracer().enabled()) {
      engine
          .tracer()
          .publish(
              new TraceEvent.StreamSynchronized(stream.device(), stream.id(), System.nanoTime()));
    }
    if (!isSettled()) {
      Failures.await(syncMarker(), "the work of " + stream);
    }
  }

  @Override
  public CompletionStage<Void> synchronizeAsync() {
    return isSettled() ? IDLE : syncMarker();
  }

  /**
   * A marker the stream completes when it reaches it: failed with what is unreported, or its stop.
   */
  CompletableFuture<Void> syncMarker() {
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
  public void launch(String name, Runnable kernel) {
    enqueue(new WorkItem.Launch(name, kernel));
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
    StreamHandle source;
    if (other.deviceType().equals(stream.deviceType())) {
      source = engine.handleOf(other);
      if (source == this) {
        return; // a stream is always ordered after its own earlier work
      }
      if (!other.device().equals(stream.device())) {
        engine.require(Capability.CROSS_DEVICE_WAIT, "waiting on a stream of another device");
      }
    } else if (other.ops() instanceof StreamHandle ofAnotherBackend) {
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

  /**
   * Appends {@code item} and wakes the actor if it was idle. This method is thread-safe.
   *
   * @throws IllegalStateException if the stream accepts no more work (its system is stopping); the
   *     item is then settled as failed, like the work the stream had queued
   */
  void enqueue(WorkItem item) {
    StreamQueue.Offer offer = queue.offer(item);
    if (offer == StreamQueue.Offer.WAKE) {
      wake();
    } else if (offer == StreamQueue.Offer.STOPPED) {
      DeviceExecutionException stopped = queue.stopReason();
      item.reject(stopped);
      throw new IllegalStateException(stopped.getMessage(), stopped);
    }
  }

  /**
   * Wakes the actor; the caller has just cleared the queue's idle flag. Until the actor exists
   * nobody else can have set it (the actor sets it, after it set {@code actor}), so a missing actor
   * means the first enqueue.
   */
  private void wake() {
    ActorRef<StreamActor.Command> ref = actor;
    if (ref == null) {
      device.tell(new DeviceActor.SpawnStream(this)); // the new actor claims the queue, then drains
    } else {
      ref.tell(StreamActor.Drain.INSTANCE);
    }
  }

  // ---- the owner's side: called only by the stream's StreamActor, or by whoever stops a stream
  // that no actor claimed ----

  /**
   * Makes {@code ref} this stream's owner; false if the stream was stopped first (the actor must
   * then stop without draining: whoever stopped the stream settled its work).
   */
  boolean claim(ActorRef<StreamActor.Command> ref) {
    if (!queue.claim()) {
      return false;
    }
    actor = ref;
    return true;
  }

  /**
   * The failure a stream stopping for {@code reason} gives its work, and the error a late producer
   * gets.
   */
  DeviceExecutionException stopFailure(String reason) {
    return new DeviceExecutionException(reason + "; " + stream + " accepts no more work");
  }

  /**
   * Stops the stream if no actor ever claimed it (its first enqueue's spawn request may never be
   * handled during shutdown, or it never had work), settling its queued work as failed; a stream
   * with an actor is left to that actor's stop. Idempotent; any thread.
   */
  void stopUnowned(String reason) {
    DeviceExecutionException why = stopFailure(reason);
    List<WorkItem> rest = queue.stopUnowned(why);
    if (rest != null) {
      progress.rejectAll(rest, why);
    }
  }

  @Override
  public String toString() {
    return stream.toString();
  }
}
