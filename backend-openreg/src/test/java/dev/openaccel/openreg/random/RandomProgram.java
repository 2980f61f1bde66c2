package dev.openaccel.openreg.random;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A random program over streams of several devices and a few events, generated from a seed, with
 * the orderings it declares. The model follows each stream's frontier: the set of kernels that work
 * enqueued next on that stream must wait for. Program order adds each kernel to its stream's
 * frontier; a record captures the frontier (one generation); a block adds the generation current at
 * block time; a stream wait adds the other stream's frontier. Host synchronizations must return
 * only after the kernels they cover have ended.
 */
final class RandomProgram {

  enum Kind {
    LAUNCH,
    RECORD,
    BLOCK,
    WAIT_STREAM,
    STREAM_SYNC,
    EVENT_SYNC,
    DEVICE_SYNC;

    /** Whether the host waits in this op (a synchronization). */
    boolean synchronizesHost() {
      return this == STREAM_SYNC || this == EVENT_SYNC || this == DEVICE_SYNC;
    }
  }

  /** One operation; unused fields are -1. */
  record Op(int index, Kind kind, int stream, int other, int event, int device, int spinNanos) {
    @Override
    public String toString() {
      return switch (kind) {
        case LAUNCH -> index + ": launch on s" + stream + " (spin " + spinNanos + " ns)";
        case RECORD -> index + ": record e" + event + " on s" + stream;
        case BLOCK -> index + ": block s" + stream + " on e" + event;
        case WAIT_STREAM -> index + ": s" + stream + " waits for s" + other;
        case STREAM_SYNC -> index + ": synchronize s" + stream;
        case EVENT_SYNC -> index + ": synchronize e" + event;
        case DEVICE_SYNC -> index + ": synchronize device " + device;
      };
    }
  }

  private final long seed;
  private final List<Op> ops;
  private final List<BitSet> mustEndBefore;
  private final int[] streamDevices;

  private RandomProgram(long seed, List<Op> ops, List<BitSet> mustEndBefore, int[] streamDevices) {
    this.seed = seed;
    this.ops = Collections.unmodifiableList(ops);
    this.mustEndBefore = Collections.unmodifiableList(mustEndBefore);
    this.streamDevices = streamDevices.clone();
  }

  /** What a kernel does wrong after its work, in the fault mode. */
  enum Fault {
    NONE,
    THROWS_EXCEPTION,
    THROWS_OUT_OF_MEMORY,
    THROWS_STACK_OVERFLOW,
    THROWS_INTERNAL_ERROR,
    RESTORES_INTERRUPT,
    SWITCHES_DEVICE_AND_STREAM;

    boolean fails() {
      return name().startsWith("THROWS");
    }
  }

  /**
   * The faults of this program's kernels, drawn from a source of their own so that the ops of a
   * seed are the same with and without faults: about one kernel in five misbehaves.
   */
  Fault[] faults() {
    SplittableRandom random = new SplittableRandom(~seed);
    Fault[] faults = new Fault[length()];
    Fault[] kinds = Fault.values();
    for (Op op : ops) {
      faults[op.index()] =
          op.kind() == Kind.LAUNCH && random.nextInt(5) == 0
              ? kinds[random.nextInt(1, kinds.length)]
              : Fault.NONE;
    }
    return faults;
  }

  /**
   * For each host synchronization, whether it must report a failure, given {@code faults}: a
   * failing kernel is reported by the next synchronization of its stream (or of its device), by the
   * synchronize of an event recorded after it on that stream, and it travels through waits to what
   * the waiting stream reports next.
   */
  boolean[] mustFail(Fault[] faults, int events) {
    boolean[] unreported = new boolean[streamDevices.length];
    Boolean[] recordFailed = new Boolean[events]; // null until recorded
    boolean[] expect = new boolean[length()];
    for (Op op : ops) {
      int s = op.stream();
      switch (op.kind()) {
        case LAUNCH -> unreported[s] |= faults[op.index()].fails();
        case RECORD -> recordFailed[op.event()] = unreported[s];
        case BLOCK -> unreported[s] |= Boolean.TRUE.equals(recordFailed[op.event()]);
        case WAIT_STREAM -> unreported[s] |= s != op.other() && unreported[op.other()];
        case STREAM_SYNC -> {
          expect[op.index()] = unreported[s];
          unreported[s] = false;
        }
        case EVENT_SYNC -> expect[op.index()] = Boolean.TRUE.equals(recordFailed[op.event()]);
        case DEVICE_SYNC -> {
          for (int t = 0; t < unreported.length; t++) {
            if (streamDevices[t] == op.device()) {
              expect[op.index()] |= unreported[t];
              unreported[t] = false;
            }
          }
        }
      }
    }
    return expect;
  }

  long seed() {
    return seed;
  }

  List<Op> ops() {
    return ops;
  }

  /**
   * The kernels (by op index) that must have ended before op {@code index} starts (a launch) or
   * returns (a host synchronization); empty for other ops.
   */
  BitSet mustEndBefore(int index) {
    return (BitSet) mustEndBefore.get(index).clone();
  }

