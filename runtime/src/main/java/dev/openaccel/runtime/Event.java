package dev.openaccel.runtime;

import dev.openaccel.runtime.actor.EventSignal;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * A synchronization point between streams of one device, as {@code torch.Event}: {@link #record}
 * marks the work enqueued so far on a stream, {@link #block} makes another stream wait for it,
 * {@link #query} and {@link #synchronize} observe it from the host, {@link #elapsedTime} measures
 * between two timing events.
 *
 * <p>The backend event is created lazily, on the first record, which also binds the event to the
 * recording stream's device. Each record starts a new generation; waits and completions capture the
 * generation that is latest when they are called. Events are thread-safe; records from several
 * threads at once are ordered arbitrarily among themselves.
 */
public interface Event extends AutoCloseable {

  /**
   * The device type this event was created for; it can be recorded on streams of that type only.
   */
  DeviceType deviceType();

  /** The device of the first record; empty before it. */
  Optional<Device> device();

  /** The index of the device of the first record; -1 before it. */
  int deviceIndex();

  /**
   * 0 until the first record; then non-zero, stable across re-records, unique among live events.
   */
  long id();

  /** The options the event was created with. */
  EventOptions options();

  /** Whether the backend event exists (after the first record, before close). */
  boolean isCreated();

  /** Whether the event has been recorded at least once. */
  boolean wasRecorded();

  /** Records on the caller's current stream of the current device. */
  void record();

  /**
   * Records on {@code stream}. Atomic against concurrent calls: the new record's generation and its
   * place in the stream are one step, so a concurrent {@link #block} either waits for the previous
   * record or for exactly this one, never for a record enqueued after its own wait.
   *
   * @throws IllegalArgumentException containing "does not match recording stream's device" (or "...
   *     device type") if the event is bound to another device (type)
   * @throws IllegalStateException if the event is closed
   */
  void record(Stream stream);

  /** Records on {@code stream} only if this event was never recorded. */
  void recordOnce(Stream stream);

  /**
   * Work enqueued on {@code stream} after this call waits for the latest record at call time; a
   * later re-record does not change that. A no-op if never recorded. Safe against a concurrent
   * {@link #record}: it captures a record whose place in its stream is already fixed, so it never
   * deadlocks a stream, whichever streams and devices the two calls name.
   */
  void block(Stream stream);

  /** {@link #block(Stream)} on the caller's current stream. */
  void block();

  /**
   * True if never recorded, or the work captured by the latest record has completed. No message is
   * sent.
   */
  boolean query();

  /**
   * Blocks until the latest record's work completes; a no-op if never recorded.
   *
   * @throws DeviceExecutionException if that work failed
   * @throws IllegalStateException containing "blocking call on an actor thread" on an OpenAccel
   *     thread
   */
  void synchronize();

  /** Like {@link #synchronize()}, waiting at most {@code timeout}; false if it passed first. */
  boolean synchronize(Duration timeout);

  /** Completes when the work captured by the latest record at call time completes. */
  CompletionStage<Void> completion();

  /**
   * Milliseconds from this event's completion to {@code end}'s, from one monotonic clock.
   *
   * @throws IllegalArgumentException containing "does not match other's device type", "must be
   *     created with enable_timing" or "must be recorded on the same device"
   * @throws IllegalStateException containing "must be recorded before calculating elapsed time" or
   *     "must be completed before calculating elapsed time"
   */
  double elapsedTime(Event end);

  /** The interval of {@link #elapsedTime} as a {@link Duration}. */
  Duration elapsed(Event end);

  /**
   * A handle another node or accelerator can {@code openEvent}.
   *
   * @throws IllegalStateException containing "not an interprocess event" without {@code
   *     interprocess}
   */
  EventHandle handle();

  /** Sends {@code subscriber} one {@link EventSignal} for the latest record at call time. */
  void subscribe(ActorRef<EventSignal> subscriber);

  /** Releases backend resources; idempotent; never throws. */
  @Override
  void close();
}
