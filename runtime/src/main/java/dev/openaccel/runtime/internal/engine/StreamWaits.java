package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * A stream's waits on what is not an event: another stream ({@code waitStream}, of this engine, of
 * another backend's engine or of no engine) and a signal outside the engine. Each becomes an
 * unnamed {@link Generation} that the waiting stream enqueues a {@link WorkItem.Wait} on. Internal.
 *
 * <p>Owns nothing: stateless.
 */
final class StreamWaits {
  private StreamWaits() {}

  /** Work enqueued on {@code self} after this call waits for work enqueued on {@code other}. */
  static void onStream(StreamOps self, Stream other) {
    Stream stream = self.stream();
    ActorEngine engine = self.engine();
    StreamQueue source;
    if (other.deviceType().equals(stream.deviceType())) {
      source = engine.handleOf(other);
      if (source == self) {
        return; // a stream is always ordered after its own earlier work
      }
      if (!other.device().equals(stream.device())) {
        engine.require(Capability.CROSS_DEVICE_WAIT, "waiting on a stream of another device");
      }
    } else if (other.ops() instanceof StreamQueue ofAnotherBackend) {
      source = ofAnotherBackend;
    } else {
      onRecordOf(self, other); // not a stream of this engine: a remote node's
      return;
    }
    Capture capture = self.capture() != null ? self.capture() : source.capture();
    if (capture != null) { // a wait in the graph; self joins the capture if it was not in it
      capture.waitStream((StreamQueue) self, source);
      return;
    }
    if (engine.sanitizer() != null && source.engine() == engine) {
      engine.sanitizer().waited(other, stream);
    }
    // Everything enqueued on other before this call has completed without failure: nothing to wait
    // for, unless this stream takes no work, which then refuses the wait below as any enqueue.
    if (source.completesAtOnce() && self.acceptsWork()) {
      return;
    }
    // An unnamed record there, which carries other's failure without reporting it (a sync would use
    // the failure up, and other's own next sync would then pass), and makes no event. A stopped
    // stream of another backend fails it, and so this stream's next sync; one of this backend
    // throws here.
    Generation end = Generation.unnamed(waitStreamOn(other));
    if (source.engine() == engine) {
      source.enqueue(end);
    } else {
      source.enqueueOrSettle(end);
    }
    self.enqueue(new WorkItem.Wait(end));
  }

  /**
   * Work enqueued on {@code self} after this call waits for an event recorded on {@code other}, a
   * stream of no engine (its failure travels as the record's; a stream that cannot record is
   * synchronized).
   */
  private static void onRecordOf(StreamOps self, Stream other) {
    String what = waitStreamOn(other);
    Event end;
    try {
      end = other.recordEvent();
    } catch (UnsupportedOperationException | IllegalStateException cannotRecord) {
      // A backend without events, or a stream that stopped: its sync, which then fails this
      // stream's next sync instead of throwing here.
      onSignal(self, other.synchronizeAsync(), what);
      return;
    }
    CompletionStage<Void> done = end.completion();
    done.whenComplete((ok, failed) -> end.close());
    onSignal(self, done, what);
  }

  private static String waitStreamOn(Stream other) {
    return "the work enqueued on " + other + " before waitStream";
  }

  /** Work enqueued on {@code self} after this call waits until {@code signal} completes. */
  static void onSignal(StreamOps self, CompletionStage<?> signal, String what) {
    Objects.requireNonNull(signal, "signal");
    Generation external = Generation.unnamed(what);
    self.enqueue(new WorkItem.Wait(external));
    signal.whenComplete(
        (ok, error) ->
            external.complete(
                System.nanoTime(), error == null ? null : Failures.asExecutionFailure(error)));
  }
}
