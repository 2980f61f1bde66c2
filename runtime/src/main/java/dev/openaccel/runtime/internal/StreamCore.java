package dev.openaccel.runtime.internal;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Kernel;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.DeviceGuardImpl;
import dev.openaccel.runtime.spi.StreamOps;
import dev.openaccel.runtime.trace.TraceEvent;
import java.nio.ByteBuffer;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The shared half of a stream: the queue producers append to and the counters readers poll. Its
 * {@link StreamActor} is the only consumer. Internal.
 *
 * <p>Ordering point: every enqueue onto the stream, from any thread, is one {@code offer} onto
 * {@link #queue}, a linearizable multi-producer queue; the actor runs items in queue order. Pekko's
 * own mailbox only carries wake-ups ({@link StreamActor.Drain}), so per-sender ordering of messages
 * never matters.
 *
 * <p>Owns: the queue (producers append, the actor removes), {@code enqueued} (producers). The actor
 * owns and publishes {@code completed} and {@code unreported}; {@code scheduled} is the hand-off
 * flag between them: true while the actor has a wake-up pending or is draining, so producers send
 * at most one wake-up.
 */
public final class StreamCore implements StreamOps {
  private static final CompletionStage<Void> IDLE = CompletableFuture.completedStage(null);

  private final DeviceEngine engine;
  private final Stream stream;
  private final MpscQueue<WorkItem> queue = new MpscQueue<>();
  private final AtomicLong enqueued = new AtomicLong();
  private final AtomicBoolean scheduled = new AtomicBoolean();
  private final ActorRef<DeviceActor.Command> device;
  private final int batch;
  private volatile long completed;
  private volatile DeviceExecutionException unreported;
  private volatile ActorRef<StreamActor.Command> actor;
  private volatile DeviceExecutionException terminated;

  /**
   * A stream of {@code device}'s actor, which spawns this stream's actor on the first enqueue: a
   * stream that never gets work never costs an actor.
   *
   * @param batch items the stream's actor runs per turn
   */
  StreamCore(
      DeviceEngine engine,
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
  public Stream stream() {
    return stream;
  }

  DeviceEngine engine() {
    return engine;
  }

  @Override
  public DeviceGuardImpl backend() {
    return engine.guardImpl();
  }

  @Override
  public boolean query() {
    long target = enqueued.get();
    return completed >= target;
  }

  /** True when idle and no failure awaits reporting: a synchronize would return at once. */
  boolean isSettled() {
    return query() && unreported == null;
  }

  @Override
  public void synchronize() {
    AcceleratorThread.checkMayBlock("Stream.synchronize()", "Stream.synchronizeAsync()");
    if (engine.tracer().enabled()) {
      engine
          .tracer()
          .publish(
              new TraceEvent.StreamSynchronized(stream.device(), stream.id(), System.nanoTime()));
    }
    if (isSettled()) {
      return;
    }
    try {
      syncMarker().get();
    } catch (ExecutionException e) {
      throw DeviceEngine.rethrown(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while synchronizing " + stream, e);
    }
  }

  @Override
  public CompletionStage<Void> synchronizeAsync() {
    return isSettled() ? IDLE : syncMarker();
  }

  /** Enqueues a marker that completes when the stream reaches it, reporting unreported failures. */
  CompletableFuture<Void> syncMarker() {
    CompletableFuture<Void> done = new CompletableFuture<>();
    enqueue(new WorkItem.Sync(done));
    return done;
  }

  @Override
  public void launch(String name, Runnable kernel) {
    enqueue(new WorkItem.Launch(name, kernel::run));
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T> CompletionStage<T> submit(String name, Callable<T> kernel) {
    CompletableFuture<Object> result = new CompletableFuture<>();
    enqueue(new WorkItem.Submit(name, kernel, result));
    return (CompletionStage<T>) (CompletionStage<?>) result;
  }

  @Override
  public void copyToDevice(ByteBuffer src, DeviceBuffer dst) {
    enqueue(MemoryWork.copyToDevice(src, engine.bufferOf(dst)));
  }

  @Override
  public void copyToHost(DeviceBuffer src, ByteBuffer dst) {
    enqueue(MemoryWork.copyToHost(engine.bufferOf(src), dst));
  }

  @Override
  public void copy(DeviceBuffer src, DeviceBuffer dst) {
    enqueue(MemoryWork.copy(engine.bufferOf(src), engine.bufferOf(dst)));
  }

  @Override
  public void launch(String name, Kernel kernel, DeviceBuffer... buffers) {
    Buffer[] owned = new Buffer[buffers.length];
    for (int i = 0; i < buffers.length; i++) {
      owned[i] = engine.bufferOf(buffers[i]);
    }
    enqueue(MemoryWork.kernel(name, kernel, stream, owned));
  }

  @Override
  public void waitFor(Stream other) {
    StreamCore source = engine.coreOf(other);
    if (source == this) {
      return; // a stream is always ordered after its own earlier work
    }
    if (!other.device().equals(stream.device())
        && !backend().capabilities().contains(Capability.CROSS_DEVICE_WAIT)) {
      throw backend().unsupported("waiting on a stream of another device");
    }
    Generation marker = new Generation(null, 0);
    source.enqueue(new WorkItem.Record(marker));
    enqueue(new WorkItem.Wait(marker));
  }

  /** Appends {@code item} and wakes the actor if it is idle. This method is thread-safe. */
  void enqueue(WorkItem item) {
    DeviceExecutionException stopped = terminated;
    if (stopped != null) {
      throw new IllegalStateException(stopped.getMessage(), stopped);
    }
    enqueued.incrementAndGet(); // before the offer, so completed never passes enqueued
    queue.offer(item);
    // Read before the CAS: while the actor drains, the flag is set and most enqueues stop here.
    if (!scheduled.get() && scheduled.compareAndSet(false, true)) {
      wake();
    }
    if (terminated != null) {
      failQueued(); // lost the race with shutdown: fail what the actor will never see
    }
  }

  /**
   * Wakes the actor; the caller has just set {@code scheduled}. Until the actor exists nobody else
   * can have set it (only the actor clears it), so a missing actor means this is the first enqueue.
   */
  private void wake() {
    ActorRef<StreamActor.Command> ref = actor;
    if (ref == null) {
      device.tell(new DeviceActor.SpawnStream(this, batch)); // the new actor attaches, then drains
    } else {
      ref.tell(StreamActor.Drain.INSTANCE);
    }
  }

  // ---- the consumer side, called only by this stream's StreamActor ----

  /**
   * Makes {@code ref} this stream's consumer; false if the stream was stopped first (the actor must
   * then stop without draining, so the queue never has two consumers).
   */
  synchronized boolean attach(ActorRef<StreamActor.Command> ref) {
    if (terminated != null) {
      return false;
    }
    actor = ref;
    return true;
  }

  /**
   * Stops a stream whose actor has not started yet (its spawn request may never be handled during
   * shutdown), failing its queued work; a stream with an actor is left to that actor's stop.
   */
  synchronized void terminateIfUnattached(String reason) {
    if (actor == null) {
      terminate(reason);
    }
  }

  WorkItem poll() {
    return queue.poll();
  }

  /** Polls, waiting up to {@code nanos} for an item to arrive. */
  WorkItem pollWithin(long nanos) {
    WorkItem item = queue.poll();
    long until = System.nanoTime() + nanos;
    while (item == null && System.nanoTime() < until) {
      Thread.onSpinWait();
      item = queue.poll();
    }
    return item;
  }

  void itemCompleted() {
    completed = completed + 1; // single writer: the actor
  }

  DeviceExecutionException unreported() {
    return unreported;
  }

  void setUnreported(DeviceExecutionException failure) {
    unreported = failure;
  }

  /**
   * Called by the actor with an empty queue: clears the wake-up flag, then keeps draining only if a
   * producer slipped an item in meanwhile without sending a wake-up.
   *
   * @return true if the actor should keep draining
   */
  boolean idleOrContinue() {
    scheduled.set(false);
    return !queue.isEmpty() && scheduled.compareAndSet(false, true);
  }

  /** Fails all queued work and rejects new work; idempotent. Called once the actor is gone. */
  void terminate(String reason) {
    if (terminated == null) {
      terminated = new DeviceExecutionException(reason + "; " + stream + " accepts no more work");
    }
    failQueued();
  }

  // Synchronized: shutdown and a producer that lost the race with it may both get here; the actor
  // is gone.
  private synchronized void failQueued() {
    DeviceExecutionException failure = terminated;
    WorkItem item;
    while ((item = queue.poll()) != null) {
      StreamActor.fail(item, failure);
      itemCompleted();
    }
    unreported = failure;
  }

  @Override
  public String toString() {
    return stream.toString();
  }
}
