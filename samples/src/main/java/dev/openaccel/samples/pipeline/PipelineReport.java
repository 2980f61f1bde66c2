package dev.openaccel.samples.pipeline;

import dev.openaccel.samples.report.Span;
import dev.openaccel.samples.report.StreamStats;
import dev.openaccel.samples.report.Timeline;
import dev.openaccel.samples.report.Track;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints what a pipeline run achieved: per stream, the kernels it ran and how busy it was; per
 * device, how much stream work overlapped within the device's time (measured with timing events)
 * and how much copy time hid under compute.
 */
final class PipelineReport {
  private PipelineReport() {}

  /** The run's shape, one line. */
  static String header(PipelineOptions o) {
    int g = o.tilesPerSide();
    return String.format(
        "pipeline: C = A x B, %d x %d float32, %d x %d tiles (%d x %d output tiles, %d steps each),"
            + " %d device(s) x [copy-in, %d compute, copy-out] streams, host with %d cores",
        o.size(),
        o.size(),
        o.tile(),
        o.tile(),
        g,
        g,
        g,
        o.devices(),
        o.streams(),
        Runtime.getRuntime().availableProcessors());
  }

  /** Prints the per-device tables and the overall overlap. */
  static void print(PrintStream out, TiledMatmul.Outcome outcome, Timeline timeline) {
    List<StreamStats> stats = StreamStats.of(timeline);
    long busy = 0;
    for (TiledMatmul.DeviceTime time : outcome.devices()) {
      busy += printDevice(out, time, stats, timeline);
    }
    out.printf(
        "%nall devices: %.1f ms of stream work in %.1f ms of wall time = %.2fx overlap%n",
        busy / 1e6, outcome.wallMillis(), busy / 1e6 / outcome.wallMillis());
  }

  /** Prints one device's table and overlap; returns the busy nanoseconds of its streams. */
  private static long printDevice(
      PrintStream out, TiledMatmul.DeviceTime time, List<StreamStats> stats, Timeline timeline) {
    out.printf(
        "%n%s  device time %.1f ms (Event.elapsedTime, first to last work)%n",
        time.device(), time.millis());
    out.printf("  %-24s %8s %10s %7s%n", "stream", "kernels", "busy ms", "busy %");
    long busy = 0;
    List<Span> copies = new ArrayList<>();
    List<Span> compute = new ArrayList<>();
    for (StreamStats s : stats) {
      Track track = s.track();
      if (track.device() == time.device().index()) {
        busy += s.busyNanos();
        (isCopy(track) ? copies : compute).addAll(timeline.spansOf(track));
        out.printf(
            "  %-24s %8d %10.2f %7.1f%n",
            track.label() + " (stream " + track.streamId() + ")",
            s.kernels(),
            s.busyNanos() / 1e6,
            100 * s.busyNanos() / 1e6 / time.millis());
      }
    }
    long copyNanos = copies.stream().mapToLong(Span::durationNanos).sum();
    out.printf(
        "  overlap: streams were busy %.1f ms within %.1f ms of device time = %.2fx;"
            + " %.0f%% of copy time hidden under compute%n",
        busy / 1e6,
        time.millis(),
        busy / 1e6 / time.millis(),
        copyNanos == 0 ? 0 : 100.0 * StreamStats.coveredNanos(copies, compute) / copyNanos);
    return busy;
  }

  private static boolean isCopy(Track track) {
    return track.label().startsWith("copy");
  }
}
