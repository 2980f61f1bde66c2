package dev.openaccel.openreg;

import com.typesafe.config.Config;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceContext;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.InlineEvent;
import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.BackendContext;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.CurrentContext;
import dev.openaccel.runtime.spi.EngineGuardImpl;
import dev.openaccel.runtime.spi.EngineSpec;
import dev.openaccel.runtime.spi.LaunchModel;
import dev.openaccel.runtime.trace.Tracer;
import java.util.EnumSet;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * A second device type, {@code otherreg}, with one device, built on the runtime's engine in an
 * accelerator's actor system but not registered with that accelerator: it gives the tests real
 * events and streams of another device type without putting a second backend on the class path
 * (which would change {@code currentAccelerator()} for every other test). Create at most one per
 * accelerator.
 */
final class OtherTypeBackend extends EngineGuardImpl {
  static final DeviceType TYPE = DeviceType.of("otherreg");

  private static final Set<Capability> CAPABILITIES =
      Set.copyOf(EnumSet.of(Capability.EVENTS, Capability.TIMING));

  OtherTypeBackend(Accelerator accelerator) {
    super(
        TYPE,
        new EngineSpec(1, new PriorityRange(0, 1), 1, 4, 64, LaunchModel.immediate(), 0),
        context(accelerator.system(), (Tracer) accelerator.trace()));
  }

  /** A fresh stream of device {@code otherreg:0}. */
  Stream newStream() {
    return getNewStream(Device.of(TYPE, 0), 0);
  }

  /** A generic event of this device type. */
  Event newEvent(EventOptions options) {
    return InlineEvent.create(this, options);
  }

  @Override
  public Set<Capability> capabilities() {
    return CAPABILITIES;
  }

  private static BackendContext context(ActorSystem<?> system, Tracer tracer) {
    ThreadLocal<DeviceContext> slot = ThreadLocal.withInitial(DeviceContext::empty);
    CurrentContext current =
        new CurrentContext() {
          @Override
          public DeviceContext get() {
            return slot.get();
          }

          @Override
          public void set(DeviceContext context) {
            slot.set(context);
          }
        };
    return new BackendContext() {
      @Override
      public ActorSystem<?> system() {
        return system;
      }

      @Override
      public Config config() {
        return system.settings().config();
      }

      @Override
      public CurrentContext currentContext() {
        return current;
      }

      @Override
      public Tracer tracer() {
        return tracer;
      }
    };
  }
}
