package dev.openaccel.openreg.random;

import static dev.openaccel.openreg.random.RandomProgramTest.BASE_SEED;
import static dev.openaccel.openreg.random.RandomProgramTest.DEVICES;
import static dev.openaccel.openreg.random.RandomProgramTest.EVENTS;
import static dev.openaccel.openreg.random.RandomProgramTest.PROGRAMS;
import static dev.openaccel.openreg.random.RandomProgramTest.WAIT_SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.OpenRegProvider;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.UnsynchronizedAccessException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The random programs of {@link RandomProgramTest} under {@code openaccel.sanitizer = throw}, with
 * buffers whose accesses need exactly the orderings a program declares.
 *
 * <p>Each kernel owns a buffer of its device and launches with it; it also launches with every
 * buffer of its device whose latest access (by an earlier kernel) the model orders before it:
 * program order, record then block, stream waits, and host synchronizations, which are blocking
 * here, as the sanitizer only learns from those. A kernel launch reads and writes each of its
 * buffers, so every access conflicts with the buffer's previous one; the rule keeps each buffer's
 * accesses a chain of the model's order, so a correct program has no race, and removing a wait that
 * one link of a chain needs leaves an access unordered after the previous one. Kernels of another
 * device never share a buffer (a kernel's buffers are of its stream's device), so a cross-device
 * wait matters only as a link between kernels of one device.
 *
 * <p>The mutated programs each drop one wait (block, stream wait, or stream, event or device
 * synchronize) chosen at random among those whose removal leaves some access unordered in the
 * model; the sanitizer must throw at the launch of the first such kernel, naming it, its stream,
 * the kernel of the conflicting access and that kernel's stream. Every kind of wait is in sight:
 * the synchronizes are the blocking ones, and every stream, of either device, is of the one OpenReg
 * engine, so each kind must be reported every time, and each must have been dropped at least once.
 */
class SanitizedRandomProgramTest {
  // A fifth of the programs: enough to drop each kind of wait many times.
  private static final int MUTATED = Math.max(1, PROGRAMS / 5);
  private static final int SIZE = 8;

  private static Accelerator accelerator;
  private static List<Stream> streams;
  private static int[] streamDevices;
  private static ExecutorService host;

  @BeforeAll
  static void start() {
    accelerator =
        Accelerator.start(
            ConfigFactory.parseString(
                    "openaccel.system-name = sanitized-random-programs\n"
                        + "openaccel.openreg.device-count = 2\n"
                        + "openaccel.sanitizer = throw")
                .withFallback(ConfigFactory.parseResources("application-test.conf")));
    streams = RandomProgramTest.streamsOf(accelerator);
    streamDevices = streams.stream().mapToInt(Stream::deviceIndex).toArray();
    host = Executors.newSingleThreadExecutor();
  }

  @AfterAll
  static void stop() {
    host.shutdownNow();
    accelerator.close();
  }

  @Test
  void correctProgramsHaveNoUnsynchronizedAccess() {
    for (int i = 0; i < PROGRAMS; i++) {
      RandomProgram program = generate(BASE_SEED + i);
      UnsynchronizedAccessException race = run(program, accessesOf(program)).race();
      if (race != null) {
        fail("a correct " + program + "\nwas reported: " + race.getMessage(), race);
      }
    }
  }

  @Test
  void removingAWaitTheAccessesNeedIsReportedAtTheFirstUnorderedAccess() {
    Map<RandomProgram.Kind, Integer> reported = new EnumMap<>(RandomProgram.Kind.class);
    int withoutNeededWait = 0;
    for (int i = 0; i < MUTATED; i++) {
      RandomProgram program = generate(BASE_SEED + i);
      List<List<Integer>> accesses = accessesOf(program);
      List<RandomProgram.Op> needed = new ArrayList<>();
      for (RandomProgram.Op op : program.ops()) {
        boolean wait =
            op.kind() != RandomProgram.Kind.LAUNCH && op.kind() != RandomProgram.Kind.RECORD;
        if (wait && firstRace(program.without(op.index()), accesses) != null) {
          needed.add(op);
        }
      }
      if (needed.isEmpty()) {
        withoutNeededWait++;
        continue;
      }
      RandomProgram.Op removed =
          needed.get(new SplittableRandom(program.seed()).nextInt(needed.size()));
      RandomProgram mutated = program.without(removed.index());
      int[] expected = firstRace(mutated, accesses);
      Outcome outcome = run(mutated, accesses);
      String context = "without " + removed + ", " + program;
      assertRaceAt(outcome, expected, context);
      reported.merge(removed.kind(), 1, Integer::sum);
    }
    int total = reported.values().stream().mapToInt(Integer::intValue).sum();
    System.out.printf(
        "sanitized random programs: %d mutated, %d reported by kind %s, %d had no needed wait%n",
        MUTATED, total, reported, withoutNeededWait);
    assertEquals(MUTATED, total + withoutNeededWait);
    for (RandomProgram.Kind kind : RandomProgram.Kind.values()) {
      if (kind != RandomProgram.Kind.LAUNCH && kind != RandomProgram.Kind.RECORD) {
        assertTrue(
            reported.containsKey(kind), "no program dropped a needed " + kind + ": " + reported);
      }
    }
  }

  private static RandomProgram generate(long seed) {
    return RandomProgram.generate(seed, streamDevices, EVENTS, DEVICES, 20, 40);
  }

