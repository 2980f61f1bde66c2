package dev.openaccel.samples.report;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.trace.TraceEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Pairs trace events, in the order the trace bus delivered them, into a {@link TraceLog}: each
 * {@code KernelStarted} with the {@code KernelFinished} of the same stream (a stream runs one
 * kernel at a time) into a {@link Span}, each {@code EventWaited} with the {@code EventRecorded} of
 * the same event and generation into a {@link Dependency}, each {@code GraphLaunched} with the
 * {@code GraphReplayed} of the same replay into a {@link GraphReplay}, each {@code
 * CollectiveFinished} with the {@code CollectiveStep}s of the same device, stream, group, operation
 * and number into a {@link Collective}, and keeps device memory totals as {@link MemorySample}s.
 *
 * <p>The cluster module publishes an operation's steps before its end, so they have all arrived
 * when the end does; a step that lies outside its operation's span (one handed over after a failed
 * operation ended) is left out. An end whose start, or a finish whose launch, came before the
 * subscription is left out too. Not thread-safe. Owns: everything it holds, written by the one
 * thread that calls {@link #add} ({@link TraceCollector}'s actor).
 */
public final class TraceLogBuilder {
  private record StreamKey(int device, long streamId) {}

  private record RecordKey(long eventId, long generation) {}

  private record ReplayKey(int device, long graphId, long replay) {}

  private record OperationKey(
      int device, long streamId, String group, String operation, long number) {}

  private final Map<StreamKey, TraceEvent.KernelStarted> running = new HashMap<>();
  private final List<Span> spans = new ArrayList<>();
  private final Map<ReplayKey, TraceEvent.GraphLaunched> launched = new HashMap<>();
  private final List<GraphReplay> replays = new ArrayList<>();
  private final Map<OperationKey, List<CollectivePiece>> sent = new HashMap<>();
  private final List<Collective> collectives = new ArrayList<>();
  private final Map<RecordKey, TraceEvent.EventRecorded> records = new HashMap<>();
  private final List<TraceEvent.EventWaited> waits = new ArrayList<>();
  private final List<MemorySample> memory = new ArrayList<>();

  /** Takes in the next event the trace bus delivered. */
  public void add(TraceEvent event) {
    if (event instanceof TraceEvent.EventRecorded recorded) {
      records.put(new RecordKey(recorded.eventId(), recorded.generation()), recorded);
    } else if (event instanceof TraceEvent.EventWaited waited) {
      waits.add(waited);
    } else if (event instanceof TraceEvent.MemoryAllocated allocated) {
      memory.add(sample(allocated.device(), allocated.atNanos(), allocated.allocatedBytes()));
    } else if (event instanceof TraceEvent.MemoryFreed freed) {
      memory.add(sample(freed.device(), freed.atNanos(), freed.allocatedBytes()));
    } else if (event instanceof TraceEvent.GraphLaunched launch) {
      launched.put(
          new ReplayKey(launch.device().index(), launch.graphId(), launch.replay()), launch);
    } else if (event instanceof TraceEvent.GraphReplayed ended) {
      onReplayed(ended);
    } else if (event instanceof TraceEvent.CollectiveStep step) {
      onStep(step);
    } else if (event instanceof TraceEvent.CollectiveFinished finished) {
      onCollective(finished);
    } else {
      onKernel(event);
    }
  }

  /** How many kernels have finished so far. */
  public int kernels() {
    return spans.size();
  }

  /** How many graph replays have ended so far. */
  public int replays() {
    return replays.size();
  }

  /** How many collective operations have ended so far. */
  public int collectives() {
    return collectives.size();
  }

  /**
   * Everything so far; a wait whose record has not arrived (or came before the subscription) is
   * left out.
   */
  public TraceLog log() {
    List<Dependency> dependencies = new ArrayList<>();
    for (TraceEvent.EventWaited waited : waits) {
      TraceEvent.EventRecorded recorded =
          records.get(new RecordKey(waited.eventId(), waited.generation()));
      if (recorded != null) {
        dependencies.add(
            new Dependency(
                waited.eventId(),
                waited.generation(),
                recorded.device().index(),
                recorded.streamId(),
                waited.device().index(),
                waited.streamId()));
      }
    }
    return new TraceLog(spans, dependencies, memory, replays, collectives);
  }

  private static MemorySample sample(Device device, long atNanos, long allocatedBytes) {
    return new MemorySample(device.index(), atNanos, allocatedBytes);
  }

  private void onKernel(TraceEvent event) {
    if (event instanceof TraceEvent.KernelStarted started) {
      running.put(new StreamKey(started.device().index(), started.streamId()), started);
    } else if (event instanceof TraceEvent.KernelFinished finished) {
      TraceEvent.KernelStarted started =
          running.remove(new StreamKey(finished.device().index(), finished.streamId()));
      if (started != null) { // null: it started before the subscription
        spans.add(
            new Span(
                finished.device().index(),
                finished.streamId(),
                finished.kernel(),
                started.atNanos(),
                finished.atNanos(),
                finished.failed()));
      }
    }
  }

  private void onReplayed(TraceEvent.GraphReplayed ended) {
    TraceEvent.GraphLaunched launch =
        launched.remove(new ReplayKey(ended.device().index(), ended.graphId(), ended.replay()));
    if (launch != null) { // null: it was launched before the subscription
      replays.add(
          new GraphReplay(
              ended.device().index(),
              ended.streamId(),
              ended.graphId(),
              ended.replay(),
              launch.atNanos(),
              ended.atNanos(),
              ended.failed()));
    }
  }

  private void onStep(TraceEvent.CollectiveStep step) {
    OperationKey key =
        new OperationKey(
            step.device().index(), step.streamId(), step.group(), step.operation(), step.number());
    sent.computeIfAbsent(key, k -> new ArrayList<>())
        .add(
            new CollectivePiece(
                step.step(), step.piece(), step.bytes(), step.startNanos(), step.atNanos()));
  }

  private void onCollective(TraceEvent.CollectiveFinished ended) {
    OperationKey key =
        new OperationKey(
            ended.device().index(),
            ended.streamId(),
            ended.group(),
            ended.operation(),
            ended.number());
    List<CollectivePiece> pieces =
        sent.getOrDefault(key, List.of()).stream()
            .filter(p -> p.startNanos() >= ended.startNanos() && p.endNanos() <= ended.atNanos())
            .toList();
    sent.remove(key);
    collectives.add(
        new Collective(
            ended.device().index(),
            ended.streamId(),
            ended.group(),
            ended.operation(),
            ended.number(),
            ended.bytes(),
            ended.failed(),
            ended.startNanos(),
            ended.atNanos(),
            pieces));
  }
}
