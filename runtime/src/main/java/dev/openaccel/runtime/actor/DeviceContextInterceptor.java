package dev.openaccel.runtime.actor;

import dev.openaccel.runtime.internal.AcceleratorCore;
import dev.openaccel.runtime.internal.ContextSlots;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.BehaviorInterceptor;
import org.apache.pekko.actor.typed.Signal;
import org.apache.pekko.actor.typed.TypedActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Installs an actor's device context on the thread for each message and signal, and removes it
 * after.
 *
 * <p>Owns: nothing shared; the actor's own slot is confined to the actor.
 */
final class DeviceContextInterceptor<T> extends BehaviorInterceptor<T, T> {
  private final AcceleratorCore core;
  private final ContextSlots slots;
  private final ContextSlots.Slot own;

  @SuppressWarnings("unchecked")
  DeviceContextInterceptor(AcceleratorCore core, ContextSlots.Slot own) {
    super((Class<T>) (Class<?>) Object.class);
    this.core = core;
    this.slots = core.contextSlots();
    this.own = own;
  }

  @Override
  public Behavior<T> aroundReceive(TypedActorContext<T> ctx, T msg, ReceiveTarget<T> target) {
    ContextSlots.Slot slot = own;
    if (msg instanceof DeviceScoped scoped) {
      try {
        core.checkContext(scoped.deviceContext());
      } catch (IllegalArgumentException bad) {
        ctx.asJava()
            .getLog()
            .error("rejected {}: its device context is invalid: {}", msg, bad.getMessage());
        ctx.asJava().getSystem().deadLetters().tell(msg);
        return Behaviors.same();
      }
      slot = new ContextSlots.Slot(own.owner() + " (scoped message)", scoped.deviceContext());
    }
    return within(ctx, slot, () -> target.apply(ctx, msg));
  }

  @Override
  public Behavior<T> aroundSignal(TypedActorContext<T> ctx, Signal signal, SignalTarget<T> target) {
    return within(ctx, own, () -> target.apply(ctx, signal));
  }

  /**
   * Runs {@code handler} with {@code slot} installed, then closes its leftover guards and removes
   * it.
   */
  private Behavior<T> within(
      TypedActorContext<T> ctx, ContextSlots.Slot slot, Supplier<Behavior<T>> handler) {
    ContextSlots.Slot previous = slots.install(slot);
    try {
      return handler.get();
    } finally {
      closeGuards(ctx, slot);
      slots.restore(previous);
    }
  }

  @Override
  public boolean isSame(BehaviorInterceptor<Object, Object> other) {
    return other instanceof DeviceContextInterceptor<?>;
  }

  private static void closeGuards(TypedActorContext<?> ctx, ContextSlots.Slot slot) {
    try {
      slot.closeOpenGuards();
    } catch (Exception e) {
      ctx.asJava().getLog().error("closing a guard left open by the handler failed", e);
    }
  }
}
