package dev.openaccel.openreg.random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.OpenRegProvider;
import dev.openaccel.openreg.testing.WaitStrategies;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.WaitStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Model-based test of stream and event ordering: thousands of seeded random programs (launches,
 * records, blocks, stream waits, and stream, event and device synchronizations over four streams on
 * each of two devices) run on OpenReg under each wait strategy of its device threads; then every
 * ordering a program declares must hold in what the kernels observed, and every kernel must have
 * run exactly once.
 *
 * <p>Kernels take tickets from one atomic counter when they start and when they end, so "kernel a
 * ended before kernel b started" is {@code end[a] < start[b]}; a host synchronization takes a
 * ticket when it returns. Reproduce a failure with {@code -Dopenaccel.random-program.seed=SEED
 * -Dopenaccel.random-program.count=1}; the failure message names the seed.
 *
 * <p>The fault mode adds misbehaving kernels (throwing exceptions and errors of the JVM, restoring
 * interrupt flags, switching device and stream): every kernel must still start in a clean context,
 * every ordering must hold, no stream may hang, and each synchronization must report a failure
 * exactly when the model says one is due. With racing host threads that record and block one shared
 * event on the program's streams at the same time, the racers add waits the model does not know, so
 * there a synchronization must report every failure the model predicts and never invent one.
 */
class RandomProgramTest {
  static final long BASE_SEED = Long.getLong("openaccel.random-program.seed", 20_240_917L);
  static final int PROGRAMS = Integer.getInteger("openaccel.random-program.count", 5_000);
  static final int DEVICES = 2;
  private static final int STREAMS_PER_DEVICE = 4;
  static final int EVENTS = 3;
  static final long WAIT_SECONDS = 10;

  private static final int FAULTY_PROGRAMS = Math.max(1, PROGRAMS / 5);

  /** How a batch of programs runs. */
  private record Mode(boolean faults, int racers, int programs, WaitStrategy strategy) {}

  @ParameterizedTest
  @EnumSource(WaitStrategy.class)
  void randomProgramsKeepEveryDeclaredOrdering(WaitStrategy strategy) {
    runAll("random-programs", "", new Mode(false, 0, PROGRAMS, strategy));
  }

  @ParameterizedTest
  @EnumSource(WaitStrategy.class)
  void randomProgramsKeepEveryDeclaredOrderingUnderLaunchJitter(WaitStrategy strategy) {
    runAll(
        "random-programs-jitter",
        "openaccel.openreg.launch-jitter = 20us\nopenaccel.openreg.seed = " + BASE_SEED,
        new Mode(false, 0, PROGRAMS, strategy));
  }

  @ParameterizedTest
  @EnumSource(WaitStrategy.class)
  void faultyKernelsFailExactlyWhereTheContractSaysAndHarmNoOtherKernel(WaitStrategy strategy) {
    runAll("random-programs-faults", "", new Mode(true, 0, FAULTY_PROGRAMS, strategy));
  }

  @ParameterizedTest
  @EnumSource(WaitStrategy.class)
  void faultyKernelsWithRacingHostThreadsLoseNoFailureAndHangNothing(WaitStrategy strategy) {
    runAll("random-programs-racers", "", new Mode(true, 2, FAULTY_PROGRAMS, strategy));
  }

