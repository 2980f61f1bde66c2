package dev.openaccel.openreg.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.DeviceOutOfMemoryException;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Buffers, copies, kernels on buffers, memory statistics and their misuse. */
class DeviceMemoryTest {
  private static final long MIB = 1024 * 1024;
  private static Accelerator accelerator;
  private static final Device D0 = Device.parse("openreg:0");
  private static final Device D1 = Device.parse("openreg:1");

  @BeforeAll
  static void start() {
    accelerator =
        Accelerator.start(
            ConfigFactory.parseString(
                "openaccel.system-name = device-memory-test\n"
                    + "openaccel.openreg.memory-per-device = 16MiB"));
  }

  @AfterAll
  static void stop() {
    accelerator.close();
  }

  private static byte[] pattern(int n, int seed) {
    byte[] bytes = new byte[n];
    for (int i = 0; i < n; i++) {
      bytes[i] = (byte) (i * 31 + seed);
    }
    return bytes;
  }

  @Test
  void hostToDeviceToHostRoundTripKeepsTheBytes() {
    Stream stream = accelerator.newStream(D0);
    byte[] data = pattern(10_000, 7);
    try (DeviceBuffer buffer = accelerator.allocate(D0, data.length)) {
      ByteBuffer back = ByteBuffer.allocate(data.length);
      stream.copyToDevice(ByteBuffer.wrap(data), buffer);
      stream.copyToHost(buffer, back);
      stream.synchronize();
      assertArrayEquals(data, back.array());
      assertEquals(0, back.position(), "the host buffer's position is left alone");
    }
  }

  @Test
  void deviceToDeviceCopiesWorkOnOneAndAcrossDevices() {
    Stream stream = accelerator.newStream(D1);
    byte[] data = pattern(4096, 3);
    try (DeviceBuffer a = accelerator.allocate(D0, 4096);
        DeviceBuffer b = accelerator.allocate(D0, 4096);
        DeviceBuffer c = accelerator.allocate(D1, 4096)) {
      ByteBuffer back = ByteBuffer.allocate(4096);
      stream.copyToDevice(ByteBuffer.wrap(data), a);
      stream.copy(a, b);
      stream.copy(b, c);
      stream.copyToHost(c, back);
      stream.synchronize();
      assertArrayEquals(data, back.array());
    }
  }

  @Test
  void aKernelComputesOnItsBuffers() {
    Stream stream = accelerator.newStream(D0);
    int n = 1000;
    ByteBuffer x = ByteBuffer.allocate(n * 4);
    for (int i = 0; i < n; i++) {
      x.putInt(i * 4, i);
    }
    try (DeviceBuffer in = accelerator.allocate(D0, n * 4L);
        DeviceBuffer out = accelerator.allocate(D0, n * 4L)) {
      stream.copyToDevice(x, in);
      stream.launch(
          "square",
          context -> {
            ByteBuffer src = context.buffer(0);
            ByteBuffer dst = context.buffer(1);
            for (int i = 0; i < n; i++) {
              dst.putInt(i * 4, src.getInt(i * 4) * src.getInt(i * 4));
            }
          },
          in,
          out);
      ByteBuffer result = ByteBuffer.allocate(n * 4);
      stream.copyToHost(out, result);
      stream.synchronize();
      for (int i = 0; i < n; i++) {
        assertEquals(i * i, result.getInt(i * 4));
      }
    }
  }

  @Test
  void statsTrackAllocatedReservedAndPeak() {
    Device device = D1;
    MemoryStats before = accelerator.memoryStats(device);
    assertEquals(16 * MIB, before.capacity());
    DeviceBuffer buffer = accelerator.allocate(device, 1000); // rounded up to 1024
    MemoryStats during = accelerator.memoryStats(device);
    assertEquals(before.allocated() + 1024, during.allocated());
    assertTrue(during.reserved() >= during.allocated());
    assertTrue(during.peakAllocated() >= during.allocated());
    buffer.close();
    MemoryStats after = accelerator.memoryStats(device);
    assertEquals(before.allocated(), after.allocated());
    assertEquals(during.reserved(), after.reserved(), "the freed block stays cached");
  }

