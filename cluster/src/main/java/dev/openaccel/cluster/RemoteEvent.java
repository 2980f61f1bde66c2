package dev.openaccel.cluster;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.actor.EventSignal;
import dev.openaccel.runtime.spi.DeviceThread;
import dev.openaccel.runtime.spi.EventChecks;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * An interprocess event of another node, opened here with {@code Accelerator.openEvent}: it follows
 * the owner's records. Internal; users see it as an {@link Event}.
 *
 * <p>{@link #block}, {@link #synchronize}, {@link #completion} and {@link #subscribe} each ask the
 * owner for its latest record at the time the owner handles the request, and complete with that
 * record. Since the request leaves after the call, and the owner handles it after everything the
 * owner did before sending us anything, a record the owner made before sending a message that
 * reached this node before the call is never missed (the generation seen is that one or newer).
 *
 * <p>{@link #query()} sends no blocking message: it returns the latest state the owner reported and
 * asks for a fresh one in the background (one request at a time), so a loop of queries sees a
 * completion within about one round trip, and sees a new record on the owner the same way. {@code
 * openEvent} asks the owner once before it returns, so the first query already has a state.
 *
 * <p>Owns: its closed flag; the owner's reported state is its {@link OwnerView}'s. Thread-safe.
 */
final class RemoteEvent implements Event {
  private static final EventOptions OPTIONS = EventOptions.defaults().withInterprocess(true);

  private final Accelerator accelerator;
  private final EventHandle handle;
  private final OwnerView view;
  private final Waits waits;
  private volatile boolean closed;

  RemoteEvent(Accelerator accelerator, EventHandle handle, NodePort owner, Waits waits) {
    this.accelerator = accelerator;
    this.handle = handle;
    this.view = new OwnerView(handle, owner);
    this.waits = waits;
  }

  /**
   * Asks the owner once, waiting at most {@code timeout}, whether the event exists, and caches its
   * state for {@link #query()}.
   *
   * @throws IllegalArgumentException if the owner has no such live interprocess event
   * @throws DeviceExecutionException if the owner does not answer in time or has left
   */
  void check(Duration timeout) {
    try {
      checkAsync(timeout).toCompletableFuture().get();
    } catch (ExecutionException e) {
      throw Failures.rethrow(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while opening " + this, e);
    }
  }

  /** Like {@link #check}, without blocking: the stage fails instead. */
  CompletionStage<Void> checkAsync(Duration timeout) {
    return view.check(timeout, this);
  }

  @Override
  public DeviceType deviceType() {
    return handle.deviceType();
  }

  /** The device on the owner node. */
  @Override
  public Optional<Device> device() {
    return Optional.of(Device.of(handle.deviceType(), handle.deviceIndex()));
  }

  @Override
  public int deviceIndex() {
    return handle.deviceIndex();
  }

  @Override
  public long id() {
    return handle.eventId();
  }

  @Override
  public EventOptions options() {
    return OPTIONS;
  }

  @Override
  public boolean isCreated() {
    return !closed;
  }

  @Override
  public boolean wasRecorded() {
    return true;
  }

  @Override
  public void record() {
    throw notHere("record");
  }

  @Override
  public void record(Stream stream) {
    throw notHere("record");
  }

  @Override
  public void recordOnce(Stream stream) {
    throw notHere("recordOnce");
  }

  /**
   * The stream waits for the owner's record that is current when this returns: the owner pins it
   * first (one round trip, bounded by the control timeout). On a device thread, which must not
   * block, the call returns at once and the record is the one current when the owner receives the
   * pin request; use {@code RemoteStream.waitEventAsync} there to know when it is fixed.
   *
   * @throws IllegalArgumentException if the owner has no such event
   * @throws dev.openaccel.runtime.DeviceExecutionException if the owner has left or did not answer
   */
  @Override
  public void block(Stream stream) {
    EventChecks.checkBlockable(this, stream);
    checkOpen("block");
    CompletionStage<Void> pinned = waits.localStreamWaits(stream, handle);
    if (!DeviceThread.isCurrent()) {
      Blocking.await(pinned, "Event.block(stream)", "RemoteStream.waitEventAsync(handle)");
    }
  }

  @Override
  public void block() {
    block(accelerator.currentStream(accelerator.currentDevice(deviceType())));
  }

  @Override
  public boolean query() {
    checkOpen("query");
    return view.query();
  }

  @Override
  public void synchronize() {
    checkOpen("synchronize");
    Blocking.await(
        accelerator.system(), view.latest(), "Event.synchronize()", "Event.completion()");
  }

  @Override
  public boolean synchronize(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    checkOpen("synchronize");
    return Blocking.await(
        accelerator.system(),
        view.latest(),
        timeout,
        "Event.synchronize(timeout)",
        "Event.completion()");
  }

  @Override
  public CompletionStage<Void> completion() {
    checkOpen("completion");
    CompletableFuture<Void> done = new CompletableFuture<>();
    view.latest()
        .whenComplete(
            (state, failure) -> {
              if (failure == null) {
                done.complete(null);
              } else {
                done.completeExceptionally(failure);
              }
            });
    return done;
  }

  @Override
  public double elapsedTime(Event end) {
    EventChecks.checkTimingComparable(this, end); // throws: an interprocess event has no timing
    throw new IllegalStateException("an interprocess event cannot be timed: " + OPTIONS);
  }

  @Override
  public Duration elapsed(Event end) {
    return EventChecks.toDuration(elapsedTime(end));
  }

  @Override
  public EventHandle handle() {
    checkOpen("handle");
    return handle;
  }

  @Override
  public void subscribe(ActorRef<EventSignal> subscriber) {
    Objects.requireNonNull(subscriber, "subscriber must not be null");
    checkOpen("subscribe");
    view.owner()
        .latest(handle, true)
        .whenComplete(
            (state, failure) ->
                subscriber.tell(
                    failure == null
                        ? new EventSignal.Completed(
                            handle.eventId(), state.generation(), state.completedAtNanos())
                        : new EventSignal.Failed(handle.eventId(), 0, view.named(failure))));
  }

  @Override
  public void close() {
    closed = true;
  }

  private UnsupportedOperationException notHere(String operation) {
    return new UnsupportedOperationException(
        "cannot "
            + operation
            + " an event opened from another node: record it on its owner "
            + handle.node()
            + " ("
            + this
            + ")");
  }

  private void checkOpen(String operation) {
    if (closed) {
      throw new IllegalStateException(
          "cannot call " + operation + "() on a closed event (" + this + ")");
    }
  }

  @Override
  public String toString() {
    return "RemoteEvent(node="
        + handle.node()
        + ", device_type="
        + deviceType()
        + ", device_index="
        + deviceIndex()
        + ", event_id="
        + id()
        + ")";
  }
}
