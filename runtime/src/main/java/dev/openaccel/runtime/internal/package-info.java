/**
 * Internal API: the actor engine behind {@code EngineGuardImpl}. Nothing here is stable for users.
 *
 * <pre>
 *  DeviceEngine (one per backend per accelerator)
 *   |-- DeviceStreams[i] --- ids, registry, pools ---&gt; StreamCore (queue, counters) &lt;--- producers
 *   |-- DeviceActor[i]  (device dispatcher i: AcceleratorThreads)
 *   |     |-- StreamActor (drains one StreamCore, runs kernels via KernelRunner)
 *   |     `-- DeviceSyncQuery (scatter-gather for a device synchronize)
 *   `-- CachingAllocator[i] (stream-ordered block cache) ---&gt; Buffer / Block
 *  EventCore ---&gt; Generation (a latch per record; waiters: streams, futures, subscribers)
 *  ContextSlots: the caller's DeviceContext, per thread or per actor
 * </pre>
 */
package dev.openaccel.runtime.internal;
