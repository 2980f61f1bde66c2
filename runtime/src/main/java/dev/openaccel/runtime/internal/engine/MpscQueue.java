package dev.openaccel.runtime.internal.engine;

import java.util.concurrent.atomic.AtomicReference;

/**
 * An unbounded multi-producer, single-consumer linked queue (after Dmitry Vyukov's): a producer
 * makes one atomic swap, the consumer none, so a stream's consumer thread does not fight its
 * producers for cache lines. Internal.
 *
 * <p>Owns: its nodes. Any thread may {@link #offer}; only one thread at a time may {@link #poll} or
 * ask {@link #isEmpty} (the stream's actor, or shutdown once the actor is gone). An element is
 * visible to the consumer once its {@code offer} has returned; while a producer is between its swap
 * and its link, the consumer sees the queue end before that element, which is why a producer wakes
 * the consumer only after {@code offer} returns.
 */
final class MpscQueue<E> {
  private static final class Node<E> {
    // Volatile, not a release store: a producer reads the stream's wake-up flag right after
    // linking, and that read must not move before the link (the consumer does the mirror image),
    // or a wake-up is lost.
    volatile Node<E> next;
    E value;

    Node(E value) {
      this.value = value;
    }
  }

  private final AtomicReference<Node<E>> tail;
  private Node<E> head; // the consumer's: a sentinel whose next is the first element

  MpscQueue() {
    Node<E> sentinel = new Node<>(null);
    this.head = sentinel;
    this.tail = new AtomicReference<>(sentinel);
  }

  /** Appends {@code value}; thread-safe, lock-free. */
  void offer(E value) {
    Node<E> node = new Node<>(value);
    Node<E> previous = tail.getAndSet(node); // the linearization point: the queue's order
    previous.next = node;
  }

  /** Removes and returns the first element, or null; consumer only. */
  E poll() {
    Node<E> next = head.next;
    if (next == null) {
      return null;
    }
    E value = next.value;
    next.value = null; // the node becomes the sentinel; do not retain the element
    head = next;
    return value;
  }

  /** Whether the consumer sees no element; consumer only. */
  boolean isEmpty() {
    return head.next == null;
  }
}
