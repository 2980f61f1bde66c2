package dev.openaccel.runtime;

import dev.openaccel.runtime.internal.ContextSlots;

/**
 * The thread or actor that opened a guard; only it may close the guard, because the state a guard
 * restores is that caller's own device context.
 */
final class GuardOwner {
  private final ContextSlots slots;
  private final ContextSlots.Slot owner;

  GuardOwner(ContextSlots slots) {
    this.slots = slots;
    this.owner = slots.slot();
  }

  /** Registers an opened guard, so an actor's handler can close what it left open. */
  void opened(AutoCloseable guard) {
    owner.opened(guard);
  }

  void closed(AutoCloseable guard) {
    owner.closed(guard);
  }

  /**
   * @throws IllegalStateException if the caller is not the opener
   */
  void check(String guard) {
    ContextSlots.Slot caller = slots.slot();
    if (caller != owner) {
      throw new IllegalStateException(
          guard
              + " was opened by "
              + owner.owner()
              + " and cannot be closed by "
              + caller.owner()
              + ": close a guard on the thread or actor that opened it");
    }
  }
}
