package dev.openaccel.runtime.actor;

import dev.openaccel.runtime.DeviceContext;
import dev.openaccel.runtime.internal.AcceleratorCore;
import dev.openaccel.runtime.internal.ContextSlots;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Behaviors that give actors their own device context. Use them when an actor calls {@code
 * Accelerator.currentDevice()}, guards or other "current" operations: without them, the actor would
 * see the context of whatever dispatcher thread runs it.
 */
public final class DeviceBehaviors {
  private DeviceBehaviors() {}

  /**
   * Wraps {@code behavior} so that the actor has its own device context (device 0, default streams
   * at start), installed on the thread only while it handles a message or signal. Guards the
   * handler leaves open are closed when it returns. A {@link DeviceScoped} message is handled under
   * its own context.
   */
  public static <T> Behavior<T> withDeviceContext(Behavior<T> behavior) {
    return Behaviors.setup(
        context -> {
          AcceleratorCore core = AcceleratorCore.get(context.getSystem());
          ContextSlots.Slot own =
              new ContextSlots.Slot("actor " + context.getSelf().path(), DeviceContext.empty());
          return Behaviors.intercept(() -> new DeviceContextInterceptor<>(core, own), behavior);
        });
  }
}
