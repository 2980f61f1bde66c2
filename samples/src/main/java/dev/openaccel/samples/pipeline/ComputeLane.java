package dev.openaccel.samples.pipeline;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.StreamGuard;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One compute stream of a device, with its double-buffered tiles and the events that guard them.
 *
 * <p>Each step of an output tile uses one of two input slots (A and B tiles) in turn: the copy-in
 * stream fills a slot once the gemm that last read it is done ({@code free}), the compute stream
 * multiplies once the copies are done ({@code ready}). So while tile k is multiplied, tile k+1 is
 * already being copied in. Output tiles alternate between two C buffers the same way: the copy-out
 * of one overlaps the first steps of the next. Waits capture the record current when they are
 * enqueued, so re-recording the same four events per slot is safe.
 *
 * <p>Not thread-safe: the host thread that builds the pipeline enqueues everything.
 */
final class ComputeLane implements AutoCloseable {

  /** Device buffers reused in turn, with the events that order their writers and readers. */
  private record Slot(List<DeviceBuffer> buffers, Event ready, Event free) {}

  private final Stream compute;
  private final Stream copyIn;
  private final Stream copyOut;
  private final HostTiles host;
  private final PipelineOptions options;
  private final TileMultiply tileMultiply;
  private final List<Slot> inputs = new ArrayList<>();
  private final List<Slot> outputs = new ArrayList<>();
  private int steps;
  private int jobs;
  private int kernels;

  private ComputeLane(
      Stream compute,
      Stream copyIn,
      Stream copyOut,
      HostTiles host,
      PipelineOptions options,
      TileMultiply tileMultiply) {
    this.compute = compute;
    this.copyIn = copyIn;
    this.copyOut = copyOut;
    this.host = host;
    this.options = options;
    this.tileMultiply = tileMultiply;
  }

  /**
   * A lane on {@code compute} with its six tile buffers allocated on compute's device.
   *
   * @throws dev.openaccel.runtime.DeviceOutOfMemoryException if they do not fit
   */
  static ComputeLane open(
      Accelerator accelerator,
      Stream compute,
      Stream copyIn,
      Stream copyOut,
      HostTiles host,
      PipelineOptions options,
      AtomicInteger done) {
    ComputeLane lane =
        new ComputeLane(
            compute, copyIn, copyOut, host, options, TileMultiply.of(accelerator, options, done));
    try (StreamGuard guard = accelerator.streamGuard(compute)) {
      for (int i = 0; i < 2; i++) {
        lane.addSlot(accelerator, lane.inputs, 2);
        lane.addSlot(accelerator, lane.outputs, 1);
      }
    } catch (RuntimeException e) {
      lane.close();
      throw e;
    }
    return lane;
  }

  /**
   * Adds a slot of {@code count} tile buffers, allocated for the current (compute) stream and also
   * used on both copy streams. The slot joins {@code slots} first, so {@link #close} frees what was
   * allocated if a later allocation fails.
   */
  private void addSlot(Accelerator accelerator, List<Slot> slots, int count) {
    Slot slot = new Slot(new ArrayList<>(), accelerator.newEvent(), accelerator.newEvent());
    slots.add(slot);
    for (int i = 0; i < count; i++) {
      DeviceBuffer buffer = accelerator.allocate(compute.device(), options.tileBytes());
      slot.buffers().add(buffer);
      buffer.recordStream(copyIn);
      buffer.recordStream(copyOut);
    }
  }

  Stream stream() {
    return compute;
  }

  /** Kernels (copies included) enqueued so far on behalf of this lane. */
  int kernels() {
    return kernels;
  }

  /**
   * Enqueues step {@code k} of {@code job}: copy in A and B tiles, multiply, and after the last
   * step copy C out.
   */
  void enqueue(TileJob job, int k) {
    Slot in = inputs.get(steps++ % 2);
    Slot out = outputs.get(jobs % 2);
    copyIn(job, k, in);
    multiply(job, k, in, out);
    if (k == options.tilesPerSide() - 1) {
      copyOut(job, out);
      jobs++;
    }
  }

  private void copyIn(TileJob job, int k, Slot in) {
    copyIn.waitEvent(in.free()); // the gemm that last read this slot has finished
    copyIn.copyToDevice(host.aTile(job.row(), k), in.buffers().get(0));
    copyIn.copyToDevice(host.bTile(k, job.col()), in.buffers().get(1));
    in.ready().record(copyIn);
    kernels += 2;
  }

  private void multiply(TileJob job, int k, Slot in, Slot out) {
    if (k == 0) {
      compute.waitEvent(out.free()); // the copy-out of the tile that last used this C buffer
    }
    compute.waitEvent(in.ready());
    tileMultiply.launch(
        compute,
        job.kernelName(k),
        k > 0,
        in.buffers().get(0),
        in.buffers().get(1),
        out.buffers().get(0));
    in.free().record(compute);
    kernels++;
  }

  private void copyOut(TileJob job, Slot out) {
    out.ready().record(compute);
    copyOut.waitEvent(out.ready());
    copyOut.copyToHost(out.buffers().get(0), host.cTile(job.row(), job.col()));
    out.free().record(copyOut);
    kernels++;
  }

  /** Frees the buffers (their memory is reused only after the work that used them) and events. */
  @Override
  public void close() {
    for (List<Slot> slots : List.of(inputs, outputs)) {
      for (Slot slot : slots) {
        slot.buffers().forEach(DeviceBuffer::close);
        slot.ready().close();
        slot.free().close();
      }
    }
  }
}
