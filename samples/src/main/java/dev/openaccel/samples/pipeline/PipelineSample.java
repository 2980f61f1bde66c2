package dev.openaccel.samples.pipeline;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.samples.cli.ActorSystems;
import dev.openaccel.samples.cli.Cli;
import dev.openaccel.samples.cli.UsageException;
import dev.openaccel.samples.report.ChromeTrace;
import dev.openaccel.samples.report.SvgTimeline;
import dev.openaccel.samples.report.Timeline;
import dev.openaccel.samples.report.TraceCollector;
import dev.openaccel.samples.report.TraceLog;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * The flagship sample: a tiled float32 matrix multiply split over the OpenReg devices, each with a
 * copy-in stream, several compute streams and a copy-out stream that overlap through events and
 * double-buffered tiles. The result is checked against a plain Java multiply; the run is reported
 * per stream and drawn as a Perfetto trace and an SVG timeline from the trace bus.
 *
 * <p>It brings its own actor system, whose guardian is the {@link TraceCollector}; the accelerator
 * is that system's extension ({@code Accelerator.get(system)}).
 */
public final class PipelineSample {
  private static final Duration TRACE_WAIT = Duration.ofSeconds(30);

  private PipelineSample() {}

  /** Runs with command-line flags (see {@link PipelineOptions#FLAGS}); returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    return Cli.run(
        PipelineOptions.FLAGS,
        args,
        out,
        err,
        values -> run(PipelineOptions.from(values), out, err));
  }

  /**
   * Runs with {@code options}: {@link Cli#OK} if C matches the reference, else {@link Cli#FAILED}.
   */
  static int run(PipelineOptions options, PrintStream out, PrintStream err) throws Exception {
    Path dir = outputDirectory(options.out());
    ActorSystem<TraceCollector.Command> system =
        ActorSystems.start(TraceCollector.create(), "pipeline", options.backendConfig());
    try {
      Accelerator accelerator = Accelerator.get(system);
      options.checkAgainst(accelerator);
      TraceCollector.await(system, system, 0, TRACE_WAIT); // subscribed before the first kernel
      out.println(PipelineReport.header(options));

      int n = options.size();
      float[] a = Matrices.random(n, 1);
      float[] b = Matrices.random(n, 2);
      HostTiles host = HostTiles.pack(a, b, n, options.tile());
      Progress progress = Progress.of(err);
      Timeline timeline = multiply(system, options, host, progress, out);
      writeTimeline(timeline, options, dir, out);
      return check(host.result(), reference(a, b, n, progress, out), n, out);
    } finally {
      ActorSystems.stop(system);
    }
  }

  /** Runs the devices' multiply into {@code host} and reports it; returns its timeline. */
  private static Timeline multiply(
      ActorSystem<TraceCollector.Command> system,
      PipelineOptions options,
      HostTiles host,
      Progress progress,
      PrintStream out)
      throws InterruptedException {
    out.println(TileMultiply.warmUp(Accelerator.get(system), options));
    TiledMatmul.Outcome outcome = TiledMatmul.run(Accelerator.get(system), options, host, progress);
    TraceLog log = TraceCollector.await(system, system, outcome.kernels(), TRACE_WAIT);
    Timeline timeline = new Timeline(outcome.tracks(), log);
    PipelineReport.print(out, outcome, timeline);
    return timeline;
  }

  private static float[] reference(
      float[] a, float[] b, int n, Progress progress, PrintStream out) {
    long start = System.nanoTime();
    float[] expected =
        Matrices.multiply(a, b, n, row -> progress.show("reference", row, n, "rows"));
    progress.clear();
    out.printf(
        "reference: single-threaded Java multiply took %.1f ms%n",
        (System.nanoTime() - start) / 1e6);
    return expected;
  }

  private static void writeTimeline(
      Timeline timeline, PipelineOptions options, Path dir, PrintStream out) throws IOException {
    Path json = dir.resolve("timeline.json");
    Path svg = dir.resolve("timeline.svg");
    ChromeTrace.write(timeline, json);
    SvgTimeline.write(timeline, PipelineReport.header(options), svg);
    out.printf("timeline: %s (open in ui.perfetto.dev or chrome://tracing)%n", json);
    out.printf("          %s%n", svg);
  }

  /** Compares C with the reference and prints the verdict; returns the exit code. */
  static int check(float[] c, float[] expected, int n, PrintStream out) {
    double diff = Matrices.maxAbsDiff(c, expected);
    double tolerance = Matrices.tolerance(n);
    boolean match = diff <= tolerance;
    out.printf(
        "result: %s (max |C - reference| = %s, tolerance %.3g)%n",
        match ? "MATCH" : "MISMATCH",
        diff == 0 ? "0, bit-identical" : String.format("%.3g", diff),
        tolerance);
    return match ? Cli.OK : Cli.FAILED;
  }

  /** Creates {@code dir} if needed; a path that cannot be a directory is a usage mistake. */
  private static Path outputDirectory(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (FileAlreadyExistsException e) {
      throw new UsageException("--out " + dir + " exists and is not a directory");
    } catch (IOException e) {
      throw new UsageException("--out " + dir + " cannot be created: " + e.getMessage());
    }
  }
}