  private static void runAll(String systemName, String settings, Mode mode) {
    Config config =
        ConfigFactory.parseString(settings)
            .withFallback(WaitStrategies.config(mode.strategy()))
            .withFallback(
                ConfigFactory.parseString(
                    "openaccel.system-name = "
                        + systemName
                        + "\nopenaccel.openreg.device-count = 2"))
            .withFallback(ConfigFactory.parseResources("application-test.conf"));
    try (Accelerator accelerator = Accelerator.start(config)) {
      List<Stream> streams = streamsOf(accelerator);
      int[] streamDevices = streams.stream().mapToInt(Stream::deviceIndex).toArray();
      // Spinning device threads leave a 2-core machine little CPU for the program's own threads
      // and its simulated delays; a fifth of the programs keeps the run short.
      int programs =
          mode.strategy() == WaitStrategy.BUSY_SPIN
              ? Math.max(1, mode.programs() / 5)
              : mode.programs();
      int failuresReported = 0;
      for (int i = 0; i < programs; i++) {
        RandomProgram program =
            RandomProgram.generate(BASE_SEED + i, streamDevices, EVENTS, DEVICES, 20, 40);
        failuresReported += new Run(accelerator, streams, program, mode).execute();
      }
      if (mode.faults()) {
        assertTrue(
            failuresReported >= programs / 10,
            "the fault mode exercised too few failures: " + failuresReported);
      }
    }
  }

