/**
 * Internal API: the actor engine that every backend drives through {@code
 * BackendContext.engine(spec)}. One owner per stream: its actor (or, for a stream no actor claimed,
 * whoever stopped it) is the only writer of its progress, failure, parked wait and stop; producers
 * only reserve, append and wake (one compare-and-set on the stream's state word).
 *
 * <pre>
 *  ActorEngine (spi.Engine, with its event half EngineEvents; one per backend per accelerator)
 *   |-- EngineDevices: per device
 *   |     |-- DeviceActor (device dispatcher: DeviceThreads of a DevicePool taking turns
 *   |     |     |              as the device's IdleWait says; IdleMeter counts idle polling)
 *   |     |     |-- StreamActor  (owns one StreamQueue; Kernels; DeviceSteps -&gt; DeviceQueue)
 *   |     |     `-- DeviceSyncQuery (scatter-gather with a deadline)
 *   |     |-- StreamRegistry (ids, pools; caller-side) --&gt; StreamQueue &lt;-- producers
 *   |     `-- CachingAllocator --&gt; Buffer / Block; MemoryWork builds copies and buffer kernels
 *   `-- (EngineEvents) --&gt; EngineEvent --&gt; Generation (a latch per record)
 *  AfterTermination (per actor system): releases that run once it has terminated
 * </pre>
 *
 * <p>It uses the SPI and the public API only, never the facade wiring of {@code internal}.
 */
package dev.openaccel.runtime.internal.engine;
