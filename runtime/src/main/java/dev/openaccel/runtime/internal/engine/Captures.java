package dev.openaccel.runtime.internal.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The captures in progress of one engine's streams, so that a call on an event can tell whether the
 * event's latest record is a node of one of them (the event itself keeps no field for it: events
 * are many, captures rare). Internal.
 *
 * <p>Owns: the list, copied on write; each {@link Capture} adds itself when it begins and removes
 * itself when it ends. Thread-safe; one volatile read while no capture runs.
 */
final class Captures {
  private final List<Capture> active = new CopyOnWriteArrayList<>();

  void add(Capture capture) {
    active.add(capture);
  }

  void remove(Capture capture) {
    active.remove(capture);
  }

  /** The capture in progress whose node is {@code event}'s latest record, or null. */
  Capture of(EngineEvent event) {
    if (active.isEmpty()) {
      return null;
    }
    for (Capture capture : active) {
      if (capture.recordedHere(event)) {
        return capture;
      }
    }
    return null;
  }

  /**
   * {@code event}, unless its latest record is a node of a capture in progress.
   *
   * @throws IllegalStateException naming {@code call}, the event and the capture, if it is
   */
  EngineEvent notCaptured(EngineEvent event, String call) {
    Capture capture = of(event);
    if (capture != null) {
      throw new IllegalStateException(
          Capture.NOT_PERMITTED + call + " of " + event + ", recorded in " + capture);
    }
    return event;
  }
}
