package dev.openaccel.micrometer;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.trace.TraceBus;
import dev.openaccel.runtime.trace.TraceEvent;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Props;

/**
 * Binds an {@link Accelerator}'s metrics to a Micrometer {@link MeterRegistry}: per device, its
 * memory gauges (for backends that declare device memory), the queue depth of its default stream
 * and of every stream {@link #watch watched}, and counters of kernels and event operations with a
 * timer of kernel durations, fed from the accelerator's trace bus. {@link MeterNames} lists every
 * meter with its unit and tags.
 *
 * <pre>{@code
 * OpenAccelMetrics metrics = new OpenAccelMetrics(accelerator);
 * metrics.bindTo(registry);
 * metrics.watch(stream);   // its queue depth too
 * }</pre>
 *
 * <p>Binding subscribes an actor of the accelerator's system to the trace bus. The bus costs
 * nothing while nobody subscribes; with a subscriber, each traced operation (a kernel's start and
 * its end; an event's creation, record, stream wait, host sync and deletion; a stream's creation
 * and host sync; a device sync; an allocation and a free) builds an event, reads {@link
 * System#nanoTime()} and sends a message, and the actor handles each one on the system's default
 * dispatcher; its mailbox grows while kernels end faster than it counts them. The counters lag the
 * work by that message's trip: read them after a bounded wait, not at once after a {@code
 * synchronize}. A kernel counts when it starts on its device (launches are not traced: work a
 * stream dropped because it stopped first is not counted); on OpenCL every device command, copies
 * included, is traced as a kernel. A stream wait or host sync of an event never recorded is not
 * traced. The gauges read the accelerator when the registry reads them.
 *
 * <p>Bound once, to one registry (a {@code CompositeMeterRegistry} exports to several). Two
 * accelerators bound into one registry need a common tag that tells them apart (their devices have
 * the same names): pass it to {@link #OpenAccelMetrics(Accelerator, Iterable)}. This class is
 * thread-safe.
 *
 * <p>Owns: the registry, the device meters, the watched streams, the actor and the closed flag,
 * written under this object's monitor by the callers of {@link #bindTo}, {@link #watch}, {@link
 * #unwatch} and {@link #close}, and by the actor when a watched stream was collected.
 */
public final class OpenAccelMetrics implements MeterBinder, AutoCloseable {
  private static final AtomicLong ACTOR_NAMES = new AtomicLong();

  private final Accelerator accelerator;
  private final Tags tags;
  private final List<Device> devices;
  private final Map<WatchedStream.Key, WatchedStream> watched = new LinkedHashMap<>();
  private final List<Meter> deviceMeters = new ArrayList<>();
  private MeterRegistry registry;
  private ActorRef<Object> actor;
  private Consumer<WatchedStream> collected;
  private boolean closed;

  /** A binder of {@code accelerator}'s metrics; it registers nothing before {@link #bindTo}. */
  public OpenAccelMetrics(Accelerator accelerator) {
    this(accelerator, Tags.empty());
  }

  /**
   * A binder of {@code accelerator}'s metrics whose meters also carry {@code tags}, such as one
   * that names the accelerator; it registers nothing before {@link #bindTo}.
   */
  public OpenAccelMetrics(Accelerator accelerator, Iterable<Tag> tags) {
    this.accelerator = Objects.requireNonNull(accelerator, "accelerator");
    this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
    this.devices = devicesOf(accelerator);
    for (Device device : devices) {
      Stream defaultStream = accelerator.defaultStream(device);
      watched.put(WatchedStream.Key.of(defaultStream), new WatchedStream(defaultStream));
    }
  }

