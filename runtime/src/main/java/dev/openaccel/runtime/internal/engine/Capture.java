package dev.openaccel.runtime.internal.engine;

import static dev.openaccel.runtime.internal.engine.StreamQueue.CAPTURING;
import static dev.openaccel.runtime.internal.engine.StreamQueue.CLOSING;
import static dev.openaccel.runtime.internal.engine.StreamQueue.STOPPED;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Graph;
import dev.openaccel.runtime.GraphCapture;
import dev.openaccel.runtime.GraphNode;
import dev.openaccel.runtime.Stream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A capture in progress ({@link Stream#beginCapture}): the streams that joined it, as lanes, and
 * the nodes enqueued on them so far. The streams' queues divert their work here while their state
 * word says {@code CAPTURING} ({@link StreamQueue}); records and waits reach it from {@link
 * EngineEvents} and {@link StreamWaits} before they would touch an event or a queue. Internal.
 *
 * <p>Owns: the lanes, the nodes, the records made in the capture and whether it ended, all guarded
 * by this object's monitor (several threads may enqueue on the captured streams).
 */
final class Capture implements GraphCapture {
  static final String NOT_PERMITTED = "operation not permitted when stream is capturing: ";

  private final ActorEngine engine;
  private final List<StreamQueue> lanes = new ArrayList<>();
  private final List<CapturedNode> nodes = new ArrayList<>();
  private final List<Integer> lastOfLane = new ArrayList<>();
  private final Map<EngineEvent, Integer> recorded = new HashMap<>(); // each one's latest record
  private final Map<StreamQueue, List<Buffer>> using = new HashMap<>(); // by the next node there
  private boolean ended;

  private Capture(ActorEngine engine) {
    this.engine = engine;
  }

  /**
   * Starts capturing {@code origin}.
   *
   * @throws IllegalStateException if it is captured already or accepts no more work
   */
  static Capture begin(StreamQueue origin) {
    Capture capture = new Capture(origin.engine());
    capture.join(origin);
    origin.engine().captures().add(capture);
    return capture;
  }

  @Override
  public Stream stream() {
    return lanes.get(0).stream();
  }

  /** The lane of {@code stream}, which must be one of this capture's. */
  private synchronized int laneOf(StreamQueue stream) {
    int lane = lanes.indexOf(stream);
    if (lane < 0 || ended) {
      throw new IllegalStateException(stream.stream() + " is not in " + this);
    }
    return lane;
  }

  private int join(StreamQueue stream) {
    if (stream.engine() != engine) {
      throw new IllegalStateException(
          Capture.NOT_PERMITTED + stream.stream() + " of another backend joining " + this);
    }
    divert(stream); // throws if captured by another capture or closed
    lanes.add(stream);
    lastOfLane.add(-1);
    return lanes.size() - 1;
  }

  /**
   * Adds a node on {@code stream}'s lane after its lane's last one and {@code waitsFor} (or -1).
   */
  private int add(
      StreamQueue stream, GraphNode.Kind kind, String name, int waitsFor, CapturedNode.Work work) {
    int lane = laneOf(stream);
    List<Integer> dependencies = new ArrayList<>(2);
    if (lastOfLane.get(lane) >= 0) {
      dependencies.add(lastOfLane.get(lane));
    }
    if (waitsFor >= 0) {
      dependencies.add(waitsFor);
    }
    int index = nodes.size();
    GraphNode node = new GraphNode(index, kind, name, lane, stream.stream().device(), dependencies);
    List<Buffer> buffers = work instanceof CapturedNode.Wait ? null : using.remove(stream);
    nodes.add(new CapturedNode(node, work, buffers == null ? List.of() : buffers));
    lastOfLane.set(lane, index);
    return index;
  }

  /**
   * Gives {@code item}, which {@code stream}'s queue refused with state {@code s}, to the stream's
   * capture: true if it took it (or refused it: then this throws, the item settled), false if the
   * stream is no longer captured.
   */
  static boolean took(StreamQueue stream, WorkItem item, long s) {
    Capture into = stream.capture();
    if ((s & CAPTURING) == 0 || into == null) {
      return false;
    }
    try {
      into.enqueued(stream, item);
    } catch (RuntimeException refused) {
      item.reject(new DeviceExecutionException(refused.getMessage(), refused));
      throw refused;
    }
    return true;
  }

  /** Keeps {@code used} as the buffers of the next node captured on {@code stream}. */
  synchronized void uses(StreamQueue stream, Buffer... used) {
    using.put(stream, List.of(used));
  }

  /** Captures a kernel or copy diverted from {@code stream}'s queue. */
  synchronized void enqueued(StreamQueue stream, WorkItem item) {
    CapturedNode.Work work = CapturedNode.workOf(item); // throws for what cannot be replayed
    String name = WorkItem.workName(item); // workOf took only kernels and copies
    add(stream, CapturedNode.kindOf(name), name, -1, work);
    if (work instanceof CapturedNode.Device device) {
      device.template().work().discard(); // a template holds nothing: a graph has no close
    }
  }

  /** Captures a record of {@code event} on {@code stream}. */
  synchronized void record(EngineEvent event, StreamQueue stream) {
    int node =
        add(stream, GraphNode.Kind.RECORD, "record " + event, -1, new CapturedNode.Record(event));
    recorded.put(event, node);
  }

  /** Whether {@code event}'s latest record was made in this capture. */
  synchronized boolean recordedHere(EngineEvent event) {
    return !ended && recorded.containsKey(event);
  }

  /**
   * Captures a wait of {@code stream} for {@code event}'s latest record in this capture; a stream
   * not captured yet joins the capture.
   *
   * @throws IllegalStateException if the event's latest record was not made in this capture
   */
  synchronized void block(EngineEvent event, StreamQueue stream) {
    Integer record = recorded.get(event);
    if (record == null) {
      throw new IllegalStateException(
          NOT_PERMITTED
              + "waiting on "
              + event
              + ", which was recorded outside the capture of "
              + stream());
    }
    waitOn(stream, record, "wait for " + event);
  }

  /** Captures {@code self} waiting for the work captured on {@code other} so far. */
  synchronized void waitStream(StreamQueue self, StreamQueue other) {
    if (!lanes.contains(other)) {
      throw new IllegalStateException(
          NOT_PERMITTED
              + "waitStream("
              + other.stream()
              + "): its work is outside the capture of "
              + stream());
    }
    int end = add(other, GraphNode.Kind.RECORD, "end of " + other.stream(), -1, CapturedNode.MARK);
    waitOn(self, end, "wait for " + other.stream());
  }

  private void waitOn(StreamQueue stream, int record, String name) {
    if (!lanes.contains(stream)) {
      join(stream);
    }
    add(stream, GraphNode.Kind.WAIT, name, record, new CapturedNode.Wait(record));
  }

  @Override
  public synchronized Graph end() {
    if (ended) {
      throw new IllegalStateException(this + " has ended");
    }
    List<String> unjoined = Joins.unjoined(nodes, lastOfLane, lanes);
    finish();
    if (!unjoined.isEmpty()) {
      throw new IllegalStateException(
          "the capture of "
              + stream()
              + " cannot end: "
              + String.join("; ", unjoined)
              + " (make "
              + stream()
              + " wait for them, with waitEvent or waitStream)");
    }
    return new EngineGraph(engine, List.copyOf(lanes), List.copyOf(nodes));
  }

  @Override
  public synchronized void close() {
    if (!ended) {
      finish();
    }
  }

  private void finish() {
    ended = true;
    engine.captures().remove(this);
    lanes.forEach(this::undivert);
  }

  // Makes stream's queue give its user work to this capture: the slot first, then CAPTURING.
  private void divert(StreamQueue stream) {
    AtomicLong state = stream.state;
    if (!stream.capture.compareAndSet(null, this)) {
      throw new IllegalStateException(
          "cannot capture " + stream.stream() + ": it is in " + stream.capture() + " already");
    }
    for (long s = state.get(), witness; ; s = witness) {
      if ((s & (STOPPED | CLOSING)) != 0) {
        stream.capture.set(null);
        DeviceExecutionException why =
            (s & STOPPED) == 0 ? stream.stopFailure("it was closed") : stream.end().reason();
        throw new IllegalStateException("cannot capture: " + why.getMessage(), why);
      }
      witness = state.compareAndExchange(s, s | CAPTURING);
      if (witness == s) {
        return;
      }
    }
  }

  private void undivert(StreamQueue stream) {
    if (stream.capture() == this) {
      AtomicLong state = stream.state;
      for (long s = state.get(), witness;
          (witness = state.compareAndExchange(s, s & ~CAPTURING)) != s; ) {
        s = witness;
      }
      stream.capture.set(null);
    }
  }

  @Override
  public String toString() {
    return "the capture of " + lanes.get(0).stream();
  }
}
