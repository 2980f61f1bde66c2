package dev.openaccel.samples.timing;

import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.spi.BackendContext;
import dev.openaccel.runtime.spi.BackendProvider;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.DeviceGuardImpl;
import dev.openaccel.runtime.spi.EngineSpec;

/**
 * A second device type, {@code toyreg}: one device with events and timing, built on the runtime's
 * actor engine and registered through {@link java.util.ServiceLoader} like any backend. The
 * samples' configuration disables it ({@code openaccel.disabled-backends}); the timing sample
 * enables it to show what {@code elapsedTime} says about events of two device types.
 */
public final class ToyBackendProvider implements BackendProvider {
  /** The toy backend's device type. */
  public static final DeviceType TYPE = DeviceType.of("toyreg");

  @Override
  public DeviceType type() {
    return TYPE;
  }

  @Override
  public DeviceGuardImpl create(BackendContext context) {
    // One device, one compute unit, no memory: just enough hardware for events.
    return context.engine(
        EngineSpec.builder(TYPE)
            .deviceCount(1)
            .priorityRange(new PriorityRange(0, 0))
            .streamPoolSize(4)
            .capabilities(Capability.EVENTS, Capability.TIMING)
            .build());
  }
}
