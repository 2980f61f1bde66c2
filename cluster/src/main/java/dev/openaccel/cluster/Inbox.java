package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceExecutionException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where chunks of bulk data meet the code that waits for them: a chunk can arrive before or after
 * it is expected. Internal.
 *
 * <p>Loss detection: a chunk that was announced (its sender said it is on its way) and has not
 * arrived fails its transfer once nothing at all has arrived from its node for the bulk timeout,
 * with a {@link DeviceExecutionException} naming the node, the transfer and the offset. Chunks that
 * arrive and are never expected (their request failed, or the sender is not a member) are dropped
 * after the same time, their arrays given back to the {@link ChunkPool}.
 *
 * <p>Owns: the slots and the last arrival time per node. Thread-safe: a slot changes only inside
 * the map's atomic {@code compute} for its key.
 */
final class Inbox {
  private static final Logger log = LoggerFactory.getLogger(Inbox.class);

  record Key(String node, long transferId, long offset) {}

  private static final class Slot {
    final CompletableFuture<byte[]> bytes = new CompletableFuture<>();
    final long created = System.nanoTime();
    boolean expected;
    long announced; // 0: not yet
  }

  private final Map<Key, Slot> slots = new ConcurrentHashMap<>();
  private final Map<String, Long> lastArrival = new ConcurrentHashMap<>();
  private final Duration timeout;
  private final ChunkPool pool;

  Inbox(Duration timeout, ChunkPool pool) {
    this.timeout = timeout;
    this.pool = pool;
  }

  /**
   * Gives a chunk's array back to the pool: for whoever {@link #expect} handed it to once it has
   * been written where it belongs (never for bytes handed on to a caller).
   */
  void recycle(byte[] bytes) {
    pool.give(bytes);
  }

  /**
   * The chunk's bytes, when they arrive.
   *
   * @param announced whether the sender has already said the chunk is on its way
   */
  CompletableFuture<byte[]> expect(Key key, boolean announced) {
    AtomicReference<CompletableFuture<byte[]>> found = new AtomicReference<>();
    slots.compute(
        key,
        (k, slot) -> {
          Slot now = slot == null ? new Slot() : slot;
          now.expected = true;
          if (announced && now.announced == 0) {
            now.announced = System.nanoTime();
          }
          found.set(now.bytes);
          return now.bytes.isDone() ? null : now;
        });
    // A copy: dependents of the slot's own future must not run inside the map's compute.
    return found.get().thenApply(bytes -> bytes);
  }

  /** The sender said the chunk is on its way: from now on, its absence counts as loss. */
  void announce(Key key) {
    slots.computeIfPresent(
        key,
        (k, slot) -> {
          if (slot.announced == 0) {
            slot.announced = System.nanoTime();
          }
          return slot;
        });
  }

  void arrived(Key key, byte[] bytes) {
    lastArrival.put(key.node(), System.nanoTime());
    slots.compute(
        key,
        (k, slot) -> {
          Slot now = slot == null ? new Slot() : slot;
          if (!now.bytes.complete(bytes)) {
            pool.give(bytes); // the transfer already failed
          }
          return now.expected ? null : now;
        });
  }

  /** The chunk will not come: its request failed on the sender. */
  void fail(Key key, Throwable failure) {
    slots.compute(
        key,
        (k, slot) -> {
          Slot now = slot == null ? new Slot() : slot;
          now.bytes.completeExceptionally(failure);
          return now.expected ? null : now;
        });
  }

  /** Fails every chunk still expected from {@code node}, which has left. */
  void nodeLeft(String node, String why) {
    slots.keySet().stream()
        .filter(key -> key.node().equals(node))
        .forEach(key -> fail(key, Failures.nodeLeft(node, why)));
    slots.keySet().removeIf(key -> key.node().equals(node));
    lastArrival.remove(node);
  }

  /** Fails the announced chunks that were lost and drops chunks nobody expected. */
  void expire() {
    long now = System.nanoTime();
    long limit = timeout.toNanos();
    for (Key key : slots.keySet()) {
      slots.computeIfPresent(
          key,
          (k, slot) -> {
            if (!slot.expected && slot.bytes.isDone() && now - slot.created > limit) {
              log.warn("dropping a chunk nobody asked for: {}", k);
              slot.bytes.thenAccept(pool::give);
              return null;
            }
            long quiet = now - Math.max(slot.announced, lastArrival.getOrDefault(k.node(), 0L));
            if (slot.expected && slot.announced != 0 && quiet > limit) {
              slot.bytes.completeExceptionally(lost(k));
              return null;
            }
            return slot;
          });
    }
  }

  private DeviceExecutionException lost(Key key) {
    String message =
        "bulk data lost: the chunk at offset "
            + key.offset()
            + " of transfer "
            + key.transferId()
            + " from node "
            + key.node()
            + " did not arrive within "
            + timeout
            + " while nothing else came from that node";
    log.error(message);
    return new DeviceExecutionException(message);
  }
}
