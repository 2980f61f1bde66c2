package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * Scatter-gather for a device synchronize, in the shape of Pekko's {@code DeviceGroupQuery}: it
 * collects the completions of the sync markers the caller enqueued on each stream, replies once and
 * stops. When the deadline passes first it fails the request naming the streams still busy; if it
 * is stopped first (the system is shutting down), the request fails instead of hanging. Internal.
 *
 * <p>Owns: the streams still to complete and the failures seen so far.
 */
final class DeviceSyncQuery extends AbstractBehavior<DeviceSyncQuery.Command> {

  /** One stream and the sync marker enqueued on it for this request. */
  record Member(Stream stream, CompletableFuture<Void> marker) {}

  sealed interface Command {}

  private record StreamSynced(Stream stream, Throwable failure) implements Command {}

  private enum Deadline implements Command {
    INSTANCE
  }

  static Behavior<Command> create(
      List<Member> members, Duration deadline, CompletableFuture<Void> done) {
    return Behaviors.setup(
        context -> {
          if (members.isEmpty()) {
            done.complete(null);
            return Behaviors.stopped();
          }
          return Behaviors.withTimers(
              timers -> new DeviceSyncQuery(context, timers, members, deadline, done));
        });
  }

  private final CompletableFuture<Void> done;
  private final Duration deadline;
  private final Set<Stream> pending = new LinkedHashSet<>();
  private DeviceExecutionException failure;

  private DeviceSyncQuery(
      ActorContext<Command> context,
      TimerScheduler<Command> timers,
      List<Member> members,
      Duration deadline,
      CompletableFuture<Void> done) {
    super(context);
    this.done = done;
    this.deadline = deadline;
    timers.startSingleTimer(Deadline.INSTANCE, deadline);
    for (Member member : members) {
      pending.add(member.stream());
      context.pipeToSelf(member.marker(), (ok, error) -> new StreamSynced(member.stream(), error));
    }
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(StreamSynced.class, this::onStreamSynced)
        .onMessageEquals(Deadline.INSTANCE, this::onDeadline)
        .onSignal(PostStop.class, signal -> onPostStop())
        .build();
  }

  private Behavior<Command> onStreamSynced(StreamSynced synced) {
    pending.remove(synced.stream());
    if (synced.failure() != null) {
      DeviceExecutionException next = Failures.asExecutionFailure(synced.failure());
      failure = failure == null ? Failures.copy(next) : Failures.merge(failure, next);
    }
    if (!pending.isEmpty()) {
      return this;
    }
    if (failure == null) {
      done.complete(null);
    } else {
      done.completeExceptionally(failure);
    }
    return Behaviors.stopped();
  }

  private Behavior<Command> onDeadline() {
    done.completeExceptionally(
        new DeviceExecutionException(
            "device synchronize did not complete within "
                + deadline
                + " (openaccel.device-synchronize-timeout); streams still busy: "
                + pending));
    return Behaviors.stopped();
  }

  private Behavior<Command> onPostStop() {
    done.completeExceptionally(
        new DeviceExecutionException(
            "device synchronize interrupted: the device actor stopped before its streams finished"));
    return this;
  }
}
