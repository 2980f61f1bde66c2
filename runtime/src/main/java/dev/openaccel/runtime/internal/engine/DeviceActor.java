package dev.openaccel.runtime.internal.engine;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The actor of one device: parent of its stream actors, and the owner of device-wide requests (a
 * synchronize is a {@link DeviceSyncQuery} child with a deadline). It runs on the device's
 * dispatcher, like its streams. Internal.
 *
 * <p>Owns: the device's stream actors (as children) and the count of queries. Stream ids, pools and
 * the registry are caller-side ({@link StreamRegistry}), so creating a stream never waits for this
 * actor; a stream asks for its actor with its first work.
 */
final class DeviceActor extends AbstractBehavior<DeviceActor.Command> {

  sealed interface Command {}

  /** Gives {@code stream} its actor; sent by the stream's first enqueue. */
  record SpawnStream(StreamQueue stream) implements Command {}

  /**
   * Completes {@code done} once every stream's sync marker has completed (one per stream, enqueued
   * when the caller asked, so the request covers exactly the work enqueued before it), or fails it
   * naming the streams still busy when {@code deadline} passes.
   */
  record Synchronize(
      List<DeviceSyncQuery.Member> members, Duration deadline, CompletableFuture<Void> done)
      implements Command {
    Synchronize {
      members = List.copyOf(members);
    }
  }

  static Behavior<Command> create() {
    return Behaviors.setup(DeviceActor::new);
  }

  private int queries;

  private DeviceActor(ActorContext<Command> context) {
    super(context);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(SpawnStream.class, this::onSpawnStream)
        .onMessage(Synchronize.class, this::onSynchronize)
        .build();
  }

  private Behavior<Command> onSpawnStream(SpawnStream spawn) {
    getContext()
        .spawn(
            StreamActor.create(spawn.stream()),
            "stream-" + spawn.stream().stream().id(),
            DispatcherSelector.sameAsParent()); // typed children default to the default dispatcher
    return this;
  }

  private Behavior<Command> onSynchronize(Synchronize request) {
    getContext()
        .spawn(
            DeviceSyncQuery.create(request.members(), request.deadline(), request.done()),
            "synchronize-" + ++queries,
            DispatcherSelector.sameAsParent());
    return this;
  }
}
