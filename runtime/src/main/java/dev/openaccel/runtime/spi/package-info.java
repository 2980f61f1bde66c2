/**
 * The backend SPI: the Java form of c10's {@code DeviceGuardImplInterface}; it depends only on the
 * public API. A backend ships a {@link dev.openaccel.runtime.spi.BackendProvider} (found with
 * {@link java.util.ServiceLoader}) that describes its hardware as an {@link
 * dev.openaccel.runtime.spi.EngineSpec} and obtains OpenAccel's actor engine with {@link
 * dev.openaccel.runtime.spi.BackendContext#engine}; how device work executes is its {@link
 * dev.openaccel.runtime.spi.DeviceExecutor} (synchronous Java, or a {@link
 * dev.openaccel.runtime.spi.DeviceQueue} per stream). The runtime routes every call by device type
 * through {@link dev.openaccel.runtime.spi.VirtualGuardImpl}; events are {@code InlineEvent}s over
 * it, and {@link dev.openaccel.runtime.spi.EventChecks} holds the contract's argument checks. A
 * distribution module (OpenAccel's cluster) plugs in through one extension point, {@link
 * dev.openaccel.runtime.spi.RemoteEvents}, which opens event handles of other nodes. The SPI never
 * imports the runtime's {@code internal} packages.
 */
package dev.openaccel.runtime.spi;
