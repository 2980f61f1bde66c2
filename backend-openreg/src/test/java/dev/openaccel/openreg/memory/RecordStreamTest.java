package dev.openaccel.openreg.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.openaccel.conformance.RecordStreamScenario;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The caching allocator is stream-ordered: a buffer used on a second stream must be recorded there,
 * or its memory is handed to a new owner while the second stream still reads it. (That {@code
 * recordStream} prevents it is part of the conformance suite.)
 */
class RecordStreamTest {
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

  @Test
  void withoutRecordStreamTheMemoryIsReusedWhileAnotherStreamStillReadsIt() throws Exception {
    assertArrayEquals(
        RecordStreamScenario.filled((byte) 2),
        RecordStreamScenario.readerSees(accelerator, DEVICE, false),
        "the reader saw the new owner's bytes: a race");
  }
}
