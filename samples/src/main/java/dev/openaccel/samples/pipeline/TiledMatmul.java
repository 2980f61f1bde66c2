package dev.openaccel.samples.pipeline;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceOutOfMemoryException;
import dev.openaccel.samples.cli.UsageException;
import dev.openaccel.samples.report.Track;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs C = A x B over the devices. Output tiles go round-robin to devices, then to compute lanes;
 * work is enqueued wave by wave (one output tile per lane of every device), step by step, so that
 * every stream has work at once and no copy stream waits on a lane that has not started.
 */
final class TiledMatmul {
  private TiledMatmul() {}

  /** One device's span of work, measured with its timing events. */
  record DeviceTime(Device device, double millis) {}

  /**
   * What a run did.
   *
   * @param tracks the lanes of every device, for the timeline
   * @param devices each device's time from its first to its last work
   * @param kernels kernels and copies enqueued: the trace must show as many
   * @param wallMillis host time from the first enqueue to the last completion
   */
  record Outcome(List<Track> tracks, List<DeviceTime> devices, int kernels, double wallMillis) {}

  /**
   * Multiplies the tiles of {@code host} into its C tiles and waits for the devices.
   *
   * @throws UsageException if the tile buffers do not fit a device's memory
   * @throws dev.openaccel.runtime.DeviceExecutionException if a kernel failed
   */
  static Outcome run(
      Accelerator accelerator, PipelineOptions options, HostTiles host, Progress progress)
      throws InterruptedException {
    AtomicInteger done = new AtomicInteger();
    List<DevicePipeline> pipelines = new ArrayList<>();
    try {
      for (int d = 0; d < options.devices(); d++) {
        Device device = Device.of(accelerator.currentAccelerator(), d);
        pipelines.add(open(accelerator, device, options, host, done));
      }
      long startNanos = System.nanoTime();
      pipelines.forEach(DevicePipeline::begin);
      enqueue(pipelines, options);
      pipelines.forEach(DevicePipeline::finish);
      int products = options.tilesPerSide() * options.tilesPerSide() * options.tilesPerSide();
      await(accelerator, pipelines, progress, done, products);
      double wallMillis = (System.nanoTime() - startNanos) / 1e6;

      List<Track> tracks = new ArrayList<>();
      List<DeviceTime> times = new ArrayList<>();
      int kernels = 0;
      for (DevicePipeline pipeline : pipelines) {
        tracks.addAll(pipeline.tracks());
        times.add(new DeviceTime(pipeline.device(), pipeline.deviceMillis()));
        kernels += pipeline.kernels();
      }
      return new Outcome(List.copyOf(tracks), List.copyOf(times), kernels, wallMillis);
    } finally {
      pipelines.forEach(DevicePipeline::close);
    }
  }

  private static DevicePipeline open(
      Accelerator accelerator,
      Device device,
      PipelineOptions options,
      HostTiles host,
      AtomicInteger done) {
    try {
      return DevicePipeline.open(accelerator, device, options, host, done);
    } catch (DeviceOutOfMemoryException e) {
      throw new UsageException(options.tooBig(device, e.free()));
    }
  }

  /** The output tiles in row-major order, each with its device and lane. */
  static List<TileJob> jobs(PipelineOptions options) {
    int perSide = options.tilesPerSide();
    List<TileJob> jobs = new ArrayList<>();
    for (int t = 0; t < perSide * perSide; t++) {
      jobs.add(
          new TileJob(
              t / perSide,
              t % perSide,
              t % options.devices(),
              t / options.devices() % options.streams()));
    }
    return jobs;
  }

  private static void enqueue(List<DevicePipeline> pipelines, PipelineOptions options) {
    List<TileJob> jobs = jobs(options);
    int wave = options.devices() * options.streams();
    for (int first = 0; first < jobs.size(); first += wave) {
      List<TileJob> current = jobs.subList(first, Math.min(jobs.size(), first + wave));
      for (int k = 0; k < options.tilesPerSide(); k++) {
        for (TileJob job : current) {
          pipelines.get(job.device()).enqueue(job, k);
        }
      }
    }
  }

  /** Waits for every device, drawing progress; a failed kernel surfaces from the device sync. */
  private static void await(
      Accelerator accelerator,
      List<DevicePipeline> pipelines,
      Progress progress,
      AtomicInteger done,
      int products)
      throws InterruptedException {
    CompletableFuture<?>[] ends = new CompletableFuture<?>[pipelines.size()];
    for (int i = 0; i < ends.length; i++) {
      ends[i] = pipelines.get(i).completion().toCompletableFuture();
    }
    CompletableFuture<Void> all = CompletableFuture.allOf(ends);
    ExecutionException failure = null;
    while (!all.isDone()) {
      try {
        all.get(50, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        progress.show("multiply", done.get(), products, "tile products");
      } catch (ExecutionException e) {
        failure = e;
      }
    }
    progress.clear();
    for (DevicePipeline pipeline : pipelines) {
      accelerator.synchronize(pipeline.device());
    }
    if (failure != null) {
      throw new IllegalStateException("the devices' work failed", failure.getCause());
    }
  }
}
