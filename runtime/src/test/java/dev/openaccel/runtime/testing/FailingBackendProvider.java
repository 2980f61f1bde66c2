package dev.openaccel.runtime.testing;

import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.spi.BackendContext;
import dev.openaccel.runtime.spi.BackendProvider;
import dev.openaccel.runtime.spi.DeviceGuardImpl;

/**
 * The {@code broken} backend of the runtime's own tests: its provider throws on creation, so the
 * runtime must list it with zero devices and report {@link #FAILURE} from every operation.
 */
public final class FailingBackendProvider implements BackendProvider {

  /** The backend's device type. */
  public static final DeviceType TYPE = DeviceType.of("broken");

  /** The message of the exception {@link #create} throws. */
  public static final String FAILURE = "simulated driver failure: no broken device answered";

  @Override
  public DeviceType type() {
    return TYPE;
  }

  @Override
  public DeviceGuardImpl create(BackendContext context) {
    throw new IllegalStateException(FAILURE);
  }
}
