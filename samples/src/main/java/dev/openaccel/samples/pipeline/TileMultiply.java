package dev.openaccel.samples.pipeline;

import dev.openaccel.opencl.OpenCl;
import dev.openaccel.opencl.Sgemm;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How a compute stream multiplies one T x T tile step, C (+)= A x B: a Java kernel ({@link
 * GemmKernel}) on OpenReg, the OpenCL SGEMM kernel on opencl. Both count finished steps in {@code
 * done} for the progress line.
 */
interface TileMultiply {

  /** Enqueues {@code c (+)= a x b} on {@code stream} as the kernel {@code name}. */
  void launch(
      Stream stream,
      String name,
      boolean accumulate,
      DeviceBuffer a,
      DeviceBuffer b,
      DeviceBuffer c);

  /** The multiply for {@code options.backend()}. */
  static TileMultiply of(Accelerator accelerator, PipelineOptions options, AtomicInteger done) {
    int tile = options.tile();
    if (options.backend().equals("opencl")) {
      Sgemm sgemm = Sgemm.of(OpenCl.get(accelerator));
      return (stream, name, accumulate, a, b, c) -> {
        sgemm.multiply(stream, name, tile, tile, tile, 1f, a, b, accumulate ? 1f : 0f, c);
        Event finished = stream.recordEvent();
        finished
            .completion()
            .whenComplete(
                (ok, failed) -> {
                  done.incrementAndGet();
                  finished.close();
                });
      };
    }
    return (stream, name, accumulate, a, b, c) ->
        stream.launch(name, new GemmKernel(tile, accumulate, done), a, b, c);
  }

  /** Prepares the multiply before the timed run and says what that took. */
  static String warmUp(Accelerator accelerator, PipelineOptions options) {
    long start = System.nanoTime();
    if (options.backend().equals("opencl")) {
      OpenCl opencl = OpenCl.get(accelerator);
      Sgemm.of(opencl);
      return String.format(
          Locale.ROOT,
          "warm-up: built the OpenCL tile multiply for %s in %.0f ms",
          String.join(", ", opencl.deviceNames()),
          (System.nanoTime() - start) / 1e6);
    }
    return String.format(
        Locale.ROOT,
        "warm-up: JIT-compiled the tile multiply on the host in %.0f ms",
        GemmKernel.warmUp(options.tile()));
  }
}
