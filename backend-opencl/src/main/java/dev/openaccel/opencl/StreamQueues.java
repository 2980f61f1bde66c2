package dev.openaccel.opencl;

import dev.openaccel.runtime.Stream;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The command queue of each stream that has run OpenCL work, created on its first use.
 *
 * <p>Owns: the queues, released by {@link #release()} once no stream runs any more. A queue is used
 * only on its stream's thread; this map is thread-safe.
 */
final class StreamQueues {
  private final ClContext context;
  private final boolean profiling;
  private final ConcurrentHashMap<Stream, ClQueue> queues = new ConcurrentHashMap<>();

  StreamQueues(ClContext context, boolean profiling) {
    this.context = context;
    this.profiling = profiling;
  }

  /** The queue of {@code stream}, on its device. */
  ClQueue of(Stream stream) {
    return queues.computeIfAbsent(stream, s -> new ClQueue(context, s.deviceIndex(), profiling));
  }

  /** Drains and releases every queue. */
  void release() {
    queues.values().forEach(ClQueue::close);
    queues.clear();
  }
}
