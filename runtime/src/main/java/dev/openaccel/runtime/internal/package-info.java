/**
 * Internal API: the wiring behind the {@code Accelerator} facade (backends found with
 * ServiceLoader, the callers' device contexts). Only the runtime's public packages use it: backends
 * and OpenAccel's other modules use the public API and the SPI. Nothing here is stable for users.
 *
 * <pre>
 *  Accelerator (facade) --&gt; AcceleratorCore (extension)
 *                             |-- BackendRegistry: DeviceType -&gt; VirtualGuardImpl -&gt; backend
 *                             |     (a provider that throws becomes a FailedBackend)
 *                             |-- EngineBackendContext: what a provider gets; engine(spec)
 *                             `-- ContextSlots: the caller's DeviceContext, per thread or actor
 * </pre>
 */
package dev.openaccel.runtime.internal;
