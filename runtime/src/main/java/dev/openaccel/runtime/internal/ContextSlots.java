package dev.openaccel.runtime.internal;

import dev.openaccel.runtime.DeviceContext;
import dev.openaccel.runtime.spi.CurrentContext;
import java.util.ArrayDeque;

/**
 * Where each caller's {@link DeviceContext} lives: one {@link Slot} per thread by default, replaced
 * by an actor's own slot while that actor handles a message. One instance per {@code Accelerator},
 * so two accelerators in one JVM never share a current device. Internal.
 *
 * <p>Owns: the thread-to-slot binding. Each slot's context is confined to its owner (a thread, or
 * an actor while it handles a message).
 */
public final class ContextSlots implements CurrentContext {

  /** The mutable current context of one thread or one actor. */
  public static final class Slot implements CurrentContext {
    private final String owner;
    private DeviceContext context;
    private ArrayDeque<AutoCloseable> openGuards; // created on first guard

    public Slot(String owner, DeviceContext context) {
      this.owner = owner;
      this.context = context;
    }

    /** Who this slot belongs to, for error messages. */
    public String owner() {
      return owner;
    }

    @Override
    public DeviceContext get() {
      return context;
    }

    @Override
    public void set(DeviceContext context) {
      this.context = context;
    }

    /** Notes a guard opened by this slot's owner. */
    public void opened(AutoCloseable guard) {
      if (openGuards == null) {
        openGuards = new ArrayDeque<>();
      }
      openGuards.push(guard);
    }

    /** Notes a guard closed. */
    public void closed(AutoCloseable guard) {
      if (openGuards != null) {
        openGuards.removeFirstOccurrence(guard);
      }
    }

    /** Closes the guards still open, innermost first; an actor's handler ends with this. */
    public void closeOpenGuards() throws Exception {
      while (openGuards != null && !openGuards.isEmpty()) {
        openGuards.peek().close(); // close() calls closed(), which removes it
      }
    }
  }

  private final ThreadLocal<Slot> current =
      ThreadLocal.withInitial(
          () ->
              new Slot("thread '" + Thread.currentThread().getName() + "'", DeviceContext.empty()));

  /** The caller's slot. */
  public Slot slot() {
    return current.get();
  }

  @Override
  public DeviceContext get() {
    return current.get().context;
  }

  @Override
  public void set(DeviceContext context) {
    current.get().context = context;
  }

  /** The calling thread's slot: see {@link CurrentContext#ofCallingThread}. */
  @Override
  public CurrentContext ofCallingThread() {
    return current.get();
  }

  /**
   * Makes {@code slot} the calling thread's slot and returns the one it replaces, to pass to {@link
   * #restore}.
   */
  public Slot install(Slot slot) {
    Slot previous = current.get();
    current.set(slot);
    return previous;
  }

  public void restore(Slot previous) {
    current.set(previous);
  }
}
