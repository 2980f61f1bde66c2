package dev.openaccel.runtime.internal;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The actor of one device: parent of its stream actors and the answerer of device-wide requests. It
 * runs on the device's dispatcher, like its streams. Internal.
 *
 * <p>Owns: the device's stream actors (as children). Stream ids and the stream registry are handed
 * out synchronously by {@link DeviceStreams}, so that creating a stream never waits for this actor;
 * the actor gives a stream its mailbox when the stream gets its first work, and the stream's queue
 * holds that work meanwhile.
 */
final class DeviceActor extends AbstractBehavior<DeviceActor.Command> {

  sealed interface Command {}

  /** Gives {@code core} its actor; sent by the stream's first enqueue. */
  record SpawnStream(StreamCore core, int batch) implements Command {}

  /**
   * Completes {@code done} once every marker has completed: one per stream, enqueued when the
   * caller asked, so the request covers exactly the work enqueued before it.
   */
  record Synchronize(List<CompletableFuture<Void>> markers, CompletableFuture<Void> done)
      implements Command {
    Synchronize {
      markers = List.copyOf(markers);
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
    StreamCore core = spawn.core();
    getContext()
        .spawn(
            StreamActor.create(core, spawn.batch()),
            "stream-" + core.stream().id(),
            DispatcherSelector.sameAsParent()); // typed children default to the default dispatcher
    return this;
  }

  private Behavior<Command> onSynchronize(Synchronize request) {
    getContext()
        .spawn(
            DeviceSyncQuery.create(request.markers(), request.done()),
            "synchronize-" + ++queries,
            DispatcherSelector.sameAsParent());
    return this;
  }
}