  @Test
  void anAllocationAboveCapacityNamesTheNumbers() {
    DeviceOutOfMemoryException e =
        assertThrows(DeviceOutOfMemoryException.class, () -> accelerator.allocate(D0, 17 * MIB));
    assertTrue(e.getMessage().contains("out of memory"), e.getMessage());
    assertTrue(e.getMessage().contains(Long.toString(17 * MIB)), e.getMessage());
    assertTrue(e.getMessage().contains(Long.toString(16 * MIB)), e.getMessage());
    assertEquals(17 * MIB, e.requested());
  }

  @Test
  void nonPositiveSizesAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> accelerator.allocate(D0, 0));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> accelerator.allocate(D0, -5));
    assertTrue(e.getMessage().contains("-5"), e.getMessage());
  }

  @Test
  void copiesBetweenDifferentSizesNameBothSizes() {
    Stream stream = accelerator.newStream(D0);
    try (DeviceBuffer a = accelerator.allocate(D0, 100);
        DeviceBuffer b = accelerator.allocate(D0, 200)) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> stream.copy(a, b));
      assertTrue(e.getMessage().contains("100") && e.getMessage().contains("200"));
      e =
          assertThrows(
              IllegalArgumentException.class,
              () -> stream.copyToDevice(ByteBuffer.allocate(50), a));
      assertTrue(e.getMessage().contains("50") && e.getMessage().contains("100"));
      e =
          assertThrows(
              IllegalArgumentException.class, () -> stream.copyToHost(b, ByteBuffer.allocate(7)));
      assertTrue(e.getMessage().contains("7") && e.getMessage().contains("200"));
    }
  }

  @Test
  void aClosedBufferCannotBeUsedAndClosingTwiceIsHarmless() {
    Stream stream = accelerator.newStream(D0);
    DeviceBuffer buffer = accelerator.allocate(D0, 64);
    buffer.close();
    buffer.close();
    assertThrows(
        IllegalStateException.class, () -> stream.copyToDevice(ByteBuffer.allocate(64), buffer));
    assertThrows(
        IllegalStateException.class, () -> stream.copyToHost(buffer, ByteBuffer.allocate(64)));
    assertThrows(IllegalStateException.class, () -> stream.launch("k", c -> {}, buffer));
    assertThrows(IllegalStateException.class, () -> buffer.recordStream(stream));
  }

  @Test
  void aViewKeptPastItsKernelFailsLoudly() {
    Stream stream = accelerator.newStream(D0);
    AtomicReference<ByteBuffer> leaked = new AtomicReference<>();
    AtomicReference<dev.openaccel.runtime.KernelContext> leakedContext = new AtomicReference<>();
    try (DeviceBuffer buffer = accelerator.allocate(D0, 64)) {
      stream.launch(
          "leak",
          context -> {
            leaked.set(context.buffer(0));
            leakedContext.set(context);
          },
          buffer);
      stream.launch("use-leaked", c -> leaked.get().putInt(0, 42));
      DeviceExecutionException e =
          assertThrows(DeviceExecutionException.class, stream::synchronize);
      // A ByteBuffer's own exception, which carries no message: KernelContext documents it.
      assertInstanceOf(IndexOutOfBoundsException.class, e.getCause());
      assertTrue(e.getMessage().contains("kernel 'use-leaked' failed"), e.getMessage());
      IllegalStateException late =
          assertThrows(IllegalStateException.class, () -> leakedContext.get().buffer(0));
      assertTrue(late.getMessage().contains("used after its kernel returned"), late.getMessage());
    }
  }

  @Test
  void aBufferOfAnotherDeviceCannotBeGivenToAKernel() {
    Stream stream = accelerator.newStream(D0);
    try (DeviceBuffer remote = accelerator.allocate(D1, 64)) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> stream.launch("k", c -> {}, remote));
      assertTrue(e.getMessage().contains("another device"), e.getMessage());
    }
  }

  @Test
  void freeingWhileACopyIsInFlightIsSafe() {
    Stream stream = accelerator.currentStream(D0);
    byte[] data = pattern(8192, 11);
    DeviceBuffer buffer = accelerator.allocate(D0, data.length);
    ByteBuffer back = ByteBuffer.allocate(data.length);
    stream.copyToDevice(ByteBuffer.wrap(data), buffer);
    stream.copyToHost(buffer, back);
    buffer.close(); // the copies are still queued
    try (DeviceBuffer reused = accelerator.allocate(D0, data.length)) {
      stream.copyToDevice(ByteBuffer.wrap(pattern(data.length, 99)), reused); // ordered after them
      stream.synchronize();
    }
    assertArrayEquals(data, back.array());
  }
}