  /**
   * Registers the meters in {@code registry} and subscribes to the trace bus: every kernel and
   * event operation from now on is counted.
   *
   * @throws IllegalStateException if this binder is already bound, or closed
   */
  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    checkOpen("bindTo");
    if (this.registry != null) {
      throw new IllegalStateException(
          "this binder is already bound to "
              + this.registry
              + ": bind it once (a CompositeMeterRegistry exports to several registries)");
    }
    this.registry = registry;
    Map<Device, DeviceMeters> byDevice = new HashMap<>();
    for (Device device : devices) {
      DeviceMeters meters = DeviceMeters.register(accelerator, device, registry, tagsOf(device));
      byDevice.put(device, meters);
      deviceMeters.addAll(meters.meters());
    }
    actor =
        accelerator
            .system()
            .systemActorOf(
                MetricsActor.create(byDevice, this::forget),
                "openaccel-micrometer-" + ACTOR_NAMES.incrementAndGet(),
                Props.empty());
    ActorRef<Object> to = actor;
    collected = w -> to.tell(new MetricsActor.Forget(w));
    for (WatchedStream stream : watched.values()) {
      stream.register(registry, tagsOf(stream.key().device()), collected);
    }
    accelerator.trace().subscribe(actor.<TraceEvent>narrow());
  }

  /**
   * Reports {@code stream}'s queue depth ({@link MeterNames#STREAM_PENDING}) from now on, or once
   * bound. The binder holds the stream weakly: a closed stream that nobody references any more is
   * collected, and its gauge then reads {@code NaN} and is removed after that first reading; {@link
   * #unwatch} removes it at once. Watching a stream twice, or a default stream (always watched),
   * changes nothing.
   *
   * @throws IllegalArgumentException if the stream's device is not one of this accelerator's
   * @throws IllegalStateException if this binder is closed
   */
  public synchronized void watch(Stream stream) {
    Objects.requireNonNull(stream, "stream");
    checkOpen("watch");
    if (!devices.contains(stream.device())) {
      throw new IllegalArgumentException(
          stream + " is on none of the devices of " + accelerator + ": " + devices);
    }
    WatchedStream.Key key = WatchedStream.Key.of(stream);
    if (!watched.containsKey(key)) {
      WatchedStream added = new WatchedStream(stream);
      watched.put(key, added);
      if (registry != null) {
        added.register(registry, tagsOf(stream.device()), collected);
      }
    }
  }

  /**
   * Stops reporting {@code stream}'s queue depth and removes its gauge, a default stream's too.
   *
   * @return whether it was watched
   */
  public synchronized boolean unwatch(Stream stream) {
    Objects.requireNonNull(stream, "stream");
    WatchedStream removed = watched.remove(WatchedStream.Key.of(stream));
    if (removed == null) {
      return false;
    }
    removeGauge(removed);
    return true;
  }

  /**
   * Unsubscribes from the trace bus, stops the actor and removes every meter of this binder from
   * its registry; idempotent. Trace events already on their way to the actor may still count into
   * the meters removed.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (actor != null) {
      if (!accelerator.system().getWhenTerminated().toCompletableFuture().isDone()) {
        unsubscribe(accelerator.trace(), actor.narrow());
        actor.tell(MetricsActor.Stop.INSTANCE);
      } // else the system's termination stopped the actor: nothing is sent to it any more
      deviceMeters.forEach(registry::remove);
      deviceMeters.clear();
    }
    watched.values().forEach(this::removeGauge);
    watched.clear();
  }

  @Override
  public String toString() {
    return "OpenAccelMetrics(" + accelerator + ", bound=" + (registry != null) + ")";
  }

  /** Removes {@code stream}'s gauge if the stream is still watched; from the actor. */
  private synchronized void forget(WatchedStream stream) {
    if (watched.remove(stream.key(), stream)) {
      removeGauge(stream);
    }
  }

  private void removeGauge(WatchedStream stream) {
    if (stream.gauge() != null) {
      registry.remove(stream.gauge());
    }
  }

  private static void unsubscribe(TraceBus bus, ActorRef<TraceEvent> subscriber) {
    try {
      bus.unsubscribe(subscriber);
    } catch (IllegalArgumentException stopped) {
      // Only the bus removes a subscriber besides this call, made once: when it stopped, which is
      // the actor system's shutdown stopping the actor. Nothing is left to unsubscribe.
    }
  }

  private Tags tagsOf(Device device) {
    return tags.and(
        MeterNames.DEVICE, device.toString(), MeterNames.DEVICE_TYPE, device.type().name());
  }

  private void checkOpen(String call) {
    if (closed) {
      throw new IllegalStateException(call + "(...) on a closed " + this);
    }
  }

  private static List<Device> devicesOf(Accelerator accelerator) {
    List<Device> devices = new ArrayList<>();
    accelerator.deviceTypes().stream()
        .sorted(Comparator.comparing(DeviceType::name))
        .forEach(
            type -> {
              for (int i = 0; i < accelerator.deviceCount(type); i++) {
                devices.add(Device.of(type, i));
              }
            });
    return List.copyOf(devices);
  }
}