  /**
   * The streams random programs run on: per device its default stream, a new one, a new one of
   * priority 1 and one from the pool.
   */
  static List<Stream> streamsOf(Accelerator accelerator) {
    List<Stream> streams = new ArrayList<>();
    for (int d = 0; d < DEVICES; d++) {
      Device device = Device.of(OpenRegProvider.TYPE, d);
      streams.add(accelerator.defaultStream(device));
      streams.add(accelerator.newStream(device));
      streams.add(accelerator.newStream(device, 1));
      streams.add(accelerator.streamFromPool(device, false));
    }
    assertEquals(DEVICES * STREAMS_PER_DEVICE, streams.size());
    return streams;
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
    private final Mode mode;
    private final RandomProgram.Fault[] faults;
    private final boolean[] mustFail;
    private final Throwable[] reported;
    private final List<String> unclean = new CopyOnWriteArrayList<>();

    Run(Accelerator accelerator, List<Stream> streams, RandomProgram program, Mode mode) {
      this.accelerator = accelerator;
      this.streams = streams;
      this.program = program;
      this.mode = mode;
      int length = program.ops().size();
      this.faults = mode.faults() ? program.faults() : new RandomProgram.Fault[length];
      if (!mode.faults()) {
        Arrays.fill(faults, RandomProgram.Fault.NONE);
      }
      this.mustFail = program.mustFail(faults, EVENTS);
      this.reported = new Throwable[length];
      this.start = new AtomicLongArray(length);
      this.end = new AtomicLongArray(length);
      this.runs = new AtomicIntegerArray(length);
      this.returned = new long[length];
    }

    /** Runs the program and checks it; returns how many synchronizations reported a failure. */
    int execute() {
      for (int e = 0; e < EVENTS; e++) {
        EventOptions options = EventOptions.defaults().withTiming(e == 1).withBlocking(e == 2);
        events[e] = accelerator.newEvent(OpenRegProvider.TYPE, options);
      }
      Racers racers = new Racers(accelerator, streams, mode.racers(), program.seed());
      try {
        for (RandomProgram.Op op : program.ops()) {
          perform(op);
        }
        racers.stop();
        awaitAll();
        check();
        checkFailures();
        return (int) Arrays.stream(reported).filter(f -> f != null).count();
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(
            describe(e instanceof AssertionError ? e.getMessage() : e.toString()), e);
      } finally {
        racers.stop();
        for (Event event : events) {
          event.close();
        }
      }
    }

    private void perform(RandomProgram.Op op) {
      int i = op.index();
      switch (op.kind()) {
        case LAUNCH -> {
          Stream stream = streams.get(op.stream());
          stream.launch("op" + i, () -> kernel(i, op.spinNanos(), stream));
        }
        case RECORD -> events[op.event()].record(streams.get(op.stream()));
        case BLOCK -> events[op.event()].block(streams.get(op.stream()));
        case WAIT_STREAM -> streams.get(op.stream()).waitStream(streams.get(op.other()));
        case STREAM_SYNC -> {
          reported[i] = await(streams.get(op.stream()).synchronizeAsync(), op);
          returned[i] = tickets.incrementAndGet();
        }
        case EVENT_SYNC -> {
          try {
            if (!events[op.event()].synchronize(Duration.ofSeconds(WAIT_SECONDS))) {
              fail("hang: " + op + " did not return within " + WAIT_SECONDS + " s");
            }
          } catch (DeviceExecutionException failure) {
            reported[i] = failure;
          }
          returned[i] = tickets.incrementAndGet();
        }
        case DEVICE_SYNC -> {
          reported[i] =
              await(accelerator.synchronizeAsync(Device.of(OpenRegProvider.TYPE, op.device())), op);
          returned[i] = tickets.incrementAndGet();
        }
      }
    }

    private void kernel(int op, int spinNanos, Stream stream) {
      start.set(op, tickets.incrementAndGet());
      if (!accelerator.currentDevice().equals(stream.device())
          || !accelerator.currentStream().equals(stream)
          || Thread.currentThread().isInterrupted()) {
        unclean.add("op" + op + " started in " + accelerator.captureContext());
      }
      if (spinNanos > 0) {
        long until = System.nanoTime() + spinNanos;
        while (System.nanoTime() - until < 0) {
          Thread.onSpinWait();
        }
      }
      runs.incrementAndGet(op);
      end.set(op, tickets.incrementAndGet());
      misbehave(op);
    }

    private void misbehave(int op) {
      String what = "fault of op" + op;
      switch (faults[op]) {
        case NONE -> {}
        case THROWS_EXCEPTION -> throw new IllegalStateException(what);
        case THROWS_OUT_OF_MEMORY -> throw new OutOfMemoryError(what);
        case THROWS_STACK_OVERFLOW -> throw new StackOverflowError(what);
        case THROWS_INTERNAL_ERROR -> throw new InternalError(what);
        case RESTORES_INTERRUPT -> Thread.currentThread().interrupt();
        case SWITCHES_DEVICE_AND_STREAM -> {
          accelerator.setDeviceIndex((accelerator.currentDeviceIndex() + 1) % DEVICES);
          accelerator.setStream(streams.get(op % streams.size()));
        }
      }
    }

    private void awaitAll() {
      CompletableFuture<?>[] all = new CompletableFuture<?>[streams.size()];
      for (int s = 0; s < all.length; s++) {
        all[s] = streams.get(s).synchronizeAsync().toCompletableFuture();
      }
      for (CompletableFuture<?> sync : all) {
        await(sync, null); // may report failures the program never synchronized
      }
    }

    /** Waits, bounded; returns the failure the synchronization reported, or null. */
    private Throwable await(CompletionStage<?> stage, RandomProgram.Op op) {
      try {
        stage.toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
        return null;
      } catch (TimeoutException e) {
        String what = op == null ? "the final synchronization" : op.toString();
        throw new AssertionError(
            "hang: " + what + " did not complete within " + WAIT_SECONDS + " s");
      } catch (ExecutionException e) {
        if (e.getCause() instanceof DeviceExecutionException failure) {
          return failure;
        }
        throw new AssertionError("synchronization failed: " + e, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }

    /** Every failure reported where the model says, naming a kernel that failed. */
    private void checkFailures() {
      if (!unclean.isEmpty()) {
        fail("kernels started in a context another kernel left behind: " + unclean);
      }
      for (RandomProgram.Op op : program.ops()) {
        int i = op.index();
        Throwable failure = reported[i];
        if (mustFail[i] && failure == null) {
          fail("lost failure: " + op + " returned normally, but a kernel it covers failed");
        }
        if (failure != null && mode.racers() == 0 && !mustFail[i]) {
          fail(op + " reported a failure the model does not predict: " + failure);
        }
        if (failure != null && !namesAFailedKernel(failure)) {
          fail(op + " reported a failure of no failed kernel: " + failure);
        }
      }
    }

    private boolean namesAFailedKernel(Throwable failure) {
      for (int k = 0; k < faults.length; k++) {
        if (faults[k].fails() && failure.getMessage().contains("kernel 'op" + k + "'")) {
          return true;
        }
      }
      return false;
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