  /**
   * Generates a program of {@code minOps..maxOps} operations.
   *
   * @param streamDevices the device of each stream the program may use
   * @param events the number of event slots
   * @param devices the number of devices
   */
  static RandomProgram generate(
      long seed, int[] streamDevices, int events, int devices, int minOps, int maxOps) {
    SplittableRandom random = new SplittableRandom(seed);
    int length = random.nextInt(minOps, maxOps + 1);
    int streams = streamDevices.length;
    int[] eventDevice = new int[events];
    Arrays.fill(eventDevice, -1);
    List<Op> ops = new ArrayList<>(length);
    for (int i = 0; i < length; i++) {
      int roll = random.nextInt(100);
      int s = random.nextInt(streams);
      int e = random.nextInt(events);
      if (roll < 45) {
        int spin = random.nextBoolean() ? 0 : random.nextInt(1_000, 5_001);
        ops.add(new Op(i, Kind.LAUNCH, s, -1, -1, -1, spin));
      } else if (roll < 60) {
        if (eventDevice[e] >= 0) {
          s = streamOn(random, streamDevices, eventDevice[e]);
        }
        ops.add(new Op(i, Kind.RECORD, s, -1, e, -1, -1));
        eventDevice[e] = streamDevices[s];
      } else if (roll < 75) {
        ops.add(new Op(i, Kind.BLOCK, s, -1, e, -1, -1));
      } else if (roll < 83) {
        ops.add(new Op(i, Kind.WAIT_STREAM, s, random.nextInt(streams), -1, -1, -1));
      } else if (roll < 89) {
        ops.add(new Op(i, Kind.STREAM_SYNC, s, -1, -1, -1, -1));
      } else if (roll < 95) {
        ops.add(new Op(i, Kind.EVENT_SYNC, -1, -1, e, -1, -1));
      } else {
        ops.add(new Op(i, Kind.DEVICE_SYNC, -1, -1, -1, random.nextInt(devices), -1));
      }
    }
    return new RandomProgram(seed, ops, model(ops, streamDevices, length), streamDevices);
  }

  /**
   * This program without op {@code index}: the other ops keep their indices, and the orderings are
   * those the remaining ops declare.
   */
  RandomProgram without(int index) {
    List<Op> rest = new ArrayList<>(ops);
    rest.removeIf(op -> op.index() == index);
    return new RandomProgram(seed, rest, model(rest, streamDevices, length()), streamDevices);
  }

  /**
   * The kernels ordered before op {@code index} by what the program declares, host synchronizations
   * included: work enqueued after a synchronization returned is ordered after the kernels it
   * covered. A superset of {@link #mustEndBefore}.
   */
  BitSet orderedBefore(int index) {
    BitSet ordered = mustEndBefore(index);
    for (Op op : ops) {
      if (op.index() < index && op.kind().synchronizesHost()) {
        ordered.or(mustEndBefore.get(op.index()));
      }
    }
    return ordered;
  }

  /** The number of op indices: the length of the program as generated. */
  int length() {
    return mustEndBefore.size();
  }

  // Follows each stream's frontier through the ops; see the class comment.
  private static List<BitSet> model(List<Op> ops, int[] streamDevices, int length) {
    BitSet[] frontier = new BitSet[streamDevices.length];
    for (int s = 0; s < frontier.length; s++) {
      frontier[s] = new BitSet();
    }
    int events = ops.stream().mapToInt(Op::event).max().orElse(-1) + 1;
    BitSet[] captured = new BitSet[events]; // null until recorded
    List<BitSet> mustEnd = new ArrayList<>(length);
    for (int i = 0; i < length; i++) {
      mustEnd.add(new BitSet());
    }
    for (Op op : ops) {
      int s = op.stream();
      BitSet before = mustEnd.get(op.index());
      switch (op.kind()) {
        case LAUNCH -> {
          before.or(frontier[s]);
          frontier[s].set(op.index());
        }
        case RECORD -> captured[op.event()] = (BitSet) frontier[s].clone();
        case BLOCK -> {
          if (captured[op.event()] != null) {
            frontier[s].or(captured[op.event()]);
          }
        }
        case WAIT_STREAM -> frontier[s].or(frontier[op.other()]);
        case STREAM_SYNC -> before.or(frontier[s]);
        case EVENT_SYNC -> {
          if (captured[op.event()] != null) {
            before.or(captured[op.event()]);
          }
        }
        case DEVICE_SYNC -> {
          for (int t = 0; t < frontier.length; t++) {
            if (streamDevices[t] == op.device()) {
              before.or(frontier[t]);
            }
          }
        }
      }
    }
    return mustEnd;
  }

  private static int streamOn(SplittableRandom random, int[] streamDevices, int device) {
    while (true) {
      int s = random.nextInt(streamDevices.length);
      if (streamDevices[s] == device) {
        return s;
      }
    }
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("program of seed " + seed + ":");
    for (Op op : ops) {
      text.append("\n  ").append(op);
    }
    return text.toString();
  }
}
