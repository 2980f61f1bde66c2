package dev.openaccel.openreg;

import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.spi.BackendContext;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.DeviceExecutor;
import dev.openaccel.runtime.spi.Engine;
import dev.openaccel.runtime.spi.EngineSpec;
import java.util.EnumSet;

/**
 * OpenReg's {@code DeviceGuardImpl}, built by the runtime's actor engine from the simulated
 * hardware (device count, compute units, launch latency, memory) described as an {@link
 * EngineSpec}, with the synchronous executor: every kernel is Java code run on the device's own
 * threads.
 */
final class OpenRegEngine {
  /** OpenReg's priorities, as in PyTorch's OpenReg: least 0, greatest 1, higher wins. */
  static final PriorityRange PRIORITIES = new PriorityRange(0, 1);

  private OpenRegEngine() {}

  /** The engine for {@code settings}. */
  static Engine create(OpenRegSettings settings, BackendContext context) {
    return context.engine(spec(settings));
  }

  static EngineSpec spec(OpenRegSettings settings) {
    EngineSpec.Builder builder = EngineSpec.builder(OpenRegProvider.TYPE);
    settings.deviceWaitStrategies().forEach(builder::waitStrategy);
    return builder
        .deviceCount(settings.deviceCount())
        .priorityRange(PRIORITIES)
        .computeUnits(settings.computeUnits())
        .streamPoolSize(settings.streamPoolSize())
        .batch(settings.batch())
        .launchModel(LatencyModel.of(settings))
        .memoryPerDevice(settings.memoryPerDevice())
        .executor(DeviceExecutor.synchronous())
        .waitStrategy(settings.waitStrategy())
        .capabilities(
            EnumSet.of(
                Capability.EVENTS,
                Capability.TIMING,
                Capability.STREAM_PRIORITIES,
                Capability.STREAM_POOL,
                Capability.CROSS_DEVICE_WAIT,
                Capability.INTERPROCESS_EVENTS,
                Capability.DEVICE_MEMORY,
                Capability.GRAPHS))
        .build();
  }
}
