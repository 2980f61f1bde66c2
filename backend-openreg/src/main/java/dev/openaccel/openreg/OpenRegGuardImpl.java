package dev.openaccel.openreg;

import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.spi.BackendContext;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.EngineGuardImpl;
import dev.openaccel.runtime.spi.EngineSpec;
import java.util.EnumSet;
import java.util.Set;

/**
 * OpenReg's {@code DeviceGuardImpl}: the simulated hardware (device count, compute units, launch
 * latency) described as an {@link EngineSpec} for the runtime's actor engine, plus the capabilities
 * it declares. This class is thread-safe.
 */
final class OpenRegGuardImpl extends EngineGuardImpl {
  /** Priorities as DESIGN.md fixes them: least 0, greatest 1, higher wins. */
  static final PriorityRange PRIORITIES = new PriorityRange(0, 1);

  private static final Set<Capability> CAPABILITIES =
      Set.copyOf(
          EnumSet.of(
              Capability.EVENTS,
              Capability.TIMING,
              Capability.STREAM_PRIORITIES,
              Capability.STREAM_POOL,
              Capability.CROSS_DEVICE_WAIT,
              Capability.INTERPROCESS_EVENTS,
              Capability.DEVICE_MEMORY));

  OpenRegGuardImpl(OpenRegSettings settings, BackendContext context) {
    super(OpenRegProvider.TYPE, spec(settings), context);
  }

  private static EngineSpec spec(OpenRegSettings settings) {
    return new EngineSpec(
        settings.deviceCount(),
        PRIORITIES,
        settings.computeUnits(),
        settings.streamPoolSize(),
        settings.batch(),
        LatencyModel.of(settings),
        settings.memoryPerDevice());
  }

  @Override
  public Set<Capability> capabilities() {
    return CAPABILITIES;
  }
}
