/**
 * JUnit 5 support for tests of code that uses OpenAccel: {@link
 * dev.openaccel.testkit.OpenAccelTest} on a test class gives its tests an {@code Accelerator}
 * parameter and fails each test that leaves streams with unfinished work, events, device buffers or
 * threads behind ({@link dev.openaccel.testkit.OpenAccelExtension}).
 */
package dev.openaccel.testkit;
