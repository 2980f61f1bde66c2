package dev.openaccel.cluster;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The event records that waits of other nodes have fixed on this node, the owner of the events: a
 * pin captures the record that is current when this node handles the pin request, so re-recording
 * the event afterwards never changes what the wait waits for. The pin and the wait's request for it
 * come from different nodes and may arrive in either order. Internal.
 *
 * <p>Owns: the pin table. An entry lives from the first of (pin, await) to the second; entries of a
 * node that leaves (as pinner or awaiter) fail and go. Thread-safe: an entry changes only inside
 * the map's atomic {@code compute} for its key.
 */
final class Pins {
  record Key(String pinner, long pinId) {}

  private static final class Entry {
    final CompletableFuture<Void> done = new CompletableFuture<>();
    String awaiter;
    boolean pinned;
    boolean awaited;
  }

  private final Map<Key, Entry> entries = new ConcurrentHashMap<>();

  /** Fixes {@code record} (the completion of the record current now) as pin {@code key}. */
  void pin(Key key, String awaiter, CompletionStage<?> record) {
    CompletableFuture<Void> done =
        update(
            key,
            entry -> {
              entry.pinned = true;
              entry.awaiter = awaiter;
            });
    Failures.relay(record.thenApply(ok -> null), done);
  }

  /** The pin could not be made (the event is unknown): its wait fails with {@code failure}. */
  void refuse(Key key, String awaiter, Throwable failure) {
    update(
            key,
            entry -> {
              entry.pinned = true;
              entry.awaiter = awaiter;
            })
        .completeExceptionally(failure);
  }

  /** Completes when the pinned record completes. */
  CompletionStage<Void> await(Key key) {
    return update(key, entry -> entry.awaited = true).thenApply(ok -> ok);
  }

  /** Fails and forgets the pins that {@code node} made or was to await. */
  void release(String node) {
    entries.forEach(
        (key, entry) -> {
          if (key.pinner().equals(node) || node.equals(entry.awaiter)) {
            entries.remove(key);
            entry.done.completeExceptionally(
                Failures.nodeLeft(node, "its pinned wait on this node is released"));
          }
        });
  }

  /** The number of live entries. */
  int size() {
    return entries.size();
  }

  private CompletableFuture<Void> update(Key key, java.util.function.Consumer<Entry> change) {
    AtomicReference<CompletableFuture<Void>> done = new AtomicReference<>();
    entries.compute(
        key,
        (k, entry) -> {
          Entry now = entry == null ? new Entry() : entry;
          change.accept(now);
          done.set(now.done);
          return now.pinned && now.awaited ? null : now;
        });
    return done.get();
  }
}
