package dev.openaccel.samples.pipeline;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.samples.report.Track;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The streams of one device: a copy-in stream, {@code S} compute lanes and a copy-out stream, with
 * two timing events that bracket all of the device's work. Copy streams get the greatest priority,
 * so a ready copy is not kept waiting behind compute kernels.
 *
 * <p>Not thread-safe: the host thread that builds the pipeline enqueues everything.
 */
final class DevicePipeline implements AutoCloseable {
  private final Device device;
  private final Stream copyIn;
  private final Stream copyOut;
  private final List<ComputeLane> lanes = new ArrayList<>();
  private final Event start;
  private final Event end;

  private DevicePipeline(Accelerator accelerator, Device device) {
    this.device = device;
    int copyPriority = accelerator.priorityRange(device.type()).greatest();
    this.copyIn = accelerator.newStream(device, copyPriority);
    this.copyOut = accelerator.newStream(device, copyPriority);
    this.start = accelerator.newEvent(EventOptions.timing());
    this.end = accelerator.newEvent(EventOptions.timing());
  }

  /**
   * The pipeline of {@code device} with its tile buffers allocated.
   *
   * @throws dev.openaccel.runtime.DeviceOutOfMemoryException if they do not fit
   */
  static DevicePipeline open(
      Accelerator accelerator,
      Device device,
      PipelineOptions options,
      HostTiles host,
      AtomicInteger done) {
    DevicePipeline pipeline = new DevicePipeline(accelerator, device);
    try {
      for (int i = 0; i < options.streams(); i++) {
        Stream compute = accelerator.newStream(device);
        pipeline.lanes.add(
            ComputeLane.open(
                accelerator, compute, pipeline.copyIn, pipeline.copyOut, host, options, done));
      }
    } catch (RuntimeException e) {
      pipeline.close();
      throw e;
    }
    return pipeline;
  }

  Device device() {
    return device;
  }

  /** Marks the start of the device's work; call before any {@link #enqueue}. */
  void begin() {
    start.record(copyIn);
  }

  /** Enqueues step {@code k} of {@code job} on its lane. */
  void enqueue(TileJob job, int k) {
    lanes.get(job.lane()).enqueue(job, k);
  }

  /** Joins every stream into copy-out and marks the end of the device's work there. */
  void finish() {
    for (ComputeLane lane : lanes) {
      copyOut.waitStream(lane.stream());
    }
    copyOut.waitStream(copyIn);
    end.record(copyOut);
  }

  /** Completes when all the device's work has completed. */
  CompletionStage<Void> completion() {
    return end.completion();
  }

  /** Milliseconds from the first to the last of the device's work, on the device clock. */
  double deviceMillis() {
    return start.elapsedTime(end);
  }

  /** Kernels (copies included) enqueued so far. */
  int kernels() {
    return lanes.stream().mapToInt(ComputeLane::kernels).sum();
  }

  /** The device's streams as timeline lanes: copy-in, compute 0..S-1, copy-out. */
  List<Track> tracks() {
    List<Track> tracks = new ArrayList<>();
    tracks.add(track(copyIn, "copy-in"));
    for (int i = 0; i < lanes.size(); i++) {
      tracks.add(track(lanes.get(i).stream(), "compute " + i));
    }
    tracks.add(track(copyOut, "copy-out"));
    return tracks;
  }

  private Track track(Stream stream, String label) {
    return new Track(device.index(), device.toString(), stream.id(), stream.priority(), label);
  }

  @Override
  public void close() {
    lanes.forEach(ComputeLane::close);
    start.close();
    end.close();
  }
}
