package dev.openaccel.samples.report;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.trace.TraceEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * An actor that subscribes to its system's trace bus and pairs each {@code KernelStarted} with the
 * {@code KernelFinished} of the same stream (a stream runs one kernel at a time) into {@link
 * Span}s, each {@code EventWaited} with the {@code EventRecorded} of the same event and generation
 * into a {@link Dependency}, each {@code GraphLaunched} with the {@code GraphReplayed} of the same
 * replay into a {@link GraphReplay}, and keeps device memory totals as {@link MemorySample}s.
 *
 * <p>Trace events travel as messages, so they may still be in flight when the host's {@code
 * synchronize} returns. {@link AwaitKernels} therefore waits for a count the host knows (the
 * kernels and replays it launched) instead of trusting arrival order. Owns: the open kernels and
 * replays, the records, the waits, the memory samples, the spans and the replays.
 */
public final class TraceCollector extends AbstractBehavior<TraceCollector.Command> {

  /** What the collector understands. */
  public sealed interface Command {}

  /**
   * Replies with everything so far once at least {@code kernels} kernels and {@code replays} graph
   * replays have ended; {@code 0} and {@code 0} replies at once, which tells the caller the
   * collector is subscribed.
   */
  public record AwaitKernels(int kernels, int replays, ActorRef<TraceLog> replyTo)
      implements Command {}

  private record Traced(TraceEvent event) implements Command {}

  private record StreamKey(int device, long streamId) {}

  private record RecordKey(long eventId, long generation) {}

  private record ReplayKey(int device, long graphId, long replay) {}

  /** A collector subscribed to the trace bus of the system it runs in. */
  public static Behavior<Command> create() {
    return Behaviors.setup(TraceCollector::new);
  }

  private final Map<StreamKey, TraceEvent.KernelStarted> running = new HashMap<>();
  private final List<Span> spans = new ArrayList<>();
  private final Map<ReplayKey, TraceEvent.GraphLaunched> launched = new HashMap<>();
  private final List<GraphReplay> replays = new ArrayList<>();
  private final Map<RecordKey, TraceEvent.EventRecorded> records = new HashMap<>();
  private final List<TraceEvent.EventWaited> waits = new ArrayList<>();
  private final List<MemorySample> memory = new ArrayList<>();
  private final List<AwaitKernels> waiting = new ArrayList<>();

  private TraceCollector(ActorContext<Command> context) {
    super(context);
    ActorRef<TraceEvent> adapter = context.messageAdapter(TraceEvent.class, Traced::new);
    Accelerator.get(context.getSystem()).trace().subscribe(adapter);
  }

  /**
   * Asks {@code collector} for what it gathered once {@code kernels} kernels have finished.
   *
   * @throws IllegalStateException if they have not all arrived within {@code timeout}
   */
  public static TraceLog await(
      ActorRef<Command> collector, ActorSystem<?> system, int kernels, Duration timeout)
      throws InterruptedException {
    return await(collector, system, kernels, 0, timeout);
  }

  /**
   * Asks {@code collector} for what it gathered once {@code kernels} kernels and {@code replays}
   * graph replays have ended.
   *
   * @throws IllegalStateException if they have not all arrived within {@code timeout}
   */
  public static TraceLog await(
      ActorRef<Command> collector,
      ActorSystem<?> system,
      int kernels,
      int replays,
      Duration timeout)
      throws InterruptedException {
    try {
      return AskPattern.<Command, TraceLog>ask(
              collector,
              replyTo -> new AwaitKernels(kernels, replays, replyTo),
              timeout,
              system.scheduler())
          .toCompletableFuture()
          .get(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(
          "the trace bus did not deliver "
              + kernels
              + " finished kernels and "
              + replays
              + " ended replays within "
              + timeout,
          e);
    }
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Traced.class, this::onTraced)
        .onMessage(AwaitKernels.class, this::onAwait)
        .build();
  }

  private Behavior<Command> onTraced(Traced traced) {
    TraceEvent event = traced.event();
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
    } else {
      onKernel(event);
    }
    return this;
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
        answerWaiting();
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
      answerWaiting();
    }
  }

  private Behavior<Command> onAwait(AwaitKernels await) {
    waiting.add(await);
    answerWaiting();
    return this;
  }

  private void answerWaiting() {
    for (Iterator<AwaitKernels> it = waiting.iterator(); it.hasNext(); ) {
      AwaitKernels await = it.next();
      if (spans.size() >= await.kernels() && replays.size() >= await.replays()) {
        await.replyTo().tell(log());
        it.remove();
      }
    }
  }

  /**
   * Everything so far; a wait whose record has not arrived (or came before the subscription) is
   * left out.
   */
  private TraceLog log() {
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
    return new TraceLog(spans, dependencies, memory, replays);
  }
}
