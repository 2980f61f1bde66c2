/**
 * JUnit 5 support for tests of code that uses OpenAccel: {@link
 * dev.openaccel.testkit.OpenAccelTest} on a test class gives its tests an {@code Accelerator}
 * parameter and fails each test that leaves streams with unfinished work, events, device buffers or
 * threads behind ({@link dev.openaccel.testkit.OpenAccelExtension}). {@link
 * dev.openaccel.testkit.StreamHold} keeps a stream's later work waiting until released, and {@link
 * dev.openaccel.testkit.TraceProbe} asserts the order in which kernels and events ran. {@link
 * dev.openaccel.testkit.StreamStepper} runs a stream one kernel or copy at a time, {@link
 * dev.openaccel.testkit.Faults} fails kernels, copies and allocations or delays them, {@link
 * dev.openaccel.testkit.ManualClock} is a device clock that moves only when the test moves it, and
 * {@link dev.openaccel.testkit.NodeFaults} cuts, isolates and downs the nodes of a Pekko cluster
 * running in the test's JVM (with the optional {@code pekko-cluster-typed} on the class path).
 */
package dev.openaccel.testkit;
