package dev.openaccel.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A stepped stream runs one kernel or copy per step, and freely once the stepper closes. */
@OpenAccelTest
class StreamStepperTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @Test
  void eachStepRunsExactlyOneKernelAndTheRecordsBehindIt(Accelerator accelerator) {
    List<String> ran = Collections.synchronizedList(new ArrayList<>());
    try (Stream stream = accelerator.newStream();
        Event afterA = accelerator.newEvent();
        StreamStepper stepper = StreamStepper.on(accelerator, stream)) {
      stream.launch("a", () -> ran.add("a"));
      afterA.record(stream);
      stream.launch("b", () -> ran.add("b"));
      stream.launch("c", () -> ran.add("c"));

      assertEquals("a", stepper.awaitHeld(WAIT));
      assertEquals(List.of(), ran);
      assertFalse(afterA.query());
      assertEquals(4, stream.pendingWork());

      stepper.step();
      assertEquals("b", stepper.awaitHeld(WAIT));
      assertEquals(List.of("a"), ran);
      assertTrue(afterA.query(), "the record behind 'a' completed with it");
      assertEquals(2, stream.pendingWork());

      stepper.step();
      assertEquals("c", stepper.awaitHeld(WAIT));
      assertEquals(List.of("a", "b"), ran);
      assertEquals(List.of("a", "b"), stepper.stepped());

      stepper.step();
      stream.synchronize();
      assertEquals(List.of("a", "b", "c"), ran);
    }
  }

  @Test
  void aStepGivenBeforeItsItemArrivesLetsItThrough(Accelerator accelerator) {
    try (Stream stream = accelerator.newStream();
        StreamStepper stepper = StreamStepper.on(accelerator, stream)) {
      stepper.step();
      stream.launch("early", () -> {});
      stream.launch("held", () -> {});
      assertEquals("held", stepper.awaitHeld(WAIT));
      assertEquals(List.of("early"), stepper.stepped());
    }
  }

  @Test
  void closingTheStepperLetsTheHeldAndLaterWorkRun(Accelerator accelerator) {
    List<String> ran = Collections.synchronizedList(new ArrayList<>());
    try (Stream stream = accelerator.newStream()) {
      StreamStepper stepper = StreamStepper.on(accelerator, stream);
      stream.launch("x", () -> ran.add("x"));
      stepper.awaitHeld(WAIT);
      stepper.close();
      stream.launch("y", () -> ran.add("y"));
      stream.synchronize();
      assertEquals(List.of("x", "y"), ran);
      assertThrows(IllegalStateException.class, stepper::step);
    }
  }

  @Test
  void waitingForAHeldItemIsBoundedAndNamesTheStream(Accelerator accelerator) {
    try (Stream stream = accelerator.newStream();
        StreamStepper stepper = StreamStepper.on(accelerator, stream)) {
      AssertionError none =
          assertThrows(AssertionError.class, () -> stepper.awaitHeld(Duration.ofMillis(50)));
      assertEquals(
          "no kernel or copy of " + stream + " arrived at its step within PT0.05S",
          none.getMessage());
      assertThrows(IllegalStateException.class, () -> StreamStepper.on(accelerator, stream));
    }
  }

  @Test
  void closingTheAcceleratorWhileAKernelIsHeldEndsItWithoutRunningIt() throws Exception {
    AtomicBoolean ran = new AtomicBoolean();
    CompletableFuture<Integer> result;
    Accelerator own =
        Accelerator.start(
            ConfigFactory.parseString("openaccel.system-name = stepper-closed")
                .withFallback(ConfigFactory.load()));
    try {
      Stream stream = own.newStream();
      StreamStepper stepper = StreamStepper.on(own, stream);
      result =
          stream
              .submit(
                  "held",
                  () -> {
                    ran.set(true);
                    return 1;
                  })
              .toCompletableFuture();
      assertEquals("held", stepper.awaitHeld(WAIT)); // taken by the stream's owner, not run
    } finally {
      own.close();
    }
    ExecutionException failure =
        assertThrows(ExecutionException.class, () -> result.get(10, TimeUnit.SECONDS));
    assertTrue(failure.getCause() instanceof DeviceExecutionException, () -> "" + failure);
    assertFalse(ran.get());
  }
}
