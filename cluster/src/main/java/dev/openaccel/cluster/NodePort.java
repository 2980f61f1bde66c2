package dev.openaccel.cluster;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.EventHandle;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The operations one node offers the others: implemented in-process for the local node ({@link
 * LocalPort}) and by messages through a {@link NodeLink} for the others ({@link RemotePort}).
 * Internal.
 *
 * <p>Ordering: the operations on one stream take effect on the owner in the order they were called
 * here, for callers that are ordered among themselves (one thread, or one actor). Methods without a
 * result are fire-and-forget; a failure they cause surfaces at the stream's next synchronization.
 * Stages fail with the owner's exception type; a node that leaves fails them with a {@link
 * dev.openaccel.runtime.DeviceExecutionException} naming it.
 */
interface NodePort {

  String node();

  CompletionStage<List<Device>> describe();

  CompletionStage<Long> newStream(Device device, int priority);

  void launch(Device device, long streamId, String kernel, byte[] args, List<Long> buffers);

  CompletionStage<EventHandle> record(Device device, long streamId, long eventId);

  /**
   * Fixes, on this node (the event's owner), the record current when it handles this, as pin {@code
   * pinId} of the calling node, for {@code awaiter} to wait on; completes once fixed.
   */
  CompletionStage<Void> pin(EventHandle handle, long pinId, String awaiter);

  /** Completes when the record pinned on this node as {@code (pinner, pinId)} completes. */
  CompletionStage<Void> awaitPin(String pinner, long pinId);

  /** The stream waits for the record pinned as {@code (pinner, pinId)} at the handle's node. */
  void waitEvent(Device device, long streamId, EventHandle handle, String pinner, long pinId);

  CompletionStage<Void> synchronize(Device device, long streamId);

  /** Closes an event this node created for the caller; only its owner may. */
  CompletionStage<Void> closeEvent(long eventId);

  CompletionStage<Long> allocate(Device device, long bytes);

  /** Frees a buffer; only its owner may. */
  CompletionStage<Void> free(long bufferId);

  /** Writes all of {@code bytes} into the buffer from offset 0, in stream order. */
  void write(Device device, long streamId, long bufferId, byte[] bytes);

  /** At most {@link NodeCopy#CHUNK} bytes of a buffer, read in stream order. */
  CompletionStage<byte[]> read(Device device, long streamId, long bufferId, int offset, int length);

  void copy(Device device, long streamId, RemoteBuffer src, RemoteBuffer dst);

  /**
   * The bytes {@code [offset, offset + length)} of another node's buffer, in one request: the owner
   * streams them as the bulk window allows. One stage per chunk of {@link NodeCopy#CHUNK} bytes,
   * each completing as its chunk arrives, with an array of the {@link ChunkPool} for a whole chunk
   * (passed to the caller). Copies within one node are stream copies and never fetch.
   */
  List<CompletableFuture<byte[]>> fetch(long bufferId, int offset, int length);

  /**
   * All of another node's buffer, written on its transfer stream from {@code source}, which is sent
   * as the bulk window allows. Copies within one node are stream copies and never store.
   */
  CompletionStage<Void> store(long bufferId, BulkSource source);

  /**
   * The owner's latest record of the event, as of when the owner handles the request; with {@code
   * await}, the stage completes when that record completes, exceptionally if it failed.
   */
  CompletionStage<EventState> latest(EventHandle handle, boolean await);

  /** What the owner said about an event's latest record. */
  record EventState(long generation, boolean completed, long completedAtNanos) {}
}
