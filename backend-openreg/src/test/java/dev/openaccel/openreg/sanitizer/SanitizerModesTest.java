package dev.openaccel.openreg.sanitizer;

import static dev.openaccel.openreg.testing.KernelLatches.D0;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The sanitizer's other modes: {@code log} reports a race at WARN and runs the work; {@code off},
 * the default, reports nothing.
 */
class SanitizerModesTest {
  private static final String LOGGER = "dev.openaccel.runtime.internal.engine.Sanitizer";

  /**
   * Runs a racy program: a read on one stream, a kernel overwriting the buffer on another (the
   * kernel's result does not depend on which runs first).
   */
  private static void racyProgram(Accelerator acc, byte[] result) {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer buf = acc.allocate(D0, result.length);
    a.copyToHost(buf, ByteBuffer.allocate(result.length));
    b.launch("increment", context -> context.buffer(0).put(0, (byte) 7), buf);
    b.synchronize();
    a.synchronize();
    ByteBuffer out = ByteBuffer.wrap(result);
    b.copyToHost(buf, out);
    b.synchronize();
    buf.close();
  }

  private static List<ILoggingEvent> warningsDuring(String mode, byte[] result) {
    Logger logger = (Logger) LoggerFactory.getLogger(LOGGER);
    ListAppender<ILoggingEvent> seen = new ListAppender<>();
    seen.start();
    logger.addAppender(seen);
    try (Accelerator acc =
        Accelerator.start(
            ConfigFactory.parseString(
                "openaccel.system-name = sanitizer-" + mode + "\nopenaccel.sanitizer = " + mode))) {
      assertDoesNotThrow(() -> racyProgram(acc, result));
    } finally {
      logger.detachAppender(seen);
    }
    return seen.list;
  }

  @Test
  void logModeWarnsOfARaceNamingBothAccessesAndRunsTheWork() {
    byte[] result = new byte[4];
    List<ILoggingEvent> warnings = warningsDuring("log", result);
    assertEquals(1, warnings.size(), warnings.toString());
    ILoggingEvent warning = warnings.get(0);
    assertEquals(Level.WARN, warning.getLevel());
    String message = warning.getFormattedMessage();
    assertTrue(message.startsWith("unsynchronized access to DeviceBuffer("), message);
    assertTrue(message.contains("kernel 'increment' (write) at position 1 of Stream("), message);
    assertTrue(message.contains("not ordered after copyToHost (read) at position 1"), message);
    assertTrue(message.contains("add waitEvent(an event recorded on Stream("), message);
    assertEquals(7, result[0], "the kernel ran");
  }

  @Test
  void offModeReportsNothingForARacyProgram() {
    byte[] result = new byte[4];
    assertTrue(warningsDuring("off", result).isEmpty());
    assertEquals(7, result[0]);
  }
}
