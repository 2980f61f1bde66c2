package dev.openaccel.openreg;

import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.spi.BackendContext;
import dev.openaccel.runtime.spi.BackendProvider;
import dev.openaccel.runtime.spi.DeviceGuardImpl;

/** Registers OpenReg with the runtime through {@link java.util.ServiceLoader}. */
public final class OpenRegProvider implements BackendProvider {

  /** OpenReg's device type, {@code openreg}: the PrivateUse1 analogue. */
  public static final DeviceType TYPE = DeviceType.of("openreg");

  @Override
  public DeviceType type() {
    return TYPE;
  }

  @Override
  public DeviceGuardImpl create(BackendContext context) {
    return OpenRegEngine.create(OpenRegSettings.from(context.config()), context);
  }
}
