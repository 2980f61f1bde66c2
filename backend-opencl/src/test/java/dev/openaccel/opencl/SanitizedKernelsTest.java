package dev.openaccel.opencl;

import static dev.openaccel.opencl.OpenClTestSupport.floats;
import static dev.openaccel.opencl.SanitizedKernelFixture.D0;
import static dev.openaccel.opencl.SanitizedKernelFixture.N;
import static dev.openaccel.opencl.SanitizedKernelFixture.assertRace;
import static dev.openaccel.opencl.SanitizedKernelFixture.read;
import static dev.openaccel.opencl.SanitizedKernelFixture.report;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.openaccel.opencl.SanitizedKernelFixture.Access;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.UnsynchronizedAccessException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The stream sanitizer ({@code throw}) on device kernels of the OpenCL backend: racy programs, each
 * refused at the racing call with the exact report and nothing enqueued, and correct programs, none
 * of them flagged. A {@code __global const} pointer parameter reads its buffer, a {@code
 * __constant} one too, any other {@code __global} pointer writes it.
 */
@RequiresOpenCl
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SanitizedKernelsTest {
  private Accelerator acc;
  private SanitizedKernelFixture fixture;

  @BeforeAll
  void start() {
    acc = OpenClTestSupport.start("openaccel.sanitizer = throw");
    fixture = new SanitizedKernelFixture(acc);
  }

  @AfterEach
  void closeBuffers() {
    fixture.closeAll();
  }

  @AfterAll
  void stop() {
    acc.close();
  }

  private static Access kernel(String name, String mode, int position, Stream stream) {
    return new Access("kernel '" + name + "'", mode, position, stream);
  }

  // ---- racy programs ----

  @Test
  void aConstReadOfWhatAKernelOfAnotherStreamWritesRacesAndTheStreamStaysUsable() {
    Stream s1 = acc.newStream(D0);
    Stream s2 = acc.newStream(D0);
    DeviceBuffer x = fixture.buffer();
    DeviceBuffer y = fixture.buffer();
    fixture.fill(s1, x, 1);
    assertRace(
        () -> fixture.add(s2, x, y),
        report(x, kernel("add", "read", 1, s2), kernel("fill", "write", 1, s1)));
    s2.waitStream(s1); // with the wait, the same launch passes
    s2.copyToDevice(floats(10, 20, 30, 40), y);
    fixture.add(s2, x, y);
    assertArrayEquals(new float[] {11, 21, 31, 41}, read(s2, y));
  }

  @Test
  void twoKernelsWritingOneBufferOnTwoStreamsRaceAndTheRacingOneIsNotEnqueued() {
    Stream s1 = acc.newStream(D0);
    Stream s2 = acc.newStream(D0);
    DeviceBuffer y = fixture.buffer();
    fixture.fill(s1, y, 1);
    DeviceKernel fill = fixture.kernel("fill");
    assertRace(
        () -> fill.launch(s2, "fill tile 2", LaunchShape.of(N), y, 2f),
        report(y, kernel("fill tile 2", "write", 1, s2), kernel("fill", "write", 1, s1)));
    s2.waitStream(s1);
    assertArrayEquals(new float[] {1, 1, 1, 1}, read(s2, y), "the racing launch ran");
    fill.launch(s2, "fill tile 2", LaunchShape.of(N), y, 2f);
    assertArrayEquals(new float[] {2, 2, 2, 2}, read(s2, y));
  }

  @Test
  void aKernelReadingWhatACopyOfAnotherStreamWroteRaces() {
    Stream s1 = acc.newStream(D0);
    Stream s2 = acc.newStream(D0);
    DeviceBuffer x = fixture.buffer();
    DeviceBuffer y = fixture.buffer();
    s1.copyToDevice(floats(1, 2, 3, 4), x);
    assertRace(
        () -> fixture.add(s2, x, y),
        report(x, kernel("add", "read", 1, s2), new Access("copyToDevice", "write", 1, s1)));
  }

  @Test
  void aCopyFromWhatAKernelOfAnotherStreamWritesRaces() {
    Stream s1 = acc.newStream(D0);
    Stream s2 = acc.newStream(D0);
    DeviceBuffer y = fixture.buffer();
    fixture.fill(s1, y, 1);
    ByteBuffer out = ByteBuffer.allocateDirect(N * Float.BYTES);
    assertRace(
        () -> s2.copyToHost(y, out),
        report(y, new Access("copyToHost", "read", 1, s2), kernel("fill", "write", 1, s1)));
  }

  @Test
  void overwritingWhatAKernelOfAnotherStreamReadsRaces() {
    Stream s1 = acc.newStream(D0);
    Stream s2 = acc.newStream(D0);
    DeviceBuffer x = fixture.buffer();
    DeviceBuffer y = fixture.buffer();
    fixture.add(s1, x, y);
    assertRace(
        () -> fixture.fill(s2, x, 5),
        report(x, kernel("fill", "write", 1, s2), kernel("add", "read", 1, s1)));
  }

  @Test
  void aConstantParameterReadsItsBuffer() {
    Stream s1 = acc.newStream(D0);
    Stream s2 = acc.newStream(D0);
    DeviceBuffer c = fixture.buffer();
    DeviceBuffer y = fixture.buffer();
    fixture.fill(s1, c, 2);
    assertRace(
        () -> fixture.scale(s2, c, y),
        report(c, kernel("scale", "read", 1, s2), kernel("fill", "write", 1, s1)));
  }

  @Test
  void closingABufferAKernelOfAnotherStreamMayStillWriteRaces() {
    Stream s1 = acc.newStream(D0);
    DeviceBuffer y = fixture.buffer();
    fixture.fill(s1, y, 1);
    UnsynchronizedAccessException e = assertThrows(UnsynchronizedAccessException.class, y::close);
    assertEquals(
        "unsynchronized close of "
            + y
            + ", allocated on "
            + acc.currentStream(D0)
            + ": kernel 'fill' (write) at position 1 of "
            + s1
            + " may still be pending; call recordStream("
            + s1
            + ") on the buffer before closing it, or synchronize "
            + s1
            + " first",
        e.getMessage());
  }

  // ---- correct programs ----

  @Test
  void anEventRecordedAfterTheWriteAndWaitedOnOrdersTheRead() {
    Stream s1 = acc.newStream(D0);
    Stream s2 = acc.newStream(D0);
    DeviceBuffer x = fixture.buffer();
    DeviceBuffer y = fixture.buffer();
    s2.copyToDevice(floats(0, 0, 0, 0), y);
    fixture.fill(s1, x, 3);
    Event written = s1.recordEvent();
    s2.waitEvent(written);
    fixture.add(s2, x, y);
    assertArrayEquals(new float[] {3, 3, 3, 3}, read(s2, y));
  }

  @Test
  void waitStreamOrdersTheWriteBeforeTheOtherStreamsWrite() {
    Stream s1 = acc.newStream(D0);
    Stream s2 = acc.newStream(D0);
    DeviceBuffer y = fixture.buffer();
    fixture.fill(s1, y, 1);
    s2.waitStream(s1);
    fixture.fill(s2, y, 2);
    assertArrayEquals(new float[] {2, 2, 2, 2}, read(s2, y));
  }

  @Test
  void synchronizingTheWritingStreamOrdersLaterWorkOfEveryStream() {
    Stream s1 = acc.newStream(D0);
    Stream s2 = acc.newStream(D0);
    DeviceBuffer x = fixture.buffer();
    DeviceBuffer y = fixture.buffer();
    fixture.fill(s1, x, 4);
    s1.synchronize();
    fixture.fill(s2, y, 1);
    fixture.add(s2, x, y); // reads x, which s1 wrote
    fixture.fill(s2, x, 0); // and overwrites it
    assertArrayEquals(new float[] {5, 5, 5, 5}, read(s2, y));
  }

  @Test
  void twoConstReadersOfOneBufferOnTwoStreamsDoNotRace() {
    Stream s1 = acc.newStream(D0);
    Stream s2 = acc.newStream(D0);
    DeviceBuffer x = fixture.buffer();
    DeviceBuffer y1 = fixture.buffer();
    DeviceBuffer y2 = fixture.buffer();
    fixture.fill(s1, x, 2);
    fixture.fill(s1, y1, 1);
    fixture.fill(s2, y2, 3);
    s2.waitStream(s1);
    fixture.add(s1, x, y1); // x: read on s1 ...
    fixture.add(s2, x, y2); // ... and on s2, unordered
    fixture.scale(s2, x, y2); // a __constant read
    assertDoesNotThrow(() -> s2.copyToHost(x, ByteBuffer.allocateDirect(N * Float.BYTES)));
    assertArrayEquals(new float[] {3, 3, 3, 3}, read(s1, y1));
    assertArrayEquals(new float[] {10, 10, 10, 10}, read(s2, y2));
  }

  @Test
  void aKernelAfterWorkOfItsOwnStreamDoesNotRace() {
    Stream s1 = acc.newStream(D0);
    DeviceBuffer x = fixture.buffer();
    DeviceBuffer y = fixture.buffer();
    s1.copyToDevice(floats(1, 2, 3, 4), x);
    fixture.fill(s1, y, 1);
    fixture.add(s1, x, y);
    fixture.fill(s1, x, 0);
    assertArrayEquals(new float[] {2, 3, 4, 5}, read(s1, y));
  }
}
