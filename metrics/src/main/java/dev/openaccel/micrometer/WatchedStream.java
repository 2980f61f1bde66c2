package dev.openaccel.micrometer;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Stream;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A stream whose queue depth a gauge reports, held weakly: the gauge never keeps a stream alive. A
 * closed stream leaves its device's registry once its work has settled, and after that only its
 * users hold it; once they drop it and it is collected, the gauge reads {@code NaN} and reports
 * that, once, to whoever removes it. Internal.
 *
 * <p>Owns: {@code reported}, set by the first reading after the collection (any thread that reads
 * the gauge); {@code gauge} is written and read under the monitor of the binder that registers it.
 */
final class WatchedStream {
  /** A stream's identity on its accelerator: what {@code Stream.equals} compares. */
  record Key(Device device, long id) {
    static Key of(Stream stream) {
      return new Key(stream.device(), stream.id());
    }
  }

  private final Key key;
  private final WeakReference<Stream> stream;
  private final AtomicBoolean reported = new AtomicBoolean();
  private Gauge gauge;

  WatchedStream(Stream stream) {
    this.key = Key.of(stream);
    this.stream = new WeakReference<>(stream);
  }

  Key key() {
    return key;
  }

  /** The gauge, or null while it has none. Under the binder's monitor. */
  Gauge gauge() {
    return gauge;
  }

  /**
   * Registers this stream's gauge, tagged with {@code tags} and the stream's id; {@code collected}
   * hears once that the stream was collected. Under the binder's monitor.
   */
  void register(MeterRegistry registry, Tags tags, Consumer<WatchedStream> collected) {
    gauge =
        Gauge.builder(MeterNames.STREAM_PENDING, this, w -> w.pendingWork(collected))
            .description("Work enqueued on the stream and not completed")
            .baseUnit("items")
            .tags(tags.and(MeterNames.STREAM, Long.toString(key.id())))
            .strongReference(true) // this object: the stream itself is held weakly, above
            .register(registry);
  }

  private double pendingWork(Consumer<WatchedStream> collected) {
    Stream watched = stream.get();
    if (watched == null) {
      if (reported.compareAndSet(false, true)) {
        collected.accept(this);
      }
      return Double.NaN;
    }
    return watched.pendingWork();
  }
}
