package dev.openaccel.samples.pipeline;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.MemoryStats;
import dev.openaccel.samples.cli.Flags;
import dev.openaccel.samples.cli.UsageException;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The pipeline sample's settings, checked: {@code size} is a multiple of {@code tile}, the host
 * matrices fit the JVM, and ({@link #checkAgainst}) the devices exist and hold the tile buffers.
 *
 * @param size the matrix dimension N (C = A x B, all N x N float32)
 * @param tile the tile edge T
 * @param devices how many OpenReg devices share the work
 * @param streams compute streams per device
 * @param out the directory for timeline.json and timeline.svg
 * @param backend the device type: {@code openreg} (Java tile kernels) or {@code opencl} (the tile
 *     multiply as an OpenCL kernel)
 */
public record PipelineOptions(
    int size, int tile, int devices, int streams, Path out, String backend) {

  /** Options on the default backend, OpenReg. */
  public PipelineOptions(int size, int tile, int devices, int streams, Path out) {
    this(size, tile, devices, streams, out, "openreg");
  }

  /**
   * Host matrices a run holds at once: A, B, C, their packed forms, B transposed, the reference.
   */
  private static final int HOST_MATRICES = 8;

  /** Device buffers per compute stream: two slots of (A tile, B tile) and two C tiles. */
  static final int TILE_BUFFERS_PER_STREAM = 6;

  /** The flags, with their defaults: a run of a few seconds that still shows overlap. */
  public static final Flags FLAGS =
      Flags.of(
              "pipeline",
              "Tiled matrix multiply over both devices, copies overlapping compute; checked against"
                  + " a plain Java multiply, reported per stream, drawn as a timeline.")
          .integer("--size", "N", 1024, "matrix dimension: C = A x B, all N x N float32")
          .integer("--tile", "T", 128, "tile edge; N must be a multiple of T")
          .integer("--devices", "D", 2, "OpenReg devices to split the output tiles over")
          .integer("--streams", "S", 2, "compute streams per device")
          .text("--out", "DIR", "target/openaccel-run", "where timeline.json and timeline.svg go")
          .text("--backend", "TYPE", "openreg", "openreg (Java tile kernels) or opencl (OpenCL)");

  /**
   * The options from parsed flags.
   *
   * @throws UsageException if N is not a multiple of T, or the host matrices would not fit
   */
  public static PipelineOptions from(Flags.Values values) {
    PipelineOptions options =
        new PipelineOptions(
            values.integer("--size"),
            values.integer("--tile"),
            values.integer("--devices"),
            values.integer("--streams"),
            Paths.get(values.text("--out")),
            values.text("--backend"));
    options.checkShape();
    options.checkBackend();
    return options;
  }

  /** Output tiles per side: N / T. */
  public int tilesPerSide() {
    return size / tile;
  }

  /** Bytes of one T x T float32 tile. */
  long tileBytes() {
    return 4L * tile * tile;
  }

  /** Device memory one device needs: six tiles per compute stream. */
  long deviceBytes() {
    return TILE_BUFFERS_PER_STREAM * streams * tileBytes();
  }

  private void checkShape() {
    if (size % tile != 0) {
      throw new UsageException(
          "--size "
              + size
              + " is not a multiple of --tile "
              + tile
              + " (try --size "
              + roundUp()
              + ")");
    }
    long matrixBytes = 4L * size * size;
    if (matrixBytes > Integer.MAX_VALUE) {
      throw new UsageException(
          "--size "
              + size
              + " needs "
              + mib(matrixBytes)
              + " per matrix, more than one Java buffer holds");
    }
    long maxHeap = Runtime.getRuntime().maxMemory();
    if (HOST_MATRICES * matrixBytes > maxHeap / 4 * 3) {
      throw new UsageException(
          "--size "
              + size
              + " needs about "
              + mib(HOST_MATRICES * matrixBytes)
              + " of host memory, the JVM may use "
              + mib(maxHeap)
              + " (raise -Xmx or lower --size)");
    }
  }

  /**
   * Checks the options against {@code accelerator}'s devices.
   *
   * @throws UsageException if there are fewer devices than {@code devices}, or one cannot hold the
   *     tile buffers
   */
  public void checkAgainst(Accelerator accelerator) {
    int available = accelerator.deviceCount();
    if (devices > available) {
      throw new UsageException(
          "--devices "
              + devices
              + " but only "
              + available
              + " "
              + accelerator.currentAccelerator()
              + " devices are available");
    }
    for (int d = 0; d < devices; d++) {
      Device device = Device.of(accelerator.currentAccelerator(), d);
      MemoryStats memory = accelerator.memoryStats(device);
      long free = memory.capacity() - memory.allocated();
      if (deviceBytes() > free) {
        throw new UsageException(tooBig(device, free));
      }
    }
  }

  /** The one-line error for tile buffers that do not fit {@code free} bytes of {@code device}. */
  String tooBig(Device device, long free) {
    return "--tile "
        + tile
        + " x --streams "
        + streams
        + " needs "
        + mib(deviceBytes())
        + " of tile buffers on "
        + device
        + ", which has "
        + mib(free)
        + " free (lower --tile or --streams)";
  }

  private void checkBackend() {
    if (!backend.equals("openreg") && !backend.equals("opencl")) {
      throw new UsageException("--backend " + backend + " is neither openreg nor opencl");
    }
    if (backend.equals("opencl") && tile % 8 != 0) {
      throw new UsageException(
          "--backend opencl needs a --tile that is a multiple of 8, got " + tile);
    }
  }

  /**
   * The configuration that selects {@link #backend()} as the accelerator's device type. The OpenCL
   * backend is enabled only when chosen: starting it loads the OpenCL platform, and PoCL's LLVM
   * then replaces the JVM's SIGSEGV handler, which can crash a JVM without signal chaining (the
   * default run, {@code mvn exec:java}, has none).
   */
  Config backendConfig() {
    String disabled = backend.equals("opencl") ? "[toyreg]" : "[toyreg, opencl]";
    return ConfigFactory.parseString(
            "openaccel.default-device-type = "
                + backend
                + "\nopenaccel.disabled-backends = "
                + disabled)
        .withFallback(ConfigFactory.load());
  }

  private int roundUp() {
    return (size + tile - 1) / tile * tile;
  }

  private static String mib(long bytes) {
    return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
  }
}
