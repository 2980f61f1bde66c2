package dev.openaccel.runtime.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;

/**
 * The {@link TraceBus} of one accelerator, and the sink the runtime and backends publish to. Also
 * commits each event as a JDK Flight Recorder event ({@code dev.openaccel.Trace}) while a recording
 * is running.
 *
 * <p>Owns: the subscriber list (copy-on-write, changed under this object's monitor) and the {@code
 * enabled} flag derived from it and from the recorder's state. Publishers check {@link #enabled()}
 * first, so a publishing site allocates nothing while nobody listens. This class is thread-safe.
 */
public final class Tracer implements TraceBus {
  private final ActorRef<TraceWatcher.Command> watcher;
  private volatile List<ActorRef<TraceEvent>> subscribers = List.of();
  private volatile boolean recording;
  private volatile boolean enabled;

  /** A tracer whose subscribers are watched by an actor under {@code system}'s system guardian. */
  public Tracer(ActorSystem<?> system) {
    this.watcher =
        system.systemActorOf(TraceWatcher.create(this), "openaccel-trace", Props.empty());
    FlightRecorderListener listener =
        new FlightRecorderListener() {
          @Override
          public void recordingStateChanged(Recording changed) {
            updateRecording();
          }
        };
    FlightRecorder.addListener(listener);
    system.getWhenTerminated().thenRun(() -> FlightRecorder.removeListener(listener));
    updateRecording();
  }

  @Override
  public boolean enabled() {
    return enabled;
  }

  @Override
  public void publish(TraceEvent event) {
    Objects.requireNonNull(event, "event must not be null");
    for (ActorRef<TraceEvent> subscriber : subscribers) {
      subscriber.tell(event);
    }
    if (recording) {
      TraceRecord.commit(event);
    }
  }

  @Override
  public synchronized void subscribe(ActorRef<TraceEvent> subscriber) {
    Objects.requireNonNull(subscriber, "subscriber must not be null");
    if (subscribers.contains(subscriber)) {
      throw new IllegalArgumentException(subscriber + " is already subscribed to the trace bus");
    }
    List<ActorRef<TraceEvent>> next = new ArrayList<>(subscribers);
    next.add(subscriber);
    setSubscribers(next);
    watcher.tell(new TraceWatcher.Watch(subscriber));
  }

  @Override
  public synchronized void unsubscribe(ActorRef<TraceEvent> subscriber) {
    Objects.requireNonNull(subscriber, "subscriber must not be null");
    if (!subscribers.contains(subscriber)) {
      throw new IllegalArgumentException(
          subscriber
              + " is not subscribed to the trace bus (never subscribed, or unsubscribed twice)");
    }
    removeStopped(subscriber);
    watcher.tell(new TraceWatcher.Unwatch(subscriber));
  }

  /** Drops a subscriber; called when it stops. */
  synchronized void removeStopped(ActorRef<TraceEvent> subscriber) {
    List<ActorRef<TraceEvent>> next = new ArrayList<>(subscribers);
    if (next.remove(subscriber)) {
      setSubscribers(next);
    }
  }

  private void setSubscribers(List<ActorRef<TraceEvent>> next) {
    subscribers = List.copyOf(next);
    enabled = !subscribers.isEmpty() || recording;
  }

  private synchronized void updateRecording() {
    recording = TraceRecord.typeEnabled();
    enabled = !subscribers.isEmpty() || recording;
  }
}
