/**
 * The backend SPI: the Java form of c10's {@code DeviceGuardImplInterface}. A backend ships a
 * {@link dev.openaccel.runtime.spi.BackendProvider} (found with {@link java.util.ServiceLoader})
 * that creates a {@link dev.openaccel.runtime.spi.DeviceGuardImpl}; the runtime routes every call
 * by device type through {@link dev.openaccel.runtime.spi.VirtualGuardImpl}. Most backends extend
 * {@link dev.openaccel.runtime.spi.EngineGuardImpl}, describe their hardware as an {@link
 * dev.openaccel.runtime.spi.EngineSpec}, and declare their {@link
 * dev.openaccel.runtime.spi.Capability capabilities}.
 */
package dev.openaccel.runtime.spi;
