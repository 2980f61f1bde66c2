package dev.openaccel.cluster;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.Stream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Waits on events of any node that capture the record current at the event's owner when the call
 * returns, as {@code Event.block} promises: the caller first has the owner pin that record ({@link
 * Pins}), and the waiting stream then waits for the pin, not for whatever record is latest when its
 * request arrives. Internal.
 *
 * <p>Ordering: the pin request goes to the owner and the wait to the stream's node, each in call
 * order on its link, before the call returns; the stage completes once the owner has pinned.
 *
 * <p>Owns: the pin id counter of this node. Thread-safe.
 */
final class Waits {
  private final Nodes nodes;
  private final String self;
  private final AtomicLong pinIds = new AtomicLong();

  Waits(Nodes nodes, String self) {
    this.nodes = nodes;
    this.self = self;
  }

  /**
   * Makes the stream {@code streamId} of {@code device}, served by {@code stream}, wait for the
   * record of {@code handle} current now. The stage completes when the owner has fixed it, and
   * fails (as does the stream's next sync) if the owner is not a member or has no such event.
   */
  CompletionStage<Void> streamWaits(
      NodePort stream, Device device, long streamId, EventHandle handle) {
    long pinId = pinIds.incrementAndGet();
    CompletionStage<Void> pinned = pin(handle, pinId, stream.node());
    stream.waitEvent(device, streamId, handle, self, pinId);
    return pinned;
  }

  /** Like {@link #streamWaits} for a stream of this node. */
  CompletionStage<Void> localStreamWaits(Stream stream, EventHandle handle) {
    long pinId = pinIds.incrementAndGet();
    CompletionStage<Void> pinned = pin(handle, pinId, self);
    String event = "event " + handle.eventId() + " of node " + handle.node();
    CompletionStage<Void> done;
    try {
      done = nodes.port(handle.node()).awaitPin(self, pinId);
    } catch (RuntimeException e) {
      done = CompletableFuture.failedStage(e);
    }
    stream.waitFor(Failures.naming(done, event));
    return pinned;
  }

  private CompletionStage<Void> pin(EventHandle handle, long pinId, String awaiter) {
    try {
      return nodes.port(handle.node()).pin(handle, pinId, awaiter);
    } catch (RuntimeException e) {
      return CompletableFuture.failedStage(e);
    }
  }
}
