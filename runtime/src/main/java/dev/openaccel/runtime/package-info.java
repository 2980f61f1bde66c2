/**
 * OpenAccel's public API: PyTorch's accelerator model (devices, streams, events, device guards) on
 * Apache Pekko Typed.
 *
 * <pre>
 *  caller thread / actor              runtime                                   device threads
 *  ---------------------              -------                                   --------------
 *  Accelerator.newStream(d) ---> StreamRegistry: id, StreamQueue; first work --> DeviceActor spawns
 *  stream.launch(k) ----------> StreamQueue: reserve, offer(k) --(wake if idle)--> StreamActor, the
 *                                                                                 stream's owner,
 *  event.record(s) -----------> EngineEvent: Generation g, queue(s).offer(g) -->   runs k, then
 *                                                                                 completes g
 *  event.block(s2) -----------> EngineEvent: captures g, queue(s2).offer(Wait g) -> s2 parks until
 *                                                 &lt;-- Woken (one tell) --         g's waiter wakes s2
 *  event.query() ------------->  g.isDone(): a volatile read, no message
 *  event.synchronize() ------->  returns at once if done, else parks the caller on g
 * </pre>
 *
 * <p>Every enqueue onto a stream is one compare-and-set on that stream's state word, its single
 * ordering point, and one offer onto its queue; the stream's actor is its owner and only consumer.
 * Events are latched generations, so a wait captures the record that was current when it was
 * called. The current device and stream live in a {@link dev.openaccel.runtime.DeviceContext}: per
 * thread, or per actor with {@link dev.openaccel.runtime.actor.DeviceBehaviors}.
 */
package dev.openaccel.runtime;
