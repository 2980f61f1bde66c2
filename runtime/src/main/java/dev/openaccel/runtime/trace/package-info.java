/**
 * PyTorch's GPUTrace hooks as messages: subscribe an {@code ActorRef<TraceEvent>} (a {@code
 * TestProbe}'s, for instance) to {@link dev.openaccel.runtime.trace.TraceBus}; the same events are
 * JDK Flight Recorder events named {@code dev.openaccel.Trace}.
 */
package dev.openaccel.runtime.trace;
