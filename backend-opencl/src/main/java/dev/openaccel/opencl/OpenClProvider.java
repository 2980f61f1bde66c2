package dev.openaccel.opencl;

import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.spi.BackendContext;
import dev.openaccel.runtime.spi.BackendProvider;
import dev.openaccel.runtime.spi.DeviceGuardImpl;

/** Registers the OpenCL backend with the runtime through {@link java.util.ServiceLoader}. */
public final class OpenClProvider implements BackendProvider {

  /** The OpenCL backend's device type, {@code opencl}. */
  public static final DeviceType TYPE = DeviceType.of("opencl");

  @Override
  public DeviceType type() {
    return TYPE;
  }

  @Override
  public DeviceGuardImpl create(BackendContext context) {
    return OpenClBackend.create(OpenClSettings.from(context.config()), context);
  }
}
