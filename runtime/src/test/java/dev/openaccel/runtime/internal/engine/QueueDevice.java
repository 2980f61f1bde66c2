package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Completion;
import dev.openaccel.runtime.spi.DeviceExecutor;
import dev.openaccel.runtime.spi.DeviceQueue;
import dev.openaccel.runtime.spi.DeviceWork;
import dev.openaccel.runtime.spi.Marker;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test device with real asynchronous queues, written only against the SPI: each stream's queue is
 * a thread of its own that runs submitted work in order and reports ends through {@link Completion}
 * from that thread, as a device callback would. Device-side waits block that queue's thread until
 * the marker is reached, so they need no host round trip through the engine.
 */
final class QueueDevice implements DeviceExecutor {

  /**
   * Work for this device: what runs as it is submitted, on the stream's thread (as a backend stages
   * a heap source when it enqueues a copy), a body that runs on the queue's thread (it may throw),
   * what runs if the engine discards it instead, and the buffers it declares to the sanitizer.
   */
  record Work(
      Runnable atSubmit,
      Runnable body,
      Runnable onDiscard,
      List<DeviceBuffer> reads,
      List<DeviceBuffer> writes)
      implements DeviceWork {
    Work(Runnable atSubmit, Runnable body, Runnable onDiscard) {
      this(atSubmit, body, onDiscard, List.of(), List.of());
    }

    Work(Runnable body) {
      this(() -> {}, body, () -> {});
    }

    Work(Runnable body, Runnable onDiscard) {
      this(() -> {}, body, onDiscard);
    }

    @Override
    public void discard() {
      onDiscard.run();
    }

    /**
     * Each piece of work is itself: two built from the same non-capturing lambdas (one instance
     * each) would otherwise be equal, and a set of submitted work would take one for the other.
     */
    @Override
    public boolean equals(Object other) {
      return this == other;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(this);
    }
  }

  /** How many device-side waits the queues accepted. */
  final AtomicInteger deviceWaits = new AtomicInteger();

  /** While set, the queues throw from {@code mark} and {@code waitFor}, as a faulty backend may. */
  final AtomicBoolean refuseMarks = new AtomicBoolean();

  /** While set, the queues throw from {@code flush}, as a faulty backend may. */
  final AtomicBoolean refuseFlushes = new AtomicBoolean();

  /** How many markers the queues were given. */
  final AtomicInteger marks = new AtomicInteger();

  private final Map<Stream, AtomicInteger> flushes = new ConcurrentHashMap<>();

  /** Every piece of work the queues were given. */
  final Set<DeviceWork> submitted = ConcurrentHashMap.newKeySet();

  /** How many times the engine said {@code stream} had submitted all it had ({@code flush}). */
  int flushes(Stream stream) {
    AtomicInteger count = flushes.get(stream);
    return count == null ? 0 : count.get();
  }

  @Override
  public DeviceQueue open(Stream stream) {
    return new Queue(stream);
  }

  private final class Queue implements DeviceQueue {
    private final ExecutorService thread;
    private final Stream stream;

    Queue(Stream stream) {
      this.stream = stream;
      this.thread =
          Executors.newSingleThreadExecutor(
              body -> {
                Thread t = new Thread(body, "queue-device-" + stream.id());
                t.setDaemon(true);
                return t;
              });
    }

    @Override
    public void submit(DeviceWork work, Completion done) {
      Work w = (Work) work;
      w.atSubmit().run();
      submitted.add(work);
      thread.execute(
          () -> {
            try {
              w.body().run();
              done.complete(System.nanoTime());
            } catch (RuntimeException e) {
              done.fail(e);
            }
          });
    }

    @Override
    public Marker mark(Completion done) {
      if (refuseMarks.get()) {
        throw new IllegalStateException("the queue refuses markers");
      }
      marks.incrementAndGet();
      QueueMarker marker = new QueueMarker();
      thread.execute(
          () -> {
            long now = System.nanoTime();
            marker.reached.complete(now);
            done.complete(now);
          });
      return marker;
    }

    @Override
    public boolean waitFor(Marker marker, Completion done) {
      if (refuseMarks.get()) {
        throw new IllegalStateException("the queue refuses device waits");
      }
      if (!(marker instanceof QueueMarker m) || m.released.get()) {
        return false;
      }
      deviceWaits.incrementAndGet();
      thread.execute(
          () -> {
            try {
              m.reached.get(30, TimeUnit.SECONDS); // the device itself waits, bounded
              done.complete(System.nanoTime());
            } catch (Exception e) {
              done.fail(e);
            }
          });
      return true;
    }

    @Override
    public void flush() {
      if (refuseFlushes.get()) {
        throw new IllegalStateException("the queue cannot flush");
      }
      flushes.computeIfAbsent(stream, s -> new AtomicInteger()).incrementAndGet();
    }

    @Override
    public void close() {
      thread.shutdown();
    }
  }

  private static final class QueueMarker implements Marker {
    final CompletableFuture<Long> reached = new CompletableFuture<>();
    final AtomicBoolean released = new AtomicBoolean();

    @Override
    public void release() {
      released.set(true);
    }
  }
}
