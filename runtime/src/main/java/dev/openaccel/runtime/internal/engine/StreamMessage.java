package dev.openaccel.runtime.internal.engine;

import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;

/** The messages of a {@link StreamActor}: each says where its stream may go on. Internal. */
sealed interface StreamMessage {

  /** Wake-up: there may be work in the queue. */
  enum Drain implements StreamMessage {
    INSTANCE
  }

  /** The generation a parked stream waits for is done, or ({@code marked}) on its device queue. */
  record Woken(Generation generation, boolean marked) implements StreamMessage {}

  /** Device work in flight ended (see {@link InFlight}): one message for any number of ends. */
  enum DeviceEnded implements StreamMessage {
    INSTANCE
  }

  /** The stage the item held by the stream's {@link ItemGate} waits for completed. */
  enum GateOpened implements StreamMessage {
    INSTANCE
  }

  /** A parked stream's waiter, only a tell: one run in a turn on the device is handed off. */
  record Wake(ActorRef<StreamMessage> self, boolean marked)
      implements Consumer<Generation>, DevicePool.HandOff {
    @Override
    public void accept(Generation generation) {
      self.tell(new Woken(generation, marked));
    }
  }
}
