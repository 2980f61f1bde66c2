package dev.openaccel.benchmarks.scale;

import java.util.concurrent.CountDownLatch;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The baseline for stream creation: a parent that spawns idle child actors on request, as a
 * device's actor spawns its streams' actors. Each child counts a latch down once it has started.
 */
final class Spawner extends AbstractBehavior<Spawner.Command> {

  sealed interface Command {}

  /** Spawn one idle child; it counts {@code started} down when it starts. */
  record Spawn(CountDownLatch started) implements Command {}

  static Behavior<Command> create() {
    return Behaviors.setup(Spawner::new);
  }

  private Spawner(ActorContext<Command> context) {
    super(context);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder().onMessage(Spawn.class, this::onSpawn).build();
  }

  private Behavior<Command> onSpawn(Spawn spawn) {
    getContext().spawnAnonymous(idle(spawn.started()));
    return this;
  }

  private static Behavior<Object> idle(CountDownLatch started) {
    return Behaviors.setup(
        context -> {
          started.countDown();
          return Behaviors.ignore();
        });
  }
}
