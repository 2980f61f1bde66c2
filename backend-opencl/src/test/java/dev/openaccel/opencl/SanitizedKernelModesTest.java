package dev.openaccel.opencl;

import static dev.openaccel.opencl.SanitizedKernelFixture.D0;
import static dev.openaccel.opencl.SanitizedKernelFixture.N;
import static dev.openaccel.opencl.SanitizedKernelFixture.read;
import static dev.openaccel.opencl.SanitizedKernelFixture.report;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.openaccel.opencl.SanitizedKernelFixture.Access;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The sanitizer's other modes on device kernels: {@code log} reports a race at WARN with the same
 * text and runs the work; {@code off}, the default, reports nothing.
 */
@RequiresOpenCl
class SanitizedKernelModesTest {
  private static final String LOGGER = "dev.openaccel.runtime.internal.engine.Sanitizer";

  /** What a racy program logged and what it computed. */
  private record Outcome(List<ILoggingEvent> warnings, String report, float[] result) {}

  /**
   * Runs a racy program in {@code mode}: a copy reads x on one stream, a kernel overwrites x on
   * another (the kernel's result does not depend on which runs first).
   */
  private static Outcome racyProgram(String mode) {
    Logger logger = (Logger) LoggerFactory.getLogger(LOGGER);
    ListAppender<ILoggingEvent> seen = new ListAppender<>();
    seen.start();
    logger.addAppender(seen);
    try (Accelerator acc = OpenClTestSupport.start("openaccel.sanitizer = " + mode)) {
      SanitizedKernelFixture fixture = new SanitizedKernelFixture(acc);
      Stream s1 = acc.newStream(D0);
      Stream s2 = acc.newStream(D0);
      DeviceBuffer x = fixture.buffer();
      s1.copyToHost(x, ByteBuffer.allocateDirect(N * Float.BYTES));
      fixture.fill(s2, x, 7);
      String report =
          report(
              x,
              new Access("kernel 'fill'", "write", 1, s2),
              new Access("copyToHost", "read", 1, s1));
      float[] result = read(s2, x);
      fixture.closeAll();
      return new Outcome(seen.list, report, result);
    } finally {
      logger.detachAppender(seen);
    }
  }

  @Test
  void logModeWarnsOfARaceWithAKernelInTheReportsTextAndRunsTheKernel() {
    Outcome outcome = racyProgram("log");
    assertEquals(1, outcome.warnings().size(), outcome.warnings().toString());
    ILoggingEvent warning = outcome.warnings().get(0);
    assertEquals(Level.WARN, warning.getLevel());
    assertEquals(outcome.report(), warning.getFormattedMessage());
    assertArrayEquals(new float[] {7, 7, 7, 7}, outcome.result(), "the kernel ran");
  }

  @Test
  void offModeReportsNothingForTheSameProgram() {
    Outcome outcome = racyProgram("off");
    assertEquals(List.of(), outcome.warnings());
    assertArrayEquals(new float[] {7, 7, 7, 7}, outcome.result());
  }
}
