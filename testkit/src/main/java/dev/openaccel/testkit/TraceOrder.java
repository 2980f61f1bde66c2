package dev.openaccel.testkit;

import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.trace.TraceEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * What {@link TraceProbe}'s assertions read from collected trace events and event completions, and
 * how their failure messages describe them. Times in messages are nanoseconds after the earliest
 * time described, so that they read as an order.
 *
 * <p>Owns: nothing: stateless.
 */
final class TraceOrder {
  private TraceOrder() {}

  /** The kernel starts among {@code events}, earliest first. */
  static List<TraceEvent.KernelStarted> startOrder(List<TraceEvent> events) {
    return events.stream()
        .filter(TraceEvent.KernelStarted.class::isInstance)
        .map(TraceEvent.KernelStarted.class::cast)
        .sorted(Comparator.comparingLong(TraceEvent::atNanos))
        .toList();
  }

  /** The earliest start of a kernel named {@code kernel}. */
  static Optional<TraceEvent.KernelStarted> started(List<TraceEvent> events, String kernel) {
    return events.stream()
        .filter(TraceEvent.KernelStarted.class::isInstance)
        .map(TraceEvent.KernelStarted.class::cast)
        .filter(started -> started.kernel().equals(kernel))
        .min(Comparator.comparingLong(TraceEvent::atNanos));
  }

  /** The earliest end of a kernel named {@code kernel}. */
  static Optional<TraceEvent.KernelFinished> finished(List<TraceEvent> events, String kernel) {
    return events.stream()
        .filter(TraceEvent.KernelFinished.class::isInstance)
        .map(TraceEvent.KernelFinished.class::cast)
        .filter(finished -> finished.kernel().equals(kernel))
        .min(Comparator.comparingLong(TraceEvent::atNanos));
  }

  /**
   * The kernels among {@code events} in start order, each with its stream and its start and end,
   * e.g. {@code [a on stream 1 +0..+900 ns, b on stream 1 +1200.. ns]}.
   */
  static String describeKernels(List<TraceEvent> events) {
    List<TraceEvent.KernelStarted> starts = startOrder(events);
    if (starts.isEmpty()) {
      return "none";
    }
    long origin = starts.get(0).atNanos();
    List<TraceEvent.KernelFinished> ends = new ArrayList<>();
    events.stream()
        .filter(TraceEvent.KernelFinished.class::isInstance)
        .map(TraceEvent.KernelFinished.class::cast)
        .sorted(Comparator.comparingLong(TraceEvent::atNanos))
        .forEach(ends::add);
    List<String> described = new ArrayList<>();
    for (TraceEvent.KernelStarted start : starts) {
      // A stream runs its kernels one at a time: a start's end is its stream's next end after it.
      Optional<TraceEvent.KernelFinished> end =
          ends.stream()
              .filter(e -> e.streamId() == start.streamId() && e.device().equals(start.device()))
              .filter(e -> e.kernel().equals(start.kernel()) && e.atNanos() >= start.atNanos())
              .findFirst();
      end.ifPresent(ends::remove);
      described.add(
          start.kernel()
              + " on stream "
              + start.streamId()
              + " +"
              + (start.atNanos() - origin)
              + ".."
              + end.map(e -> "+" + (e.atNanos() - origin)).orElse("")
              + " ns");
    }
    return described.toString();
  }

  /**
   * {@code events} as a list, checked: at least two, none null, each recorded at least once.
   *
   * @throws NullPointerException if {@code events} or one of them is null
   * @throws IllegalArgumentException if fewer than two, or one was never recorded
   */
  static List<Event> recordedEvents(Event... events) {
    Objects.requireNonNull(events, "events");
    if (events.length < 2) {
      throw new IllegalArgumentException(
          "an order needs at least two events, got " + events.length);
    }
    for (int i = 0; i < events.length; i++) {
      Event event = Objects.requireNonNull(events[i], "events[" + i + "]");
      if (!event.wasRecorded()) {
        throw new IllegalArgumentException(
            "events[" + i + "] was never recorded: it has no completion to order");
      }
    }
    return List.of(events);
  }

  /** The indexes of {@code times}, earliest time first (ties keep their index order). */
  static List<Integer> byTime(List<Long> times) {
    return IntStream.range(0, times.size())
        .boxed()
        .sorted(Comparator.comparing(times::get))
        .toList();
  }

  /** {@code events} by id and device, e.g. {@code [event 3 on openreg:0, event 4 on openreg:0]}. */
  static String describeEvents(List<Event> events) {
    return events.stream().map(TraceOrder::describe).toList().toString();
  }

  /** {@code events} in the order of {@code order}, each with its completion time. */
  static String describeCompletions(
      List<Event> events, List<Long> completedAt, List<Integer> order) {
    long origin = completedAt.get(order.get(0));
    return order.stream()
        .map(i -> describe(events.get(i)) + " at +" + (completedAt.get(i) - origin) + " ns")
        .toList()
        .toString();
  }

  private static String describe(Event event) {
    return "event " + event.id() + event.device().map(device -> " on " + device).orElse("");
  }
}
