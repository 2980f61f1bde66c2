package dev.openaccel.openreg.random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.OpenRegProvider;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

/**
 * Model-based test of stream and event ordering: thousands of seeded random programs (launches,
 * records, blocks, stream waits, and stream, event and device synchronizations over four streams on
 * each of two devices) run on OpenReg; then every ordering a program declares must hold in what the
 * kernels observed, and every kernel must have run exactly once.
 *
 * <p>Kernels take tickets from one atomic counter when they start and when they end, so "kernel a
 * ended before kernel b started" is {@code end[a] < start[b]}; a host synchronization takes a
 * ticket when it returns. Reproduce a failure with {@code -Dopenaccel.random-program.seed=SEED
 * -Dopenaccel.random-program.count=1}; the failure message names the seed.
 */
class RandomProgramTest {
  private static final long BASE_SEED = Long.getLong("openaccel.random-program.seed", 20_240_917L);
  private static final int PROGRAMS = Integer.getInteger("openaccel.random-program.count", 5_000);
  private static final int DEVICES = 2;
  private static final int STREAMS_PER_DEVICE = 4;
  private static final int EVENTS = 3;
  private static final long WAIT_SECONDS = 10;

  @Test
  void randomProgramsKeepEveryDeclaredOrdering() {
    runAll("random-programs", "");
  }

  @Test
  void randomProgramsKeepEveryDeclaredOrderingUnderLaunchJitter() {
    runAll(
        "random-programs-jitter",
        "openaccel.openreg.launch-jitter = 20us\nopenaccel.openreg.seed = " + BASE_SEED);
  }

  private static void runAll(String systemName, String settings) {
    Config config =
        ConfigFactory.parseString(settings)
            .withFallback(
                ConfigFactory.parseString(
                    "openaccel.system-name = "
                        + systemName
                        + "\nopenaccel.openreg.device-count = 2"))
            .withFallback(ConfigFactory.parseResources("application-test.conf"));
    try (Accelerator accelerator = Accelerator.start(config)) {
      List<Stream> streams = new ArrayList<>();
      for (int d = 0; d < DEVICES; d++) {
        Device device = Device.of(OpenRegProvider.TYPE, d);
        streams.add(accelerator.defaultStream(device));
        streams.add(accelerator.newStream(device));
        streams.add(accelerator.newStream(device, 1));
        streams.add(accelerator.streamFromPool(device, false));
      }
      assertEquals(DEVICES * STREAMS_PER_DEVICE, streams.size());
      int[] streamDevices = streams.stream().mapToInt(Stream::deviceIndex).toArray();
      for (int i = 0; i < PROGRAMS; i++) {
        RandomProgram program =
            RandomProgram.generate(BASE_SEED + i, streamDevices, EVENTS, DEVICES, 20, 40);
        new Run(accelerator, streams, program).execute();
      }
    }
  }

  /** One execution of one program: its kernels' tickets and the checks on them. */
  private static final class Run {
    private final Accelerator accelerator;
    private final List<Stream> streams;
    private final RandomProgram program;
    private final AtomicLong tickets = new AtomicLong();
    private final AtomicLongArray start;
    private final AtomicLongArray end;
    private final AtomicIntegerArray runs;
    private final long[] returned;
    private final Event[] events = new Event[EVENTS];

    Run(Accelerator accelerator, List<Stream> streams, RandomProgram program) {
      this.accelerator = accelerator;
      this.streams = streams;
      this.program = program;
      int length = program.ops().size();
      this.start = new AtomicLongArray(length);
      this.end = new AtomicLongArray(length);
      this.runs = new AtomicIntegerArray(length);
      this.returned = new long[length];
    }

    void execute() {
      for (int e = 0; e < EVENTS; e++) {
        EventOptions options = EventOptions.defaults().withTiming(e == 1).withBlocking(e == 2);
        events[e] = accelerator.newEvent(OpenRegProvider.TYPE, options);
      }
      try {
        for (RandomProgram.Op op : program.ops()) {
          perform(op);
        }
        awaitAll();
        check();
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(
            describe(e instanceof AssertionError ? e.getMessage() : e.toString()), e);
      } finally {
        for (Event event : events) {
          event.close();
        }
      }
    }

    private void perform(RandomProgram.Op op) {
      int i = op.index();
      switch (op.kind()) {
        case LAUNCH -> streams.get(op.stream()).launch("op" + i, () -> kernel(i, op.spinNanos()));
        case RECORD -> events[op.event()].record(streams.get(op.stream()));
        case BLOCK -> events[op.event()].block(streams.get(op.stream()));
        case WAIT_STREAM -> streams.get(op.stream()).waitStream(streams.get(op.other()));
        case STREAM_SYNC -> {
          await(streams.get(op.stream()).synchronizeAsync(), op);
          returned[i] = tickets.incrementAndGet();
        }
        case EVENT_SYNC -> {
          if (!events[op.event()].synchronize(Duration.ofSeconds(WAIT_SECONDS))) {
            fail("hang: " + op + " did not return within " + WAIT_SECONDS + " s");
          }
          returned[i] = tickets.incrementAndGet();
        }
        case DEVICE_SYNC -> {
          await(accelerator.synchronizeAsync(Device.of(OpenRegProvider.TYPE, op.device())), op);
          returned[i] = tickets.incrementAndGet();
        }
      }
    }

    private void kernel(int op, int spinNanos) {
      start.set(op, tickets.incrementAndGet());
      if (spinNanos > 0) {
        long until = System.nanoTime() + spinNanos;
        while (System.nanoTime() - until < 0) {
          Thread.onSpinWait();
        }
      }
      runs.incrementAndGet(op);
      end.set(op, tickets.incrementAndGet());
    }

    private void awaitAll() {
      CompletableFuture<?>[] all = new CompletableFuture<?>[streams.size()];
      for (int s = 0; s < all.length; s++) {
        all[s] = streams.get(s).synchronizeAsync().toCompletableFuture();
      }
      await(CompletableFuture.allOf(all), null);
    }

    private void await(CompletionStage<?> stage, RandomProgram.Op op) {
      try {
        stage.toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        String what = op == null ? "the final synchronization" : op.toString();
        fail("hang: " + what + " did not complete within " + WAIT_SECONDS + " s");
      } catch (Exception e) {
        throw new AssertionError("synchronization failed: " + e, e);
      }
    }

    private void check() {
      for (RandomProgram.Op op : program.ops()) {
        int i = op.index();
        boolean kernel = op.kind() == RandomProgram.Kind.LAUNCH;
        if (runs.get(i) != (kernel ? 1 : 0)) {
          fail(
              "op "
                  + i
                  + " ran "
                  + runs.get(i)
                  + " times by the time every stream had synchronized");
        }
        BitSet before = program.mustEndBefore(i);
        long bound = kernel ? start.get(i) : returned[i];
        for (int p = before.nextSetBit(0); p >= 0; p = before.nextSetBit(p + 1)) {
          if (end.get(p) >= bound) {
            fail(
                "ordering violated: kernel "
                    + p
                    + " (ended at ticket "
                    + end.get(p)
                    + ") must end before "
                    + op
                    + (kernel ? " starts" : " returns")
                    + " (ticket "
                    + bound
                    + ")");
          }
        }
      }
    }

    private String describe(String problem) {
      long seed = program.seed();
      return "random program with seed "
          + seed
          + " failed: "
          + problem
          + "\nrerun with -Dopenaccel.random-program.seed="
          + seed
          + " -Dopenaccel.random-program.count=1\n"
          + program;
    }
  }
}
