package dev.openaccel.samples.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes a {@link Timeline} in the Chrome trace-event JSON format, which Perfetto (ui.perfetto.dev)
 * and {@code chrome://tracing} open: one process per device, one thread per stream, one complete
 * ({@code "ph":"X"}) event per kernel with {@code ts}/{@code dur} in microseconds since the first
 * kernel started, and metadata events naming and ordering the tracks.
 *
 * <p>The process id is the device index plus one: Perfetto treats pid 0 as the kernel's idle task.
 */
public final class ChromeTrace {
  private ChromeTrace() {}

  /** The process id of device {@code index}. */
  public static int pid(int device) {
    return device + 1;
  }

  /** Writes {@code timeline} to {@code file} (UTF-8), replacing it. */
  public static void write(Timeline timeline, Path file) throws IOException {
    Files.writeString(file, json(timeline), StandardCharsets.UTF_8);
  }

  /** The trace as a JSON document. */
  public static String json(Timeline timeline) {
    List<String> events = new ArrayList<>();
    List<Track> tracks = timeline.tracks();
    for (int device : timeline.devices()) {
      String name =
          tracks.stream().filter(t -> t.device() == device).findFirst().orElseThrow().deviceName();
      events.add(metadata("process_name", pid(device), 0, "name", string(name)));
      events.add(metadata("process_sort_index", pid(device), 0, "sort_index", "" + device));
    }
    for (int i = 0; i < tracks.size(); i++) {
      Track track = tracks.get(i);
      String thread = track.label() + " (stream " + track.streamId() + ")";
      events.add(
          metadata("thread_name", pid(track.device()), track.streamId(), "name", string(thread)));
      events.add(
          metadata(
              "thread_sort_index", pid(track.device()), track.streamId(), "sort_index", "" + i));
    }
    long origin = timeline.originNanos();
    for (Span span : timeline.spans()) {
      events.add(complete(span, origin));
    }
    return "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n"
        + String.join(",\n", events)
        + "\n]}\n";
  }

  private static String metadata(String name, int pid, long tid, String key, String value) {
    return String.format(
        Locale.ROOT,
        "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"%s\":%s}}",
        name,
        pid,
        tid,
        key,
        value);
  }

  private static String complete(Span span, long origin) {
    return String.format(
        Locale.ROOT,
        "{\"name\":%s,\"cat\":%s,\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,\"tid\":%d,"
            + "\"args\":{\"failed\":%b}}",
        string(span.name()),
        string(span.kind()),
        (span.startNanos() - origin) / 1_000.0,
        span.durationNanos() / 1_000.0,
        pid(span.device()),
        span.streamId(),
        span.failed());
  }

  /** {@code text} as a JSON string literal. */
  static String string(String text) {
    StringBuilder json = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\n' -> json.append("\\n");
        case '\r' -> json.append("\\r");
        case '\t' -> json.append("\\t");
        default -> {
          if (c < 0x20) {
            json.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            json.append(c);
          }
        }
      }
    }
    return json.append('"').toString();
  }
}
