package dev.openaccel.runtime.internal.engine;

import com.typesafe.config.Config;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.spi.ConfigValues;
import dev.openaccel.runtime.spi.EngineSpec;
import dev.openaccel.runtime.trace.TraceEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The streams of one device: the default stream (id 0), the two priority pools (ids 1..2P, created
 * on first use) and exclusive streams (ids from 2P+1). Internal.
 *
 * <p>Caller-side by design: stream ids, pools and the registry are handed out on the caller's
 * thread, lock-free, so creating a stream costs a few atomic operations and never waits for the
 * {@link DeviceActor}; the device actor gives a stream its actor when the stream gets its first
 * work (the stream's queue holds that work meanwhile).
 *
 * <p>Owns: stream ids and the registry of the device's streams (both thread-safe).
 */
final class StreamRegistry {
  private static final int HIGH_PRIORITY_FACTOR = 4;

  private final ActorEngine engine;
  private final EngineDevices owner;
  private final Device device;
  private final ActorRef<DeviceActor.Command> actor;
  private final EngineSpec spec;
  private final Map<Long, StreamQueue> streams = new ConcurrentHashMap<>();
  private final AtomicLong nextId;
  private final AtomicReferenceArray<StreamQueue> lowPool;
  private final AtomicReferenceArray<StreamQueue> highPool;
  private final AtomicInteger lowNext = new AtomicInteger();
  private final AtomicInteger highNext = new AtomicInteger();
  private final StreamQueue defaultStream;
  private final int queueLimit; // openaccel.stream-queue-limit: 0 is none
  private final Duration queueWait; // openaccel.stream-queue-wait

  StreamRegistry(
      ActorEngine engine, EngineDevices owner, Device device, ActorRef<DeviceActor.Command> actor) {
    this.engine = engine;
    this.owner = owner;
    this.device = device;
    this.actor = actor;
    this.spec = engine.spec();
    Config config = engine.system().settings().config();
    this.queueLimit = ConfigValues.intAtLeast(config, "openaccel.stream-queue-limit", 0);
    this.queueWait =
        ConfigValues.durationAtLeast(config, "openaccel.stream-queue-wait", Duration.ZERO);
    int pool = spec.streamPoolSize();
    this.lowPool = new AtomicReferenceArray<>(pool);
    this.highPool = new AtomicReferenceArray<>(pool);
    this.nextId = new AtomicLong(2L * pool + 1);
    this.defaultStream = create(0, spec.priorityRange().least(), false);
  }

  Device device() {
    return device;
  }

  ActorRef<DeviceActor.Command> actor() {
    return actor;
  }

  StreamQueue defaultStream() {
    return defaultStream;
  }

  /**
   * A new exclusive stream, which its user may close.
   *
   * @throws IllegalStateException if the device stopped (its accelerator was closed)
   */
  StreamQueue newStream(int priority) {
    String stopped = owner.stoppedReason();
    if (stopped != null) {
      throw new IllegalStateException(stopped + "; " + device + " accepts no more streams");
    }
    return create(nextId.getAndIncrement(), spec.priorityRange().clamp(priority), true);
  }

  /** Forgets {@code stream}, which was closed: its id is never handed out again. */
  void remove(StreamQueue stream) {
    streams.remove(stream.stream().id(), stream);
  }

  /** The next pooled stream of the given priority class, round-robin. */
  StreamQueue fromPool(boolean highPriority) {
    AtomicReferenceArray<StreamQueue> pool = highPriority ? highPool : lowPool;
    AtomicInteger next = highPriority ? highNext : lowNext;
    int slot = Math.floorMod(next.getAndIncrement(), pool.length());
    StreamQueue existing = pool.get(slot);
    if (existing != null) {
      return existing;
    }
    synchronized (pool) {
      existing = pool.get(slot);
      if (existing == null) {
        long id = 1L + slot + (highPriority ? pool.length() : 0);
        int priority =
            highPriority ? spec.priorityRange().greatest() : spec.priorityRange().least();
        existing = create(id, priority, false);
        pool.set(slot, existing);
      }
      return existing;
    }
  }

  /** The stream with this id, or null. */
  StreamQueue lookup(long id) {
    return streams.get(id);
  }

  /** A snapshot of the device's streams. */
  List<StreamQueue> all() {
    return new ArrayList<>(streams.values());
  }

  private StreamQueue create(long id, int priority, boolean exclusive) {
    StreamQueue handle =
        new StreamQueue(
            engine,
            actor,
            device,
            id,
            priority,
            batchFor(priority),
            exclusive,
            new QueueBound(queueLimit, queueWait));
    streams.put(id, handle);
    String stopped = owner.stoppedReason();
    if (stopped != null) {
      handle.end().stopUnowned(stopped); // created after shutdown: it must reject work, not wait
    }
    if (engine.tracer().enabled()) {
      engine
          .tracer()
          .publish(new TraceEvent.StreamCreated(device, id, priority, System.nanoTime()));
    }
    return handle;
  }

  /** Streams of the greatest priority run more items per turn, so they win under contention. */
  private int batchFor(int priority) {
    PriorityRange range = spec.priorityRange();
    boolean high = range.least() != range.greatest() && priority == range.greatest();
    return high ? spec.batch() * HIGH_PRIORITY_FACTOR : spec.batch();
  }
}
