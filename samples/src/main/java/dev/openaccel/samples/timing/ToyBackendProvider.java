package dev.openaccel.samples.timing;

import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.spi.BackendContext;
import dev.openaccel.runtime.spi.BackendProvider;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.DeviceGuardImpl;
import dev.openaccel.runtime.spi.EngineGuardImpl;
import dev.openaccel.runtime.spi.EngineSpec;
import dev.openaccel.runtime.spi.LaunchModel;
import java.util.EnumSet;
import java.util.Set;

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
    return new ToyGuardImpl(context);
  }

  /** One device, one compute unit, no memory: just enough hardware for events. */
  private static final class ToyGuardImpl extends EngineGuardImpl {
    private static final Set<Capability> CAPABILITIES =
        Set.copyOf(EnumSet.of(Capability.EVENTS, Capability.TIMING));

    ToyGuardImpl(BackendContext context) {
      super(
          TYPE,
          new EngineSpec(1, new PriorityRange(0, 0), 1, 4, 64, LaunchModel.immediate(), 0),
          context);
    }

    @Override
    public Set<Capability> capabilities() {
      return CAPABILITIES;
    }
  }
}
