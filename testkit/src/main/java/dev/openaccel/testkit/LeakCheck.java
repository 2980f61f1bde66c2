package dev.openaccel.testkit;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/**
 * The leak check of one test: begun before it, finished after it. Finishing waits, for at most the
 * settle time, until every device of the accelerator has synchronized (so work enqueued from other
 * threads has run and published its trace), asks the {@link TraceLedger} for what is open (its
 * answer comes after every trace event published before the question), and names each stream the
 * test created that still has unfinished work, each event and device buffer not closed, each device
 * that did not synchronize, and each thread left running. Streams the test closed are not checked:
 * the accelerator no longer lists them.
 *
 * <p>Owns: nothing mutable; begun and finished on the test's thread.
 */
final class LeakCheck {
  private static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);
  private static final AtomicLong NEXT_LEDGER = new AtomicLong();

  private final Accelerator accelerator;
  private final Duration settle;
  private final ActorRef<TraceLedger.Command> ledger;
  private final LeftThreads threads;

  private LeakCheck(
      Accelerator accelerator,
      Duration settle,
      ActorRef<TraceLedger.Command> ledger,
      LeftThreads threads) {
    this.accelerator = accelerator;
    this.settle = settle;
    this.ledger = ledger;
    this.threads = threads;
  }

  /** Starts watching {@code accelerator} for the test about to run; returns once it watches. */
  static LeakCheck begin(Accelerator accelerator, Duration settle) {
    LeftThreads threads = LeftThreads.snapshot();
    ActorRef<TraceLedger.Command> ledger =
        accelerator
            .system()
            .systemActorOf(
                TraceLedger.create(accelerator.trace()),
                "openaccel-testkit-ledger-" + NEXT_LEDGER.incrementAndGet(),
                Props.empty());
    LeakCheck check = new LeakCheck(accelerator, settle, ledger, threads);
    check.open(); // the ledger subscribes as it starts: its first answer proves it listens
    return check;
  }

  /** What the test left behind, one line each; empty if nothing. Stops the ledger. */
  List<String> finish() {
    try {
      long deadline = System.nanoTime() + settle.toNanos();
      // Counted before the synchronization, which enqueues an item of its own on busy streams.
      Map<TraceLedger.StreamKey, Long> pendingAtEnd = new HashMap<>();
      for (TraceLedger.StreamKey key : open().streams()) {
        Stream stream = listed(key);
        if (stream != null) {
          pendingAtEnd.put(key, stream.pendingWork());
        }
      }
      List<String> problems = new ArrayList<>(unsynchronized(deadline));
      TraceLedger.Open open = open();
      for (TraceLedger.StreamKey key : open.streams()) {
        Stream stream = listed(key);
        if (stream != null && !stream.query()) {
          Long atEnd = pendingAtEnd.get(key);
          problems.add(
              stream
                  + " has unfinished work"
                  + (atEnd == null ? "" : " (" + atEnd + " item(s) when the test ended)"));
        }
      }
      open.events().forEach(event -> problems.add(event + " was not closed"));
      open.buffers().forEach(buffer -> problems.add(buffer + " was not closed"));
      problems.addAll(threads.leftAt(accelerator.system().name(), deadline));
      return problems;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking the test for leaks", e);
    } finally {
      ledger.tell(TraceLedger.Stop.INSTANCE);
    }
  }

  /** Waits until {@code deadline} for every device; names those whose work did not finish. */
  private List<String> unsynchronized(long deadline) throws InterruptedException {
    List<Device> devices = new ArrayList<>();
    List<CompletableFuture<?>> syncs = new ArrayList<>();
    for (DeviceType type : accelerator.deviceTypes()) {
      for (int i = 0; i < accelerator.deviceCount(type); i++) {
        Device device = Device.of(type, i);
        devices.add(device);
        // Only completion matters here: a failure of the test's work is the test's to report.
        syncs.add(accelerator.synchronizeAsync(device).toCompletableFuture().handle((v, e) -> v));
      }
    }
    List<String> late = new ArrayList<>();
    for (int i = 0; i < devices.size(); i++) {
      long remaining = Math.max(0, deadline - System.nanoTime());
      try {
        syncs.get(i).get(remaining, TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        late.add(devices.get(i) + " did not finish its work within " + settle);
      } catch (ExecutionException e) {
        throw new IllegalStateException("unreachable: the failure was handled", e);
      }
    }
    return late;
  }

  /**
   * The stream {@code key} names, or null once the test closed it: the accelerator answers a closed
   * stream's id with {@link IllegalArgumentException}, and a closed stream is not checked.
   */
  private Stream listed(TraceLedger.StreamKey key) {
    try {
      return accelerator.stream(key.device(), key.id());
    } catch (IllegalArgumentException closed) {
      return null;
    }
  }

  private TraceLedger.Open open() {
    try {
      return AskPattern.<TraceLedger.Command, TraceLedger.Open>ask(
              ledger, TraceLedger.Report::new, ASK_TIMEOUT, accelerator.system().scheduler())
          .toCompletableFuture()
          .get(ASK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the trace", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(
          "the trace ledger of " + accelerator + " did not answer within " + ASK_TIMEOUT, e);
    }
  }
}
