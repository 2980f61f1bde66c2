package dev.openaccel.openreg.sanitizer;

import static dev.openaccel.openreg.testing.KernelLatches.D0;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.UnsynchronizedAccessException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.function.Executable;

/** Small programs' steps for the sanitizer's tests: buffers, writes, reads, the race assertion. */
final class SanitizerFixture {
  static final int SIZE = 64;

  private final Accelerator acc;
  private final List<DeviceBuffer> buffers = new ArrayList<>();

  SanitizerFixture(Accelerator acc) {
    this.acc = acc;
  }

  /** A buffer of device 0, allocated on its default stream; closed by {@link #closeAll}. */
  DeviceBuffer buffer() {
    DeviceBuffer buffer = acc.allocate(D0, SIZE);
    buffers.add(buffer);
    return buffer;
  }

  static void write(Stream stream, DeviceBuffer buffer) {
    stream.copyToDevice(ByteBuffer.allocate(SIZE), buffer);
  }

  static void read(Stream stream, DeviceBuffer buffer) {
    stream.copyToHost(buffer, ByteBuffer.allocate(SIZE));
  }

  static void kernel(Stream stream, String name, DeviceBuffer... buffers) {
    stream.launch(name, context -> {}, buffers);
  }

  /**
   * Asserts that {@code racing} throws the sanitizer's exception naming both accesses, the buffer
   * and the missing wait.
   */
  static UnsynchronizedAccessException assertRace(
      Executable racing,
      Stream racingStream,
      String racingName,
      Stream earlierStream,
      String earlierName,
      DeviceBuffer buffer) {
    UnsynchronizedAccessException e = assertThrows(UnsynchronizedAccessException.class, racing);
    String message = e.getMessage();
    assertTrue(message.startsWith("unsynchronized access to " + buffer), message);
    assertTrue(message.contains(racingName + " ("), message);
    assertTrue(message.contains("of " + racingStream + " is not ordered after"), message);
    assertTrue(message.contains("not ordered after " + earlierName + " ("), message);
    assertTrue(message.contains("of " + earlierStream + "; add waitEvent("), message);
    assertTrue(
        message.contains("waitStream(" + earlierStream + ") on " + racingStream + " before"),
        message);
    return e;
  }

  /** Orders the host after all work of device 0, then closes every buffer made here. */
  void closeAll() {
    acc.synchronize(D0);
    buffers.forEach(DeviceBuffer::close);
    buffers.clear();
  }
}
