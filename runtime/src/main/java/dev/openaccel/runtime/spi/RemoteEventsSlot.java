package dev.openaccel.runtime.spi;

import java.util.Objects;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;

/**
 * Where an actor system keeps its {@link RemoteEvents}: a Pekko extension, so that two systems in
 * one JVM (two nodes in a test) have one each and no state is global.
 *
 * <p>Owns: the registered {@link RemoteEvents}, set once under this object's monitor and read
 * without a lock.
 */
final class RemoteEventsSlot implements Extension {

  private static final class Id extends ExtensionId<RemoteEventsSlot> {
    private static final Id INSTANCE = new Id();

    @Override
    public RemoteEventsSlot createExtension(ActorSystem<?> system) {
      return new RemoteEventsSlot();
    }
  }

  private volatile RemoteEvents remote;

  private RemoteEventsSlot() {}

  static RemoteEventsSlot of(ActorSystem<?> system) {
    return Id.INSTANCE.apply(system);
  }

  synchronized void register(RemoteEvents candidate) {
    Objects.requireNonNull(candidate, "remote");
    if (remote != null && remote != candidate) {
      throw new IllegalStateException("remote events are already provided by " + remote);
    }
    remote = candidate;
  }

  RemoteEvents get() {
    return remote;
  }
}
