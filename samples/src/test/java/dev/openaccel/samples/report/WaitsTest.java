package dev.openaccel.samples.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How idle gaps of a waiting stream become waits, and which kernel released each. */
class WaitsTest {
  private static final Span GEMM_0 = new Span(0, 66, "gemm 0", 0, 10, false);
  private static final Span GEMM_1 = new Span(0, 66, "gemm 1", 100, 110, false);
  private static final Dependency ON_COPY_IN = new Dependency(1, 1, 0, 65, 0, 66);
  private static final Dependency ON_COPY_OUT = new Dependency(2, 1, 0, 67, 0, 66);

  @Test
  void theLatestEndInsideTheGapOfAStreamWaitedOnReleasedIt() {
    Span early = new Span(0, 65, "copy a", 5, 40, false);
    Span late = new Span(0, 67, "copy out", 20, 90, false);
    List<Wait> waits =
        Waits.infer(List.of(GEMM_0, early, late, GEMM_1), List.of(ON_COPY_IN, ON_COPY_OUT));
    assertEquals(List.of(new Wait(0, 66, 10, 100, late)), waits);
  }

  @Test
  void aGapNoWaitedStreamExplainsIsNoWait() {
    Span before = new Span(0, 65, "copy a", 0, 8, false); // ended before the gap opened
    Span after = new Span(0, 65, "copy b", 101, 120, false); // after the next kernel started
    Span unrelated = new Span(0, 68, "other", 20, 50, false); // a stream never waited on
    assertEquals(
        List.of(),
        Waits.infer(List.of(GEMM_0, before, after, unrelated, GEMM_1), List.of(ON_COPY_IN)));
  }

  @Test
  void aStreamRunningACollectiveIsBusyNotWaiting() {
    Collective allReduce =
        new Collective(0, 66, "grads", "allReduce", 1, 64, false, 20, 60, List.of());
    Span during = new Span(0, 65, "copy a", 5, 40, false); // ends inside the operation
    Span after = new Span(0, 65, "copy b", 50, 80, false); // ends after it, inside the gap
    assertEquals(
        List.of(new Wait(0, 66, 60, 100, after)),
        Waits.infer(
            List.of(GEMM_0, during, after, GEMM_1), List.of(allReduce), List.of(ON_COPY_IN)));
  }

  @Test
  void aStreamWaitingOnItsOwnEventIsNotItsOwnCause() {
    Dependency self = new Dependency(3, 1, 0, 66, 0, 66);
    assertEquals(List.of(), Waits.infer(List.of(GEMM_0, GEMM_1), List.of(self)));
  }

  @Test
  void streamsThatNeverWaitedHaveNoWaits() {
    Span copy = new Span(0, 65, "copy", 20, 30, false);
    assertEquals(List.of(), Waits.infer(List.of(GEMM_0, copy, GEMM_1), List.of()));
  }
}
