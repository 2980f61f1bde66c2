/**
 * Internal API: the actor engine that every backend drives through {@code
 * BackendContext.engine(spec)}. One writer per state: a stream's actor is the only writer of its
 * progress, failure and blocked-on state; everything else hands it work or results.
 *
 * <pre>
 *  ActorEngine (spi.Engine; one per backend per accelerator)
 *   |-- EngineDevices: per device
 *   |     |-- DeviceActor (device dispatcher: DeviceThreads of a DevicePool taking turns
 *   |     |     |              as the device's IdleWait says; IdleMeter counts idle polling)
 *   |     |     |-- StreamActor  (drains one StreamHandle; Kernels; InFlight -&gt; DeviceQueue)
 *   |     |     `-- DeviceSyncQuery (scatter-gather with a deadline)
 *   |     |-- StreamRegistry (ids, pools; caller-side) --&gt; StreamHandle (queue) &lt;-- producers
 *   |     `-- CachingAllocator --&gt; Buffer / Block; MemoryWork builds copies and buffer kernels
 *   `-- EngineEvents --&gt; EngineEvent --&gt; Generation (a latch per record)
 *  AfterTermination (per actor system): releases that run once it has terminated
 * </pre>
 *
 * <p>It uses the SPI and the public API only, never the facade wiring of {@code internal}.
 */
package dev.openaccel.runtime.internal.engine;
