package dev.openaccel.micrometer;

import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.spi.BackendContext;
import dev.openaccel.runtime.spi.BackendProvider;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.DeviceGuardImpl;
import dev.openaccel.runtime.spi.EngineSpec;

/**
 * The {@code nomemory} backend of this module's tests: one device on the actor engine that declares
 * events and no device memory, so its {@code memoryStats} throws {@link
 * UnsupportedOperationException}. Registered through {@code src/test/resources/META-INF/services},
 * beside OpenReg, in every accelerator these tests start.
 */
public final class NoMemoryBackendProvider implements BackendProvider {

  /** The backend's device type. */
  public static final DeviceType TYPE = DeviceType.of("nomemory");

  private static final EngineSpec SPEC =
      EngineSpec.builder(TYPE)
          .deviceCount(1)
          .priorityRange(new PriorityRange(0, 0))
          .computeUnits(1)
          .streamPoolSize(1)
          .batch(16)
          .capabilities(Capability.EVENTS)
          .build();

  @Override
  public DeviceType type() {
    return TYPE;
  }

  @Override
  public DeviceGuardImpl create(BackendContext context) {
    return context.engine(SPEC);
  }
}
