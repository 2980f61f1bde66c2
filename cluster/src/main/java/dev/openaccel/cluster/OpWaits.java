package dev.openaccel.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * What one operation on one member is waiting for, per member: the descriptors and data it takes
 * that have not arrived, and the messages it sends that have not left. Read when the operation
 * times out, to name the members it waits for. Internal.
 *
 * <p>Owns: two counters per member (atomic arrays), counted up by whichever thread takes or sends
 * and down by whichever completes the stage.
 */
final class OpWaits {
  private final AtomicIntegerArray receiving;
  private final AtomicIntegerArray sending;

  OpWaits(int members) {
    this.receiving = new AtomicIntegerArray(members);
    this.sending = new AtomicIntegerArray(members);
  }

  /** {@code bytes} will come from {@code member}. */
  void receiving(int member, CompletableFuture<?> bytes) {
    count(receiving, member, bytes);
  }

  /** {@code sent} goes to {@code member}. */
  void sending(int member, CompletableFuture<?> sent) {
    count(sending, member, sent);
  }

  /**
   * The members whose descriptor or data has not arrived, in rank order; if none, those a message
   * has not left for yet.
   */
  List<Integer> members() {
    List<Integer> from = pending(receiving);
    return from.isEmpty() ? pending(sending) : from;
  }

  private static void count(AtomicIntegerArray counters, int member, CompletableFuture<?> stage) {
    counters.incrementAndGet(member);
    stage.whenComplete((value, failure) -> counters.decrementAndGet(member));
  }

  private static List<Integer> pending(AtomicIntegerArray counters) {
    List<Integer> members = new ArrayList<>();
    for (int member = 0; member < counters.length(); member++) {
      if (counters.get(member) > 0) {
        members.add(member);
      }
    }
    return members;
  }
}
