package dev.openaccel.openreg.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Stream;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A failing kernel is reported once, to its caller at the sync point: it logs nothing at INFO or
 * above, only its stack at DEBUG; normal work logs nothing at INFO or above either.
 */
class KernelFailureLoggingTest {
  private final Logger openaccel = (Logger) LoggerFactory.getLogger("dev.openaccel");
  private final Logger kernels =
      (Logger) LoggerFactory.getLogger("dev.openaccel.runtime.internal.engine.Kernels");
  private final ListAppender<ILoggingEvent> seen = new ListAppender<>();
  private Level openaccelLevel;
  private Level kernelsLevel;

  @BeforeEach
  void listen() {
    openaccelLevel = openaccel.getLevel();
    kernelsLevel = kernels.getLevel();
    openaccel.setLevel(Level.DEBUG);
    kernels.setLevel(Level.DEBUG);
    seen.start();
    openaccel.addAppender(seen);
  }

  @AfterEach
  void restore() {
    openaccel.detachAppender(seen);
    openaccel.setLevel(openaccelLevel);
    kernels.setLevel(kernelsLevel);
  }

  private List<ILoggingEvent> atLeast(Level level) {
    return seen.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(level)).toList();
  }

  @Test
  void aFailingKernelIsThrownAtTheSyncAndLogsOnlyItsStackAtDebug() throws Exception {
    try (Accelerator accelerator =
        Accelerator.start(ConfigFactory.parseString("openaccel.system-name = kernel-logging"))) {
      Stream stream = accelerator.newStream();
      stream.launch(
          "breaks",
          () -> {
            throw new IllegalStateException("broken on purpose");
          });
      ExecutionException failed =
          org.junit.jupiter.api.Assertions.assertThrows(
              ExecutionException.class,
              () -> stream.synchronizeAsync().toCompletableFuture().get(10, TimeUnit.SECONDS));
      assertInstanceOf(DeviceExecutionException.class, failed.getCause());
      assertTrue(failed.getCause().getMessage().contains("kernel 'breaks' failed"));
    }
    assertEquals(List.of(), atLeast(Level.INFO));
    ILoggingEvent debug =
        seen.list.stream()
            .filter(e -> e.getLevel() == Level.DEBUG && e.getThrowableProxy() != null)
            .findFirst()
            .orElseThrow(() -> new AssertionError("the stack is logged at DEBUG: " + seen.list));
    String message = debug.getFormattedMessage();
    assertTrue(message.contains("'breaks'") && message.contains("stream_id="), message);
  }

  @Test
  void normalWorkLogsNothingAtInfoOrAbove() throws Exception {
    try (Accelerator accelerator =
        Accelerator.start(ConfigFactory.parseString("openaccel.system-name = quiet-work"))) {
      Stream producer = accelerator.newStream();
      Stream consumer = accelerator.newStream();
      for (int i = 0; i < 100; i++) {
        producer.launch("produce", () -> {});
        consumer.waitEvent(producer.recordEvent());
        consumer.launch("consume", () -> {});
      }
      consumer.synchronizeAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
    assertEquals(List.of(), atLeast(Level.INFO));
  }
}
