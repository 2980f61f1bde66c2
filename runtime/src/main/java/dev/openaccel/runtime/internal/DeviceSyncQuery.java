package dev.openaccel.runtime.internal;

import dev.openaccel.runtime.DeviceExecutionException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * Scatter-gather for a device synchronize: collects the completions of the sync markers the caller
 * enqueued on each stream, completes the request once and stops. If it is stopped first (the system
 * is shutting down), the request fails instead of hanging. Internal.
 *
 * <p>Owns: the count of markers still to complete and the failures seen so far.
 */
final class DeviceSyncQuery extends AbstractBehavior<DeviceSyncQuery.Command> {

  sealed interface Command {}

  private record StreamSynced(Throwable failure) implements Command {}

  static Behavior<Command> create(
      List<CompletableFuture<Void>> markers, CompletableFuture<Void> done) {
    return Behaviors.setup(
        context -> {
          if (markers.isEmpty()) {
            done.complete(null);
            return Behaviors.stopped();
          }
          return new DeviceSyncQuery(context, markers, done);
        });
  }

  private final CompletableFuture<Void> done;
  private int pending;
  private DeviceExecutionException failure;

  private DeviceSyncQuery(
      ActorContext<Command> context,
      List<CompletableFuture<Void>> markers,
      CompletableFuture<Void> done) {
    super(context);
    this.done = done;
    this.pending = markers.size();
    for (CompletableFuture<Void> marker : markers) {
      context.pipeToSelf(marker, (ok, error) -> new StreamSynced(error));
    }
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(StreamSynced.class, this::onStreamSynced)
        .onSignal(PostStop.class, signal -> onPostStop())
        .build();
  }

  private Behavior<Command> onStreamSynced(StreamSynced synced) {
    if (synced.failure() != null) {
      DeviceExecutionException next = DeviceEngine.asExecutionFailure(synced.failure());
      if (failure == null) {
        failure = DeviceEngine.reported(next); // a copy: the stream's own exception is shared
      } else {
        failure.addSuppressed(next);
      }
    }
    if (--pending > 0) {
      return this;
    }
    if (failure == null) {
      done.complete(null);
    } else {
      done.completeExceptionally(failure);
    }
    return Behaviors.stopped();
  }

  private Behavior<Command> onPostStop() {
    done.completeExceptionally(
        new DeviceExecutionException(
            "device synchronize interrupted: the device actor stopped before its streams finished"));
    return this;
  }
}
