package dev.openaccel.openreg.testing;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceContext;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.InlineEvent;
import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.internal.engine.ActorEngine;
import dev.openaccel.runtime.internal.engine.SanitizerMode;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.CurrentContext;
import dev.openaccel.runtime.spi.Engine;
import dev.openaccel.runtime.spi.EngineSpec;
import dev.openaccel.runtime.spi.VirtualGuardImpl;
import dev.openaccel.runtime.trace.Tracer;
import java.time.Duration;

/**
 * A second device type, {@code otherreg}, with one device, run by the runtime's engine in an
 * accelerator's actor system but not registered with that accelerator: it gives the tests real
 * events and streams of another device type without putting a second backend on the class path
 * (which would change {@code currentAccelerator()} for every other test). Create at most one per
 * accelerator.
 */
public final class OtherTypeBackend {
  public static final DeviceType TYPE = DeviceType.of("otherreg");

  private final Engine engine;

  public OtherTypeBackend(Accelerator accelerator) {
    EngineSpec spec =
        EngineSpec.builder(TYPE)
            .deviceCount(1)
            .priorityRange(new PriorityRange(0, 1))
            .streamPoolSize(4)
            .capabilities(Capability.EVENTS, Capability.TIMING)
            .build();
    this.engine =
        new ActorEngine(
            spec,
            accelerator.system(),
            (Tracer) accelerator.trace(),
            threadConfined(),
            Duration.ofMinutes(1),
            SanitizerMode.OFF);
  }

  /** A fresh stream of device {@code otherreg:0}. */
  public Stream newStream() {
    return engine.getNewStream(Device.of(TYPE, 0), 0);
  }

  /** A generic event of this device type. */
  public Event newEvent(EventOptions options) {
    return InlineEvent.create(new VirtualGuardImpl(engine), options);
  }

  private static CurrentContext threadConfined() {
    ThreadLocal<DeviceContext> slot = ThreadLocal.withInitial(DeviceContext::empty);
    return new CurrentContext() {
      @Override
      public DeviceContext get() {
        return slot.get();
      }

      @Override
      public void set(DeviceContext context) {
        slot.set(context);
      }
    };
  }
}
