package dev.openaccel.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * The host arrays a process group's operations work on, reused: an operation takes one of its
 * buffer's size and gives it back once its {@link Work} succeeded, so back-to-back operations of
 * one size allocate no array after the first. A fresh array of the buffer's size per operation (16
 * MiB and more for the sizes where bandwidth counts) is young-generation garbage that the collector
 * copies while it is still in use. Operations of one group on different streams can overlap, so
 * this holds several arrays, matched by exact length. Internal.
 *
 * <p>An array is given back only by an operation that succeeded: then every reader of it has
 * finished (the stream's copies, the algorithm's stages, and the bulk lane's serializer, see {@link
 * Ring}). A failed operation's array is dropped, since a stage of it may still run.
 *
 * <p>Owns: the idle arrays (at most {@link #MAX_IDLE}; one given back beyond that is dropped) and
 * the count of arrays made. Thread-safe: taken on the caller's thread, given back on the thread
 * that completes the operation; each method holds the lock for a scan of at most {@link #MAX_IDLE}.
 */
final class HostArrays {
  /** The most idle arrays a group keeps. */
  static final int MAX_IDLE = 4;

  private final List<byte[]> idle = new ArrayList<>();
  private long made;

  /**
   * An array of exactly {@code length} bytes, of unspecified content: an idle one, or a new one.
   */
  synchronized byte[] take(int length) {
    for (int i = 0; i < idle.size(); i++) {
      if (idle.get(i).length == length) {
        return idle.remove(i);
      }
    }
    made++;
    return new byte[length];
  }

  /** Gives back an array taken here that nobody reads or writes any more. */
  synchronized void give(byte[] array) {
    if (idle.size() < MAX_IDLE) {
      idle.add(array);
    }
  }

  /** The arrays waiting to be taken. */
  synchronized int idle() {
    return idle.size();
  }

  /** The arrays {@link #take} has made so far. */
  synchronized long made() {
    return made;
  }
}
