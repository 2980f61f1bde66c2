package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.DeviceBuffer;
import java.util.List;

/**
 * A unit of backend device work (a compiled kernel launch, a device copy) that the engine hands to
 * a stream's {@link DeviceQueue} in stream order. Opaque to the engine beyond the buffers it
 * declares for the stream sanitizer ({@link #reads}); its backend's queue knows how to submit it.
 * Work handed to {@link Engine#enqueue} must not write Java heap memory: the engine orders copies
 * from heap buffers only behind the copies into heap buffers it built itself ({@link
 * DeviceMemory#copyToHost}).
 */
public interface DeviceWork {

  /**
   * Called once, instead of {@link DeviceQueue#submit}, when this work will never reach a queue:
   * its stream stopped first (the actor system is shutting down, or the engine refused the work),
   * or a capture took it as a graph's template ({@link #replica}, which is still called on it
   * afterwards). Gives back what the work holds since it was built, such as buffer uses and staging
   * memory, so that work queued at shutdown leaks nothing. Must not throw. The default holds
   * nothing.
   */
  default void discard() {}

  /**
   * A new work that does what this one does, for one replay of a captured graph. The work captured
   * from a stream is the graph's template: the capture {@link #discard}s it as it takes it (a graph
   * has no close, so a template must hold nothing a submission would give back), never submits it,
   * and calls this once per replay on it, or on a template made by {@link #withArguments}. A
   * replica holds what a fresh build of the same call would (buffer uses, staging memory, taken
   * here) and gives it back as any work does; host memory it copies is read or written when the
   * replay runs, as in CUDA. The default: null, this work cannot be replayed, and the launch throws
   * {@code UnsupportedOperationException}.
   */
  default DeviceWork replica() {
    return null;
  }

  /**
   * A template like this captured one that takes {@code arguments} instead of its own (for {@code
   * Graph.withArguments}); this work is unchanged. The new template, like a captured one, holds
   * nothing a submission would give back and is never submitted: the engine calls {@link #replica}
   * on it.
   *
   * @throws IllegalArgumentException if the arguments do not fit the work, naming them
   * @throws UnsupportedOperationException by default: the work's arguments cannot be changed
   */
  default DeviceWork withArguments(Object... arguments) {
    throw new UnsupportedOperationException(
        getClass().getName() + " doesn't support changing a captured kernel's arguments");
  }

  /**
   * The buffers this work only reads, for the stream sanitizer ({@code openaccel.sanitizer} at
   * {@code throw} or {@code log}): {@link Engine#enqueue} calls it, and {@link #writes}, once on
   * the enqueuing thread before the work is queued, and only while the sanitizer runs, so building
   * the list costs nothing otherwise. The sanitizer reports the work as {@code kernel 'name'}, with
   * the name given to {@code enqueue}. A buffer in both lists counts as written. The default is
   * none: the sanitizer does not see the work.
   *
   * @return buffers of the engine the work is enqueued on
   */
  default List<DeviceBuffer> reads() {
    return List.of();
  }

  /**
   * The buffers this work may write (and read), for the stream sanitizer; see {@link #reads}. The
   * default is none.
   *
   * @return buffers of the engine the work is enqueued on
   */
  default List<DeviceBuffer> writes() {
    return List.of();
  }
}
