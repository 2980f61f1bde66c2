package dev.openaccel.runtime;

import dev.openaccel.runtime.internal.AcceleratorCore;
import dev.openaccel.runtime.spi.DeviceGuardImpl;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Makes several streams current, each on its own device, for a scope; {@link #close()} restores
 * them in reverse order. The current device does not change. Only the thread or actor that opened
 * it may close it.
 */
public final class MultiStreamGuard implements AutoCloseable {
  private final DeviceGuardImpl impl;
  private final GuardOwner owner;
  private final List<Stream> originals;
  private boolean closed;

  MultiStreamGuard(DeviceGuardImpl impl, GuardOwner owner, List<Stream> streams) {
    this.impl = impl;
    this.owner = owner;
    List<Stream> saved = new ArrayList<>(streams.size());
    try {
      for (Stream stream : streams) {
        saved.add(impl.exchangeStream(stream));
      }
    } catch (RuntimeException e) { // e.g. a stream of another accelerator: undo what was made
      for (int i = saved.size() - 1; i >= 0; i--) {
        impl.exchangeStream(saved.get(i));
      }
      throw e;
    }
    this.originals = saved;
    owner.opened(this);
  }

  /**
   * A guard over {@code streams} for the caller of {@code core}'s accelerator.
   *
   * @throws IllegalArgumentException containing "mix of device types"
   */
  static MultiStreamGuard open(AcceleratorCore core, Collection<Stream> streams) {
    List<Stream> list = List.copyOf(streams);
    DeviceType type = commonType(list);
    DeviceGuardImpl impl = type == null ? null : core.router(type);
    return new MultiStreamGuard(impl, new GuardOwner(core.contextSlots()), list);
  }

  /** Checks the streams are all of one device type, which it returns (null for none). */
  private static DeviceType commonType(List<Stream> streams) {
    DeviceType type = null;
    for (Stream stream : streams) {
      if (type == null) {
        type = stream.deviceType();
      } else if (!type.equals(stream.deviceType())) {
        throw new IllegalArgumentException(
            "MultiStreamGuard got a mix of device types: "
                + type
                + " and "
                + stream.deviceType()
                + " (streams "
                + streams
                + ")");
      }
    }
    return type;
  }

  /**
   * Restores every stream, in reverse order; idempotent.
   *
   * @throws IllegalStateException if called by another thread or actor than the one that opened it
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    owner.check("MultiStreamGuard");
    closed = true;
    for (int i = originals.size() - 1; i >= 0; i--) {
      impl.exchangeStream(originals.get(i));
    }
    owner.closed(this);
  }
}