  /**
   * For each op index, the owners of the buffers its launch passes (empty for other ops): its own
   * buffer first, then, in ascending order, every buffer of its device whose latest access the
   * model orders before it.
   */
  private static List<List<Integer>> accessesOf(RandomProgram program) {
    int[] latest = new int[program.length()];
    List<List<Integer>> accesses = new ArrayList<>();
    List<Integer> owners = new ArrayList<>();
    for (int i = 0; i < program.length(); i++) {
      accesses.add(new ArrayList<>());
    }
    for (RandomProgram.Op op : program.ops()) {
      if (op.kind() == RandomProgram.Kind.LAUNCH) {
        int k = op.index();
        BitSet before = program.orderedBefore(k);
        List<Integer> used = accesses.get(k);
        used.add(k);
        for (int owner : owners) {
          if (deviceOf(program, owner) == streamDevices[op.stream()] && before.get(latest[owner])) {
            used.add(owner);
          }
        }
        used.forEach(owner -> latest[owner] = k);
        owners.add(k);
      }
    }
    return accesses;
  }

  /**
   * The first access {@code program} leaves unordered after the buffer's previous access, as the
   * sanitizer checks them: {kernel, earlier kernel}; null if every access is ordered.
   */
  private static int[] firstRace(RandomProgram program, List<List<Integer>> accesses) {
    int[] latest = new int[program.length()];
    for (RandomProgram.Op op : program.ops()) {
      int k = op.index();
      if (op.kind() != RandomProgram.Kind.LAUNCH) {
        continue;
      }
      BitSet before = program.orderedBefore(k);
      for (int owner : accesses.get(k)) {
        int previous = owner == k ? k : latest[owner];
        if (previous != k && streamOf(program, previous) != op.stream() && !before.get(previous)) {
          return new int[] {k, previous};
        }
      }
      accesses.get(k).forEach(owner -> latest[owner] = k);
    }
    return null;
  }

  private static void assertRaceAt(Outcome outcome, int[] expected, String context) {
    UnsynchronizedAccessException race = outcome.race();
    if (race == null) {
      fail("no report " + context);
    }
    String message = race.getMessage();
    int k = expected[0];
    int earlier = expected[1];
    assertEquals(k, outcome.at(), "reported at another op: " + message + "\n" + context);
    Stream racing = streams.get(streamOf(outcome.program(), k));
    Stream other = streams.get(streamOf(outcome.program(), earlier));
    String text = message + "\n" + context;
    assertTrue(message.contains("kernel 'op" + k + "' (write) at position "), text);
    assertTrue(message.contains(" of " + racing + " is not ordered after kernel 'op"), text);
    assertTrue(message.contains("after kernel 'op" + earlier + "' (write) at position "), text);
    assertTrue(message.contains(" of " + other + "; add waitEvent("), text);
  }

  /** How a run ended: the race reported, if any, and the op whose call threw it (-1 if none). */
  private record Outcome(RandomProgram program, UnsynchronizedAccessException race, int at) {}

  /** Runs {@code program} until the sanitizer throws; then synchronizes and frees everything. */
  private static Outcome run(RandomProgram program, List<List<Integer>> accesses) {
    DeviceBuffer[] buffers = new DeviceBuffer[program.length()];
    Event[] events = new Event[EVENTS];
    for (int e = 0; e < EVENTS; e++) {
      EventOptions options = EventOptions.defaults().withTiming(e == 1).withBlocking(e == 2);
      events[e] = accelerator.newEvent(OpenRegProvider.TYPE, options);
    }
    try {
      for (RandomProgram.Op op : program.ops()) {
        try {
          perform(op, buffers, events, accesses);
        } catch (UnsynchronizedAccessException race) {
          return new Outcome(program, race, op.index());
        }
      }
      return new Outcome(program, null, -1);
    } finally {
      for (int d = 0; d < DEVICES; d++) {
        Device device = Device.of(OpenRegProvider.TYPE, d);
        bounded(() -> accelerator.synchronize(device), "synchronize " + device);
      }
      for (DeviceBuffer buffer : buffers) {
        if (buffer != null) {
          buffer.close();
        }
      }
      for (Event event : events) {
        event.close();
      }
    }
  }

  private static void perform(
      RandomProgram.Op op, DeviceBuffer[] buffers, Event[] events, List<List<Integer>> accesses) {
    int i = op.index();
    Stream stream = op.stream() < 0 ? null : streams.get(op.stream());
    switch (op.kind()) {
      case LAUNCH -> {
        buffers[i] = accelerator.allocate(stream.device(), SIZE);
        DeviceBuffer[] used =
            accesses.get(i).stream().map(o -> buffers[o]).toArray(DeviceBuffer[]::new);
        stream.launch("op" + i, context -> {}, used);
      }
      case RECORD -> events[op.event()].record(stream);
      case BLOCK -> events[op.event()].block(stream);
      case WAIT_STREAM -> stream.waitStream(streams.get(op.other()));
      case STREAM_SYNC -> bounded(stream::synchronize, op.toString());
      case EVENT_SYNC -> {
        if (!events[op.event()].synchronize(Duration.ofSeconds(WAIT_SECONDS))) {
          fail("hang: " + op + " did not return within " + WAIT_SECONDS + " s");
        }
      }
      case DEVICE_SYNC -> {
        Device device = Device.of(OpenRegProvider.TYPE, op.device());
        bounded(() -> accelerator.synchronize(device), op.toString());
      }
    }
  }

  /** Runs a blocking synchronize on the host thread of this test and waits for it, bounded. */
  private static void bounded(Runnable synchronize, String what) {
    try {
      host.submit(synchronize).get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(what + " failed or did not return within " + WAIT_SECONDS + " s", e);
    }
  }

  private static int streamOf(RandomProgram program, int kernel) {
    return program.ops().stream()
        .filter(o -> o.index() == kernel)
        .findFirst()
        .orElseThrow()
        .stream();
  }

  private static int deviceOf(RandomProgram program, int kernel) {
    return streamDevices[streamOf(program, kernel)];
  }
}
