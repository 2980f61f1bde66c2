package dev.openaccel.conformance;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The scenario {@code recordStream} exists for: a buffer of an owner stream, filled with ones, is
 * read by a gated reader on another stream, then closed; a fresh allocation of the same size on the
 * owner is filled with twos before the gate opens. What the reader saw tells whether the closed
 * buffer's memory went to the new owner while the reader still had work on it. The conformance
 * suite checks that {@code recordStream} prevents that; a backend's own tests may check that its
 * stream-ordered allocator does hand the memory over without it.
 */
public final class RecordStreamScenario {
  /** Bytes per buffer. */
  public static final int SIZE = 4096;

  private RecordStreamScenario() {}

  /**
   * Runs the scenario on {@code device}, calling {@code recordStream} on the reader stream before
   * the close if asked; returns what the reader copied out.
   */
  public static byte[] readerSees(Accelerator accelerator, Device device, boolean recordStream)
      throws Exception {
    Stream owner = accelerator.newStream(device);
    Stream reader = accelerator.newStream(device);
    CountDownLatch gate = new CountDownLatch(1);
    ByteBuffer seen = ByteBuffer.allocate(SIZE);
    try (var guard = accelerator.streamGuard(owner)) {
      DeviceBuffer first = accelerator.allocate(device, SIZE);
      owner.copyToDevice(ByteBuffer.wrap(filled((byte) 1)), first);
      reader.waitStream(owner);
      reader.launch("gate", () -> Gates.await(gate));
      reader.copyToHost(first, seen);
      if (recordStream) {
        first.recordStream(reader);
      }
      first.close();
      try (DeviceBuffer second = accelerator.allocate(device, SIZE)) {
        owner.copyToDevice(ByteBuffer.wrap(filled((byte) 2)), second);
        synchronize(owner); // the twos are written while the reader is still gated
        gate.countDown();
        synchronize(reader);
      }
    } finally {
      gate.countDown();
    }
    return seen.array();
  }

  /** {@link #SIZE} bytes of {@code value}. */
  public static byte[] filled(byte value) {
    byte[] bytes = new byte[SIZE];
    Arrays.fill(bytes, value);
    return bytes;
  }

  /** {@code stream.synchronize()}, bounded by {@link Gates#WAIT}. */
  private static void synchronize(Stream stream)
      throws InterruptedException, ExecutionException, TimeoutException {
    stream.synchronizeAsync().toCompletableFuture().get(Gates.WAIT.toSeconds(), TimeUnit.SECONDS);
  }
}
