package dev.openaccel.testkit;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Runs a stream one kernel or copy at a time: from {@link #on}, each one the stream reaches waits
 * until the test calls {@link #step}. Records, waits and synchronizes are not steps: an event
 * recorded after a kernel completes as soon as that kernel has run.
 *
 * <pre>{@code
 * try (StreamStepper stepper = StreamStepper.on(accelerator, stream)) {
 *   stream.launch("a", a);
 *   done.record(stream);
 *   stream.launch("b", b);
 *   assertEquals("a", stepper.awaitHeld(Duration.ofSeconds(5)));
 *   stepper.step();                                   // "a" runs, then done completes
 *   assertEquals("b", stepper.awaitHeld(Duration.ofSeconds(5)));
 *   assertTrue(done.query());
 * } // closed: "b" and all later work run freely
 * }</pre>
 *
 * <p>A stepper not closed leaves its stream with unfinished work, which {@link OpenAccelTest}'s
 * check reports (and then lets go). This class is thread-safe.
 */
public final class StreamStepper implements AutoCloseable {
  private final StreamRules rules;

  private StreamStepper(StreamRules rules) {
    this.rules = rules;
  }

  /**
   * Steps {@code stream} of {@code accelerator} from now.
   *
   * @throws IllegalStateException if the stream is already stepped
   */
  public static StreamStepper on(Accelerator accelerator, Stream stream) {
    StreamRules rules =
        TestControl.of(Objects.requireNonNull(accelerator, "accelerator"))
            .rules(Objects.requireNonNull(stream, "stream"));
    rules.stepping();
    return new StreamStepper(rules);
  }

  /** The stepped stream. */
  public Stream stream() {
    return rules.stream();
  }

  /**
   * Lets one kernel or copy run: the one held now, or else the next to arrive.
   *
   * @throws IllegalStateException once closed
   */
  public void step() {
    rules.step();
  }

  /**
   * Waits, at most {@code within}, until a kernel or copy is held for a step: the one stepped
   * before it has then run (and the records behind it completed).
   *
   * @return the held item's name
   * @throws AssertionError if none was held in time, naming the stream
   */
  public String awaitHeld(Duration within) {
    return rules.awaitHeld(Objects.requireNonNull(within, "within"));
  }

  /** The names of the kernels and copies let through so far, in order. */
  public List<String> stepped() {
    return rules.stepped();
  }

  /** Stops stepping: the held item and all later ones run freely. Idempotent. */
  @Override
  public void close() {
    rules.stopStepping();
  }

  @Override
  public String toString() {
    return "StreamStepper(" + rules.stream() + ", stepped " + stepped() + ")";
  }
}
