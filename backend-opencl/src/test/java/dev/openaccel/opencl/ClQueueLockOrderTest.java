package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lwjgl.opencl.CL12.nclEnqueueMarkerWithWaitList;

import dev.openaccel.runtime.spi.Completion;
import dev.openaccel.runtime.spi.Marker;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The lock order of a queue ({@link ClQueue}'s {@code order}, then {@link ClPending}'s monitor; a
 * marker's monitor before either of the queue a barrier on it is enqueued on): checked by
 * assertions in the queue whenever it takes {@code order}, which these tests run with, and shown
 * free of deadlock by two streams that wait on each other's records while reports arm markers.
 */
@RequiresOpenCl
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClQueueLockOrderTest {
  private ClContext context;

  /** How the queues' commands report their ends in this class. */
  Completions completions() {
    return Completions.CALLBACKS;
  }

  @BeforeAll
  void start() {
    context = new ClContext(OpenClTestSupport.platform(), completions());
  }

  @AfterAll
  void close() {
    context.close();
  }

  @Test
  void theQueuesLockOrderIsAssertedInTheseTests() {
    assertTrue(
        ClQueue.class.desiredAssertionStatus(),
        "assertions are off: the queue's lock order is not checked");
  }

  /** A command that is not a record: a marker on the queue, as cheap as a command gets. */
  private record Work() implements ClWork {
    @Override
    public int enqueue(long queue, long eventAddress) {
      return nclEnqueueMarkerWithWaitList(queue, 0, 0L, eventAddress);
    }

    @Override
    public String name() {
      return "work";
    }

    @Override
    public void enqueued() {}
  }

  /**
   * A completion that counts down {@code left} once and keeps the first failure in {@code failed}.
   */
  private static Completion counting(CountDownLatch left, Queue<Throwable> failed) {
    return new Completion() {
      @Override
      public void complete(long deviceNanos) {
        left.countDown();
      }

      @Override
      public void fail(Throwable cause) {
        failed.add(cause);
        left.countDown();
      }
    };
  }

  /**
   * One stream's actor: submits {@code steps} random steps to {@code own} (work, records, waits on
   * the other stream's latest record, flushes), publishing its records in {@code mine}.
   */
  private static Runnable actor(
      ClQueue own,
      AtomicReference<Marker> mine,
      AtomicReference<Marker> theirs,
      List<Marker> records,
      int steps,
      long seed,
      CountDownLatch left,
      Queue<Throwable> failed,
      AtomicInteger waits) {
    return () -> {
      Random random = new Random(seed);
      for (int i = 0; i < steps; i++) {
        int step = random.nextInt(10);
        if (step < 5) {
          own.submit(new Work(), counting(left, failed));
        } else if (step < 7) {
          Marker marker = own.mark(counting(left, failed));
          records.add(marker);
          mine.set(marker);
        } else if (step < 9) {
          Marker other = theirs.get();
          if (other != null && own.waitFor(other, counting(left, failed))) {
            waits.incrementAndGet();
          } else {
            left.countDown(); // nothing enqueued (the engine would park the stream on the record)
          }
        } else {
          own.flush();
          left.countDown();
        }
      }
      own.flush();
    };
  }

  @Test
  void twoStreamsWaitingOnEachOthersRecordsWhileReportsArmMarkersNeverDeadlock() throws Exception {
    int steps = 300;
    AtomicInteger waits = new AtomicInteger();
    for (int round = 0; round < 10; round++) {
      CountDownLatch left = new CountDownLatch(2 * steps);
      Queue<Throwable> failed = new ConcurrentLinkedQueue<>();
      AtomicReference<Marker> ofA = new AtomicReference<>();
      AtomicReference<Marker> ofB = new AtomicReference<>();
      List<Marker> recordsOfA = new ArrayList<>();
      List<Marker> recordsOfB = new ArrayList<>();
      try (ClQueue a = new ClQueue(context, 0, true);
          ClQueue b = new ClQueue(context, context.devices().size() - 1, true)) {
        List<Thread> actors =
            List.of(
                new Thread(
                    actor(a, ofA, ofB, recordsOfA, steps, round, left, failed, waits), "actor a"),
                new Thread(
                    actor(b, ofB, ofA, recordsOfB, steps, ~round, left, failed, waits), "actor b"));
        for (Thread actor : actors) {
          actor.setUncaughtExceptionHandler((t, e) -> failed.add(e));
          actor.start();
        }
        for (Thread actor : actors) {
          actor.join(TimeUnit.SECONDS.toMillis(20));
        }
        boolean ended = left.await(20, TimeUnit.SECONDS);
        assertTrue(
            ended && actors.stream().noneMatch(Thread::isAlive),
            "round " + round + ": " + left.getCount() + " steps never completed; " + deadlocks());
        assertEquals(List.of(), List.copyOf(failed), "round " + round);
      }
      recordsOfA.forEach(Marker::release);
      recordsOfB.forEach(Marker::release);
    }
    assertTrue(waits.get() > 0, "no barrier was enqueued: the nested path was not taken");
  }

  /** The threads deadlocked on monitors or locks now, with their stacks, or "no deadlock". */
  private static String deadlocks() {
    var threads = ManagementFactory.getThreadMXBean();
    long[] ids = threads.findDeadlockedThreads();
    if (ids == null) {
      return "no deadlock";
    }
    return "deadlocked: "
        + Arrays.stream(threads.getThreadInfo(ids, true, true))
            .map(ThreadInfo::toString)
            .collect(Collectors.joining());
  }
}
