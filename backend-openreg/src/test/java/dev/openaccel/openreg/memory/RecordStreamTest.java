package dev.openaccel.openreg.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The caching allocator is stream-ordered: a buffer used on a second stream must be recorded there,
 * or its memory can be handed to a new owner while the second stream still reads it.
 */
class RecordStreamTest {
  private static final int SIZE = 4096;
  private static final Device DEVICE = Device.parse("openreg:0");
  private static Accelerator accelerator;

  @BeforeAll
  static void start() {
    accelerator = Accelerator.start();
  }

  @AfterAll
  static void stop() {
    accelerator.close();
  }

  /**
   * Allocates a buffer on the current stream, fills it with ones, lets a gated reader on another
   * stream copy it out, frees it, and overwrites a fresh allocation of the same size with twos
   * before opening the gate. Returns what the reader saw.
   */
  private static byte[] readerSees(boolean recordStream) throws Exception {
    Stream owner = accelerator.newStream(DEVICE);
    Stream reader = accelerator.newStream(DEVICE);
    CountDownLatch gate = new CountDownLatch(1);
    ByteBuffer seen = ByteBuffer.allocate(SIZE);
    try (var guard = accelerator.streamGuard(owner)) {
      DeviceBuffer first = accelerator.allocate(DEVICE, SIZE);
      owner.copyToDevice(ByteBuffer.wrap(filled((byte) 1)), first);
      reader.waitStream(owner);
      reader.launch("gate", () -> awaitGate(gate));
      reader.copyToHost(first, seen);
      if (recordStream) {
        first.recordStream(reader);
      }
      first.close();
      DeviceBuffer second = accelerator.allocate(DEVICE, SIZE);
      owner.copyToDevice(ByteBuffer.wrap(filled((byte) 2)), second);
      owner.synchronize(); // the twos are written while the reader is still gated
      gate.countDown();
      reader.synchronize();
      second.close();
    }
    return seen.array();
  }

  @Test
  void withoutRecordStreamTheMemoryIsReusedWhileAnotherStreamStillReadsIt() throws Exception {
    byte[] seen = readerSees(false);
    assertArrayEquals(filled((byte) 2), seen, "the reader saw the new owner's bytes: a race");
  }

  @Test
  void withRecordStreamTheReaderSeesTheOriginalBytes() throws Exception {
    byte[] seen = readerSees(true);
    assertArrayEquals(filled((byte) 1), seen);
    assertFalse(Arrays.equals(filled((byte) 2), seen));
  }

  private static byte[] filled(byte value) {
    byte[] bytes = new byte[SIZE];
    Arrays.fill(bytes, value);
    return bytes;
  }

  private static void awaitGate(CountDownLatch gate) {
    try {
      assertTrue(gate.await(10, TimeUnit.SECONDS), "gate not opened");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
