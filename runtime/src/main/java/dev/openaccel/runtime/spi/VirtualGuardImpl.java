package dev.openaccel.runtime.spi;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.actor.EventSignal;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Routes every operation to the backend registered for one device type, as c10's {@code
 * VirtualGuardImpl}: the impl is resolved once, at construction, and each call checks that its
 * devices and streams are of that type. This class is thread-safe.
 */
public final class VirtualGuardImpl implements DeviceGuardImpl {
  private final DeviceGuardImpl impl;

  /** Wraps {@code impl}. */
  public VirtualGuardImpl(DeviceGuardImpl impl) {
    this.impl = Objects.requireNonNull(impl, "impl");
  }

  /** The backend this routes to. */
  public DeviceGuardImpl impl() {
    return impl;
  }

  @Override
  public DeviceType type() {
    return impl.type();
  }

  @Override
  public Set<Capability> capabilities() {
    return impl.capabilities();
  }

  @Override
  public Device exchangeDevice(Device d) {
    return impl.exchangeDevice(check(d));
  }

  @Override
  public Device getDevice() {
    return impl.getDevice();
  }

  @Override
  public void setDevice(Device d) {
    impl.setDevice(check(d));
  }

  @Override
  public void uncheckedSetDevice(Device d) {
    if (d != null && d.type().equals(type())) {
      impl.uncheckedSetDevice(d);
    }
  }

  @Override
  public Stream getStream(Device d) {
    return impl.getStream(check(d));
  }

  @Override
  public Stream getDefaultStream(Device d) {
    return impl.getDefaultStream(check(d));
  }

  @Override
  public Stream getNewStream(Device d, int priority) {
    return impl.getNewStream(check(d), priority);
  }

  @Override
  public Stream getStreamFromGlobalPool(Device d, boolean highPriority) {
    return impl.getStreamFromGlobalPool(check(d), highPriority);
  }

  @Override
  public Stream exchangeStream(Stream s) {
    return impl.exchangeStream(check(s));
  }

  @Override
  public int deviceCount() {
    try {
      return impl.deviceCount();
    } catch (RuntimeException e) {
      return 0; // the contract: never throws
    }
  }

  @Override
  public PriorityRange priorityRange() {
    return impl.priorityRange();
  }

  @Override
  public void synchronizeDevice(int deviceIndex) {
    impl.synchronizeDevice(deviceIndex);
  }

  @Override
  public boolean queryStream(Stream s) {
    return impl.queryStream(check(s));
  }

  @Override
  public void synchronizeStream(Stream s) {
    impl.synchronizeStream(check(s));
  }

  @Override
  public BackendEvent record(BackendEvent eventOrNull, Stream s, int deviceIndex, EventFlag flag) {
    return impl.record(eventOrNull, check(s), deviceIndex, flag);
  }

  @Override
  public void block(BackendEvent e, Stream s) {
    impl.block(e, check(s));
  }

  @Override
  public boolean queryEvent(BackendEvent e) {
    return impl.queryEvent(e);
  }

  @Override
  public void synchronizeEvent(BackendEvent e) {
    impl.synchronizeEvent(e);
  }

  @Override
  public void destroyEvent(BackendEvent e, int deviceIndex) {
    destroyQuietly(impl, e, deviceIndex);
  }

  /**
   * Destroys {@code e} in {@code impl}, never throwing (the contract of {@link #destroyEvent}): a
   * backend that throws there has nothing left to release.
   */
  public static void destroyQuietly(DeviceGuardImpl impl, BackendEvent e, int deviceIndex) {
    try {
      impl.destroyEvent(e, deviceIndex);
    } catch (RuntimeException ignored) {
      // nothing left to release
    }
  }

  @Override
  public double elapsedTime(BackendEvent start, BackendEvent end, int deviceIndex) {
    return impl.elapsedTime(start, end, deviceIndex);
  }

  @Override
  public Stream getStream(Device d, long streamId) {
    return impl.getStream(check(d), streamId);
  }

  @Override
  public CompletionStage<Void> synchronizeDeviceAsync(int deviceIndex) {
    return impl.synchronizeDeviceAsync(deviceIndex);
  }

  @Override
  public boolean synchronizeEvent(BackendEvent e, Duration timeout) {
    return impl.synchronizeEvent(e, timeout);
  }

  @Override
  public CompletionStage<Void> eventCompletion(BackendEvent e) {
    return impl.eventCompletion(e);
  }

  @Override
  public void subscribe(BackendEvent e, ActorRef<EventSignal> subscriber) {
    impl.subscribe(e, subscriber);
  }

  @Override
  public DeviceBuffer allocate(Stream stream, long bytes) {
    return impl.allocate(check(stream), bytes);
  }

  @Override
  public MemoryStats memoryStats(Device d) {
    return impl.memoryStats(check(d));
  }

  @Override
  public void resetPeakMemoryStats(Device d) {
    impl.resetPeakMemoryStats(check(d));
  }

  @Override
  public void emptyCache(Device d) {
    impl.emptyCache(check(d));
  }

  @Override
  public EventHandle exportEvent(BackendEvent e) {
    return impl.exportEvent(e);
  }

  @Override
  public BackendEvent openEvent(long eventId) {
    return impl.openEvent(eventId);
  }

  private Device check(Device d) {
    Objects.requireNonNull(d, "device");
    if (!d.type().equals(type())) {
      throw new IllegalArgumentException(
          "device " + d + " does not match this guard's device type " + type());
    }
    return d;
  }

  private Stream check(Stream s) {
    Objects.requireNonNull(s, "stream");
    check(s.device());
    return s;
  }

  @Override
  public String toString() {
    return "VirtualGuardImpl(" + type() + ")";
  }
}
