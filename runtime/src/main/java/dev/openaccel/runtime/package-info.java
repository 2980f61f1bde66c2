/**
 * OpenAccel's public API: PyTorch's accelerator model (devices, streams, events, device guards) on
 * Apache Pekko Typed.
 *
 * <pre>
 *  caller thread / actor              runtime                                   device threads
 *  ---------------------              -------                                   --------------
 *  Accelerator.newStream(d) ---> DeviceStreams: id, StreamCore ---tell---> DeviceActor spawns StreamActor
 *  stream.launch(k) ----------> StreamCore.queue.offer(k) --(wake-up if idle)--> StreamActor drains in order:
 *  event.record(s) -----------> Generation g = event.newGeneration()               runs k on the device thread
 *                                queue.offer(Record g)  ----------------------->   completes g (timestamp)
 *  event.block(s2) -----------> queue(s2).offer(Wait g) ----------------------->   s2 parks until g completes:
 *                                                        &lt;-- Resume (one tell) --   g's waiter wakes s2
 *  event.query() ------------->  g.isDone(): a volatile read, no message
 *  event.synchronize() ------->  returns at once if done, else parks the caller on g
 * </pre>
 *
 * <p>Every enqueue onto a stream is one offer onto that stream's queue, its single ordering point;
 * the stream's actor is its only consumer. Events are latched generations, so a wait captures the
 * record that was current when it was called. The current device and stream live in a {@link
 * dev.openaccel.runtime.DeviceContext}: per thread, or per actor with {@link
 * dev.openaccel.runtime.actor.DeviceBehaviors}.
 */
package dev.openaccel.runtime;
