package dev.openaccel.samples.report;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.trace.TraceEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
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
 * An actor that subscribes to its system's trace bus and hands every event to a {@link
 * TraceLogBuilder}, which pairs them into kernel {@link Span}s, {@link Dependency}s, {@link
 * GraphReplay}s, {@link Collective}s and {@link MemorySample}s.
 *
 * <p>Trace events travel as messages, so they may still be in flight when the host's {@code
 * synchronize} returns. {@link AwaitKernels} therefore waits for counts the host knows (the
 * kernels, replays and collective operations it ran) instead of trusting arrival order. Owns: the
 * builder and the waiting asks.
 */
public final class TraceCollector extends AbstractBehavior<TraceCollector.Command> {

  /** What the collector understands. */
  public sealed interface Command {}

  /**
   * Replies with everything so far once at least {@code kernels} kernels, {@code replays} graph
   * replays and {@code collectives} collective operations have ended; all {@code 0} replies at
   * once, which tells the caller the collector is subscribed.
   */
  public record AwaitKernels(int kernels, int replays, int collectives, ActorRef<TraceLog> replyTo)
      implements Command {}

  private record Traced(TraceEvent event) implements Command {}

  /** A collector subscribed to the trace bus of the system it runs in. */
  public static Behavior<Command> create() {
    return Behaviors.setup(TraceCollector::new);
  }

  private final TraceLogBuilder builder = new TraceLogBuilder();
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
    return await(collector, system, kernels, 0, 0, timeout);
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
    return await(collector, system, kernels, replays, 0, timeout);
  }

  /**
   * Asks {@code collector} for what it gathered once {@code kernels} kernels, {@code replays} graph
   * replays and {@code collectives} collective operations have ended.
   *
   * @throws IllegalStateException if they have not all arrived within {@code timeout}
   */
  public static TraceLog await(
      ActorRef<Command> collector,
      ActorSystem<?> system,
      int kernels,
      int replays,
      int collectives,
      Duration timeout)
      throws InterruptedException {
    try {
      return AskPattern.<Command, TraceLog>ask(
              collector,
              replyTo -> new AwaitKernels(kernels, replays, collectives, replyTo),
              timeout,
              system.scheduler())
          .toCompletableFuture()
          .get(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(
          "the trace bus did not deliver "
              + kernels
              + " finished kernels, "
              + replays
              + " ended replays and "
              + collectives
              + " ended collective operations within "
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
    builder.add(traced.event());
    answerWaiting();
    return this;
  }

  private Behavior<Command> onAwait(AwaitKernels await) {
    waiting.add(await);
    answerWaiting();
    return this;
  }

  private void answerWaiting() {
    for (Iterator<AwaitKernels> it = waiting.iterator(); it.hasNext(); ) {
      AwaitKernels await = it.next();
      if (builder.kernels() >= await.kernels()
          && builder.replays() >= await.replays()
          && builder.collectives() >= await.collectives()) {
        await.replyTo().tell(builder.log());
        it.remove();
      }
    }
  }
}
