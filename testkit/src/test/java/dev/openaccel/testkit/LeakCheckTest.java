package dev.openaccel.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The check after each test: runs the small example classes below with JUnit's engine test kit and
 * asserts which of them fail and what their failures name. The examples are nested classes, which
 * surefire does not run by itself.
 */
class LeakCheckTest {

  @Test
  void aTestThatClosesWhatItOpensPasses() {
    Events tests = run(Clean.class);
    assertEquals(1, tests.succeeded().count(), () -> failures(tests).toString());
  }

  @Test
  void anUnclosedBufferFailsTheTestNamingIt() {
    String failure = onlyFailure(UnclosedBuffer.class);
    assertTrue(
        failure.matches("(?s).*buffer \\d+ \\(\\d+ bytes\\) on openreg:0 was not closed.*"),
        failure);
  }

  @Test
  void anUnclosedEventFailsTheTestNamingIt() {
    String failure = onlyFailure(UnclosedEvent.class);
    assertTrue(failure.matches("(?s).*event \\d+ on openreg:0 was not closed.*"), failure);
  }

  @Test
  void aStreamWithHeldWorkFailsTheTestNamingItAndItsDevice() {
    String failure = onlyFailure(HeldStream.class);
    assertTrue(
        failure.matches(
            "(?s).*Stream\\(device_type=openreg, device_index=0, stream_id=\\d+, priority=0\\)"
                + " has unfinished work \\(1 item\\(s\\) when the test ended\\).*"),
        failure);
    assertTrue(failure.contains("openreg:0 did not finish its work within PT0.2S"), failure);
  }

  @Test
  void aHoldNeverReleasedFailsTheTestNamingItsStream() {
    String failure = onlyFailure(UnreleasedHold.class);
    assertTrue(
        failure.matches(
            "(?s).*Stream\\(device_type=openreg, device_index=0, stream_id=\\d+, priority=0\\)"
                + " has unfinished work \\(2 item\\(s\\) when the test ended\\).*"),
        failure);
  }

  @Test
  void aThreadLeftRunningFailsTheTestNamingIt() {
    String failure = onlyFailure(LeftThread.class);
    assertTrue(failure.contains("thread 'left-behind' (WAITING) is still running"), failure);
  }

  @Test
  void junitsTimeoutWatcherStartedByATimedTestIsNotTheTestsThread() {
    Events tests = run(Timed.class);
    assertEquals(1, tests.succeeded().count(), () -> failures(tests).toString());
  }

  private static Events run(Class<?> example) {
    return EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(example))
        .execute()
        .testEvents();
  }

  private static List<String> failures(Events tests) {
    return tests.failed().stream()
        .map(e -> e.getRequiredPayload(TestExecutionResult.class))
        .map(r -> String.valueOf(r.getThrowable().orElseThrow()))
        .toList();
  }

  private static String onlyFailure(Class<?> example) {
    Events tests = run(example);
    List<String> failures = failures(tests);
    assertEquals(1, failures.size(), () -> example + " should fail once: " + failures);
    assertTrue(failures.get(0).contains("the test left behind:"), failures.get(0));
    return failures.get(0);
  }

  @OpenAccelTest
  static class Clean {
    @Test
    void closesEverything(Accelerator accelerator) throws Exception {
      Stream stream = accelerator.newStream();
      try (DeviceBuffer buffer = accelerator.allocate(stream.device(), 1024)) {
        stream.launch("touch", () -> {});
        try (Event event = stream.recordEvent()) {
          event.synchronize();
        }
      }
      Thread worker = new Thread(() -> {}, "joined");
      worker.start();
      worker.join();
      stream.synchronize();
    }
  }

  @OpenAccelTest
  static class UnclosedBuffer {
    @Test
    void leavesABuffer(Accelerator accelerator) {
      accelerator.allocate(accelerator.currentDevice(), 4096);
    }
  }

  @OpenAccelTest
  static class UnclosedEvent {
    @Test
    void leavesAnEvent(Accelerator accelerator) {
      accelerator.newStream().recordEvent().synchronize();
    }
  }

  @OpenAccelTest(settleMillis = 200)
  static class HeldStream {
    static final CountDownLatch GATE = new CountDownLatch(1);

    @Test
    void leavesWorkWaiting(Accelerator accelerator) {
      accelerator
          .newStream()
          .launch(
              "held",
              () -> {
                try {
                  GATE.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
    }

    // JUnit runs @AfterAll methods before the extension's afterAll, which closes the accelerator.
    @AfterAll
    static void release() {
      GATE.countDown();
    }
  }

  @OpenAccelTest(settleMillis = 200)
  static class UnreleasedHold {
    static final List<StreamHold> HOLDS = new CopyOnWriteArrayList<>();

    @Test
    void leavesAHold(Accelerator accelerator) {
      Stream stream = accelerator.newStream();
      HOLDS.add(StreamHold.on(stream));
      stream.launch("held", () -> {});
    }

    @AfterAll
    static void release() {
      HOLDS.forEach(StreamHold::release);
    }
  }

  /** Each engine run starts JUnit's timeout watcher anew, at its first timed test: this one. */
  @OpenAccelTest(settleMillis = 200)
  @Timeout(60)
  static class Timed {
    @Test
    void runsUnderATimeout() {}
  }

  @OpenAccelTest(settleMillis = 200)
  static class LeftThread {
    static final CountDownLatch GATE = new CountDownLatch(1);

    @Test
    void leavesAThread() {
      Thread thread =
          new Thread(
              () -> {
                try {
                  GATE.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "left-behind");
      thread.start();
    }

    @AfterAll
    static void release() {
      GATE.countDown();
    }
  }
}
