package dev.openaccel.micrometer;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.trace.TraceEvent;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * A binder's actor: counts the trace events it is sent into its devices' meters, pairs each
 * stream's {@code KernelStarted} with the {@code KernelFinished} that follows it (a stream runs one
 * kernel at a time) into the kernel timer, and hands the gauges of collected streams back to the
 * binder to remove, off the thread that reads the gauge. Internal.
 *
 * <p>Its protocol is {@code Object}, not a sealed command interface: the binder subscribes it to
 * the trace bus as an {@code ActorRef<TraceEvent>} ({@code narrow()}) before {@code bindTo}
 * returns, so that no kernel launched after the bind goes uncounted, and a message adapter, the
 * usual way in, exists only once the actor runs. It takes {@link TraceEvent}s, {@link Forget} and
 * {@link Stop}; anything else is unhandled.
 *
 * <p>Owns: {@code running}, the started kernel of each stream whose end has not arrived; confined
 * to the actor.
 */
final class MetricsActor extends AbstractBehavior<Object> {

  /** The stream of {@code watched} was collected: remove its gauge. */
  record Forget(WatchedStream watched) {
    Forget {
      Objects.requireNonNull(watched, "watched");
    }
  }

  /** Stops the actor; the binder has unsubscribed it before. */
  enum Stop {
    INSTANCE
  }

  private record StreamKey(Device device, long streamId) {}

  /**
   * An actor that counts into {@code devices}' meters (events of other devices are not counted) and
   * passes each {@link Forget} to {@code forget}.
   */
  static Behavior<Object> create(
      Map<Device, DeviceMeters> devices, Consumer<WatchedStream> forget) {
    Map<Device, DeviceMeters> copy = Map.copyOf(devices);
    return Behaviors.setup(context -> new MetricsActor(context, copy, forget));
  }

  private final Map<Device, DeviceMeters> devices;
  private final Consumer<WatchedStream> forget;
  private final Map<StreamKey, TraceEvent.KernelStarted> running = new HashMap<>();

  private MetricsActor(
      ActorContext<Object> context,
      Map<Device, DeviceMeters> devices,
      Consumer<WatchedStream> forget) {
    super(context);
    this.devices = devices;
    this.forget = forget;
  }

  @Override
  public Receive<Object> createReceive() {
    return newReceiveBuilder()
        .onMessage(TraceEvent.class, this::onTraced)
        .onMessage(Forget.class, this::onForget)
        .onMessageEquals(Stop.INSTANCE, Behaviors::stopped)
        .build();
  }

  private Behavior<Object> onTraced(TraceEvent event) {
    DeviceMeters meters = devices.get(event.device());
    if (meters == null) {
      return this; // a device the accelerator did not list when the binder was bound
    }
    if (event instanceof TraceEvent.KernelStarted started) {
      meters.kernelsStarted.increment();
      running.put(new StreamKey(started.device(), started.streamId()), started);
    } else if (event instanceof TraceEvent.KernelFinished finished) {
      onFinished(meters, finished);
    } else if (event instanceof TraceEvent.EventRecorded) {
      meters.eventsRecorded.increment();
    } else if (event instanceof TraceEvent.EventWaited) {
      meters.eventsWaited.increment();
    } else if (event instanceof TraceEvent.EventSynchronized) {
      meters.eventsSynchronized.increment();
    }
    return this;
  }

  private void onFinished(DeviceMeters meters, TraceEvent.KernelFinished finished) {
    meters.kernelsFinished.increment();
    if (finished.failed()) {
      meters.kernelsFailed.increment();
    }
    TraceEvent.KernelStarted started =
        running.remove(new StreamKey(finished.device(), finished.streamId()));
    // No start: the kernel started before the subscription. Another kernel's start: not a pair.
    if (started != null && started.kernel().equals(finished.kernel())) {
      meters.kernelDuration.record(
          Math.max(0, finished.atNanos() - started.atNanos()), TimeUnit.NANOSECONDS);
    }
  }

  private Behavior<Object> onForget(Forget message) {
    forget.accept(message.watched());
    return this;
  }
}
