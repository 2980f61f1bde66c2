package dev.openaccel.samples.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a {@link Timeline} in the Chrome trace-event JSON format, which Perfetto (ui.perfetto.dev)
 * and {@code chrome://tracing} open, with {@code ts}/{@code dur} in microseconds since the
 * timeline's origin ({@link Timeline#originNanos()}):
 *
 * <ul>
 *   <li>one process per device and one thread per stream, named by metadata events ({@code
 *       "ph":"M"}) with the stream's label, id, device and priority;
 *   <li>one complete event ({@code "ph":"X"}) per kernel;
 *   <li>one complete event (category {@value #REPLAY}, named {@code graph <id> replay <n>}, with
 *       {@code failed} in its args) per {@link ReplaySpan}, on its launching stream's thread and
 *       written before the kernels, so a kernel that starts with it nests inside it;
 *   <li>one complete event (category {@value #COLLECTIVE}, named {@code allReduce #3 'grads'}, with
 *       {@code group}, {@code operation}, {@code number}, {@code bytes}, {@code failed} and the
 *       number of {@code pieces} in its args) per {@link Collective}, on its stream's thread, and a
 *       complete event (category {@value #COLLECTIVE_STEP}, named {@code step <s> piece <p>}, with
 *       {@code step}, {@code piece} and {@code bytes} in its args) per piece it sent, written after
 *       it and before the kernels. Events on one thread must nest, so the pieces go by {@link
 *       Collective#rows()}: the first row's on the stream's thread, inside the operation's event;
 *       each further row's (pieces in flight while earlier ones were) on a thread of its own, named
 *       {@code <stream's thread name>, collective pieces row <r>}, ordered right after the
 *       stream's, with a thread id above every stream id;
 *   <li>one begin/end pair ({@code "ph":"B"/"E"}, category {@code wait}) per {@link Wait}, and a
 *       flow ({@code "ph":"s"} on the kernel that released it, {@code "ph":"f"} on the wait, one id
 *       each) that Perfetto draws as an arrow;
 *   <li>a counter ({@code "ph":"C"}) {@value #MEMORY} per device, in MiB; changes before the first
 *       kernel show at time 0.
 * </ul>
 *
 * <p>The process id is the device index plus one: Perfetto treats pid 0 as the kernel's idle task.
 */
public final class ChromeTrace {
  /** The name of the device memory counter track. */
  public static final String MEMORY = "device memory";

  /** The category of graph replay events. */
  public static final String REPLAY = "graph replay";

  /** The category of collective operation events. */
  public static final String COLLECTIVE = "collective";

  /** The category of the events of the pieces a collective operation sent. */
  public static final String COLLECTIVE_STEP = "collective step";

  private static final JsonFactory JSON = new JsonFactory();

  private final Timeline timeline;
  private final JsonGenerator out;
  private final long origin;
  private final PieceThreads pieceThreads;

  private ChromeTrace(Timeline timeline, JsonGenerator out) {
    this.timeline = timeline;
    this.out = out;
    this.origin = timeline.originNanos();
    this.pieceThreads = new PieceThreads(timeline);
  }

  /** The process id of device {@code index}. */
  public static int pid(int device) {
    return device + 1;
  }

  /** Writes {@code timeline} to {@code file} (UTF-8), replacing it. */
  public static void write(Timeline timeline, Path file) throws IOException {
    try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      write(timeline, writer);
    }
  }

  /** The trace as a JSON document. */
  public static String json(Timeline timeline) {
    StringWriter text = new StringWriter();
    try {
      write(timeline, text);
    } catch (IOException e) {
      throw new UncheckedIOException("a StringWriter does not fail", e);
    }
    return text.toString();
  }

  private static void write(Timeline timeline, Writer writer) throws IOException {
    try (JsonGenerator out = JSON.createGenerator(writer)) {
      out.writeStartObject();
      out.writeStringField("displayTimeUnit", "ms");
      out.writeArrayFieldStart("traceEvents");
      new ChromeTrace(timeline, out).events();
      out.writeEndArray();
      out.writeEndObject();
    }
  }

  private void events() throws IOException {
    List<Track> tracks = timeline.tracks();
    for (int device : timeline.devices()) {
      String name =
          tracks.stream().filter(t -> t.device() == device).findFirst().orElseThrow().deviceName();
      metadata("process_name", pid(device), 0, "name", name);
      metadata("process_sort_index", pid(device), 0, "sort_index", device);
    }
    int order = 0;
    for (Track track : tracks) {
      String thread =
          String.format(
              "%s (stream %d, %s, priority %d)",
              track.label(), track.streamId(), track.deviceName(), track.priority());
      metadata("thread_name", pid(track.device()), track.streamId(), "name", thread);
      metadata("thread_sort_index", pid(track.device()), track.streamId(), "sort_index", order++);
      for (int row = 1; row < pieceThreads.rows(track); row++) {
        long tid = pieceThreads.tid(track, row);
        String name = thread + ", collective pieces row " + (row + 1);
        metadata("thread_name", pid(track.device()), tid, "name", name);
        metadata("thread_sort_index", pid(track.device()), tid, "sort_index", order++);
      }
    }
    for (ReplaySpan replay : timeline.replays()) {
      event(replay.name(), REPLAY, "X", replay.device(), replay.streamId(), replay.startNanos());
      out.writeNumberField("dur", micros(replay.durationNanos()));
      out.writeObjectFieldStart("args");
      out.writeBooleanField("failed", replay.failed());
      out.writeNumberField("graph", replay.graphId());
      out.writeNumberField("replay", replay.replay());
      out.writeNumberField("kernels", replay.kernels().size());
      out.writeEndObject();
      out.writeEndObject();
    }
    for (Collective collective : timeline.collectives()) {
      collective(collective);
    }
    for (Span span : timeline.spans()) {
      event(span.name(), span.kind(), "X", span.device(), span.streamId(), span.startNanos());
      out.writeNumberField("dur", micros(span.durationNanos()));
      out.writeObjectFieldStart("args");
      out.writeBooleanField("failed", span.failed());
      out.writeEndObject();
      out.writeEndObject();
    }
    List<Wait> waits = timeline.waits();
    for (int id = 0; id < waits.size(); id++) {
      wait(waits.get(id), id);
    }
    for (MemorySample sample : timeline.memory()) {
      event(MEMORY, "memory", "C", sample.device(), 0, Math.max(origin, sample.atNanos()));
      out.writeObjectFieldStart("args");
      out.writeNumberField("MiB", sample.allocatedBytes() / (1024.0 * 1024.0));
      out.writeEndObject();
      out.writeEndObject();
    }
  }

  /** The operation as a slice on its stream, and its pieces by row. */
  private void collective(Collective collective) throws IOException {
    int device = collective.device();
    event(
        collective.name(), COLLECTIVE, "X", device, collective.streamId(), collective.startNanos());
    out.writeNumberField("dur", micros(collective.durationNanos()));
    out.writeObjectFieldStart("args");
    out.writeStringField("group", collective.group());
    out.writeStringField("operation", collective.operation());
    out.writeNumberField("number", collective.number());
    out.writeNumberField("bytes", collective.bytes());
    out.writeBooleanField("failed", collective.failed());
    out.writeNumberField("pieces", collective.pieces().size());
    out.writeEndObject();
    out.writeEndObject();
    Track track = timeline.trackOf(collective);
    List<List<CollectivePiece>> rows = collective.rows();
    for (int row = 0; row < rows.size(); row++) {
      long tid = row == 0 ? collective.streamId() : pieceThreads.tid(track, row);
      for (CollectivePiece piece : rows.get(row)) {
        event(piece.name(), COLLECTIVE_STEP, "X", device, tid, piece.startNanos());
        out.writeNumberField("dur", micros(piece.durationNanos()));
        out.writeObjectFieldStart("args");
        out.writeNumberField("step", piece.step());
        out.writeNumberField("piece", piece.piece());
        out.writeNumberField("bytes", piece.bytes());
        out.writeEndObject();
        out.writeEndObject();
      }
    }
  }

  /** The wait as a slice on its stream, and a flow from the kernel that released it. */
  private void wait(Wait wait, int id) throws IOException {
    Span cause = wait.cause();
    event("wait", "wait", "B", wait.device(), wait.streamId(), wait.startNanos());
    out.writeObjectFieldStart("args");
    out.writeStringField("released by", timeline.trackOf(cause).title() + ": " + cause.name());
    out.writeEndObject();
    out.writeEndObject();
    event("wait", "wait", "E", wait.device(), wait.streamId(), wait.endNanos());
    out.writeEndObject();
    // Each flow end binds to the slice that encloses its timestamp: mid-kernel and mid-wait.
    event(
        "released",
        "dependency",
        "s",
        cause.device(),
        cause.streamId(),
        mid(cause.startNanos(), cause.endNanos()));
    out.writeNumberField("id", id);
    out.writeEndObject();
    event(
        "released",
        "dependency",
        "f",
        wait.device(),
        wait.streamId(),
        mid(wait.startNanos(), wait.endNanos()));
    out.writeNumberField("id", id);
    out.writeStringField("bp", "e");
    out.writeEndObject();
  }

  /** Opens an event object with its common fields; the caller adds more and closes it. */
  private void event(String name, String category, String phase, int device, long tid, long atNanos)
      throws IOException {
    out.writeStartObject();
    out.writeStringField("name", name);
    out.writeStringField("cat", category);
    out.writeStringField("ph", phase);
    out.writeNumberField("ts", micros(atNanos - origin));
    out.writeNumberField("pid", pid(device));
    out.writeNumberField("tid", tid);
  }

  private void metadata(String name, int pid, long tid, String key, Object value)
      throws IOException {
    out.writeStartObject();
    out.writeStringField("name", name);
    out.writeStringField("ph", "M");
    out.writeNumberField("pid", pid);
    out.writeNumberField("tid", tid);
    out.writeObjectFieldStart("args");
    if (value instanceof Integer number) {
      out.writeNumberField(key, number);
    } else {
      out.writeStringField(key, (String) value);
    }
    out.writeEndObject();
    out.writeEndObject();
  }

  private static long mid(long from, long to) {
    return from + (to - from) / 2;
  }

  private static double micros(long nanos) {
    return nanos / 1_000.0;
  }
}
