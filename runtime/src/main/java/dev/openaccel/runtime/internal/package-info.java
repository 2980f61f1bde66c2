/**
 * Internal API: the wiring behind the {@code Accelerator} facade (backends found with
 * ServiceLoader, the callers' device contexts, the hooks OpenAccel's own modules use). Nothing here
 * is stable for users.
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
