package dev.openaccel.runtime.testing;

import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.spi.BackendContext;
import dev.openaccel.runtime.spi.BackendProvider;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.DeviceGuardImpl;
import dev.openaccel.runtime.spi.EngineSpec;

/**
 * The {@code minimal} backend of the runtime's own tests and of the conformance module's run of the
 * kit: two devices on the actor engine that declare {@link Capability#EVENTS} and nothing else, so
 * every other capability must be reported as unsupported. Registered through {@code
 * src/test/runtime-classpath/META-INF/services}, which only the runtime module's test runs put on
 * the class path, and through the conformance module's own test resources.
 */
public final class MinimalBackendProvider implements BackendProvider {

  /** The backend's device type. */
  public static final DeviceType TYPE = DeviceType.of("minimal");

  /** Its number of devices: two, so that cross-device operations can be exercised. */
  public static final int DEVICE_COUNT = 2;

  @Override
  public DeviceType type() {
    return TYPE;
  }

  @Override
  public DeviceGuardImpl create(BackendContext context) {
    return context.engine(SPEC);
  }

  /** Events only; a single stream priority; a pool of one stream that it does not offer. */
  private static final EngineSpec SPEC =
      EngineSpec.builder(TYPE)
          .deviceCount(DEVICE_COUNT)
          .priorityRange(new PriorityRange(0, 0))
          .computeUnits(2)
          .streamPoolSize(1)
          .batch(16)
          .capabilities(Capability.EVENTS)
          .build();
}
