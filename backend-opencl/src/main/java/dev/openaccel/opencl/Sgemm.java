package dev.openaccel.opencl;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Single-precision matrix multiply on the device, {@code C = alpha * A * B + beta * C} with
 * row-major float matrices ({@code A} is {@code m x k}, {@code B} {@code k x n}, {@code C} {@code m
 * x n}). The bundled kernels ({@code sgemm.cl}) keep a block of {@code C} per work-item in
 * registers. On a GPU, when {@code k} is a multiple of 16, work-groups of 16 x 16 compute tiles of
 * {@code C} through local memory: 128 x 128 (8 x 8 per work-item) when {@code m} and {@code n} are
 * multiples of 128 and give at least one tile per compute unit, else 64 x 64 (4 x 4 per work-item)
 * when they are multiples of 64. Otherwise, and on other devices (CPUs, or a GPU that cannot run
 * work-groups of 256 with them), each work-item reads global memory directly for 8 rows x 16
 * columns when {@code n} is a multiple of 16 (in work-groups of 16 x 2 when the sizes allow), else
 * 8 x 8. {@link #plan} says which for given sizes. Its kernels are never checked ({@link
 * ProgramOptions#checked}), whatever {@code openaccel.opencl.checked-kernels} says: they walk the
 * matrices through pointer arithmetic, and {@code multiply} checks every buffer's size against the
 * matrix sizes at the call instead. This class is thread-safe.
 */
public final class Sgemm {
  /**
   * The launch {@code multiply} makes: kernel {@code kernel} of {@code sgemm.cl} built with {@code
   * buildOptions}, over {@code shape}.
   */
  public record Plan(String kernel, String buildOptions, LaunchShape shape) {}

  /** A kernel and the options its program was built with. */
  private record Built(DeviceKernel kernel, String options) {}

  private static final Logger LOG = LoggerFactory.getLogger(Sgemm.class);
  private static final String SOURCE = load();
  private static final String REGISTERS = "-cl-fast-relaxed-math";
  private static final String TILES_128 = REGISTERS + " -DTILE=128 -DPER=8";
  private static final String TILES_64 = REGISTERS + " -DTILE=64 -DPER=4";
  private static final int TILE_GROUP = 16 * 16;

  private final Built wide;
  private final Built narrow;
  private final Built tiles128; // null if no device uses tiles
  private final Built tiles64;
  private final int[] groupsFor128; // by device index: tiles of 128 from this many; 0: no tiles

  private Sgemm(OpenCl opencl, int[] groupsFor128) {
    DeviceProgram registers = opencl.compile(SOURCE, unchecked(REGISTERS));
    this.wide = new Built(registers.kernel("sgemm8x16"), REGISTERS);
    this.narrow = new Built(registers.kernel("sgemm8x8"), REGISTERS);
    Built big = null;
    Built small = null;
    if (Arrays.stream(groupsFor128).anyMatch(groups -> groups > 0)) {
      try {
        big =
            new Built(opencl.compile(SOURCE, unchecked(TILES_128)).kernel("sgemmTiles"), TILES_128);
        small =
            new Built(opencl.compile(SOURCE, unchecked(TILES_64)).kernel("sgemmTiles"), TILES_64);
      } catch (OpenClException e) {
        LOG.warn(
            "sgemm: the local-memory tiles do not build, the register kernels serve: {}",
            e.getMessage());
        Arrays.fill(groupsFor128, 0);
        big = null;
        small = null;
      }
    }
    List<ClDevice> devices = opencl.devices();
    for (int i = 0; i < groupsFor128.length; i++) {
      if (groupsFor128[i] > 0
          && (big.kernel().workGroupSize(devices.get(i)) < TILE_GROUP
              || small.kernel().workGroupSize(devices.get(i)) < TILE_GROUP)) {
        groupsFor128[i] = 0; // too few registers or too little local memory for 16 x 16
      }
    }
    this.tiles128 = big;
    this.tiles64 = small;
    this.groupsFor128 = groupsFor128;
  }

  private static ProgramOptions unchecked(String buildOptions) {
    return ProgramOptions.of(buildOptions).checked(false);
  }

  /**
   * The multiply of {@code opencl}'s accelerator; compiles its kernels now (or finds them cached).
   */
  public static Sgemm of(OpenCl opencl) {
    List<ClDevice> devices = opencl.devices();
    int[] groups = new int[devices.size()];
    for (int i = 0; i < groups.length; i++) {
      groups[i] = devices.get(i).gpu() ? Math.max(1, devices.get(i).computeUnits()) : 0;
    }
    return new Sgemm(opencl, groups);
  }

  /**
   * A multiply that uses the local-memory tiles on every device the sizes allow, those of 128 from
   * {@code groupsFor128} work-groups on (tests).
   */
  static Sgemm withTiles(OpenCl opencl, int groupsFor128) {
    int[] groups = new int[opencl.devices().size()];
    Arrays.fill(groups, groupsFor128);
    return new Sgemm(opencl, groups);
  }

  /** Enqueues {@code C = A * B} on {@code stream}. */
  public void multiply(
      Stream stream, int m, int n, int k, DeviceBuffer a, DeviceBuffer b, DeviceBuffer c) {
    multiply(stream, m, n, k, 1f, a, b, 0f, c);
  }

  /**
   * Enqueues {@code C = alpha * A * B + beta * C} on {@code stream}.
   *
   * @throws IllegalArgumentException if {@code m} or {@code n} is not a positive multiple of 8,
   *     {@code k} is not positive, or a buffer is smaller than its matrix
   */
  public void multiply(
      Stream stream,
      int m,
      int n,
      int k,
      float alpha,
      DeviceBuffer a,
      DeviceBuffer b,
      float beta,
      DeviceBuffer c) {
    multiply(stream, "sgemm", m, n, k, alpha, a, b, beta, c);
  }

  /**
   * {@link #multiply(Stream, int, int, int, float, DeviceBuffer, DeviceBuffer, float,
   * DeviceBuffer)} under the launch name {@code name}, which traces and failures report.
   */
  public void multiply(
      Stream stream,
      String name,
      int m,
      int n,
      int k,
      float alpha,
      DeviceBuffer a,
      DeviceBuffer b,
      float beta,
      DeviceBuffer c) {
    requireShape(m, n, k);
    requireSize("A", a, (long) m * k);
    requireSize("B", b, (long) k * n);
    requireSize("C", c, (long) m * n);
    Built built = choose(stream.deviceIndex(), m, n, k);
    built.kernel().launch(stream, name, shape(built, m, n), m, n, k, alpha, a, b, beta, c);
  }

  /**
   * The launch {@code multiply} makes on device {@code deviceIndex} for these sizes (for baselines
   * that make the same launch without the runtime, and for diagnostics).
   *
   * @throws IllegalArgumentException for sizes {@code multiply} rejects, or no such device
   */
  public Plan plan(int deviceIndex, int m, int n, int k) {
    requireShape(m, n, k);
    if (deviceIndex < 0 || deviceIndex >= groupsFor128.length) {
      throw new IllegalArgumentException(
          "no opencl device " + deviceIndex + " (" + groupsFor128.length + " devices)");
    }
    Built built = choose(deviceIndex, m, n, k);
    return new Plan(built.kernel().name(), built.options(), shape(built, m, n));
  }

  private Built choose(int deviceIndex, int m, int n, int k) {
    int groups = groupsFor128[deviceIndex];
    if (groups > 0 && k % 16 == 0) {
      if (m % 128 == 0 && n % 128 == 0 && (long) (m / 128) * (n / 128) >= groups) {
        return tiles128;
      }
      if (m % 64 == 0 && n % 64 == 0) {
        return tiles64;
      }
    }
    return n % 16 == 0 ? wide : narrow;
  }

  private LaunchShape shape(Built built, int m, int n) {
    if (built == tiles128 || built == tiles64) {
      int per = built == tiles128 ? 8 : 4;
      return LaunchShape.of(n / per, m / per).local(16, 16);
    }
    if (built == narrow) {
      return LaunchShape.of(n / 8, m / 8);
    }
    LaunchShape shape = LaunchShape.of(n / 16, m / 8);
    return (n / 16) % 16 == 0 && (m / 8) % 2 == 0 ? shape.local(16, 2) : shape;
  }

  /**
   * Sizes the kernels take: m and n multiples of 8, k positive, each matrix's offsets in an int.
   */
  private static void requireShape(int m, int n, int k) {
    if (m <= 0 || n <= 0 || k <= 0 || m % 8 != 0 || n % 8 != 0) {
      throw new IllegalArgumentException(
          "sgemm needs m and n positive multiples of 8 and k > 0, got m="
              + m
              + " n="
              + n
              + " k="
              + k);
    }
    long largest = Math.max((long) m * k, Math.max((long) k * n, (long) m * n));
    if (largest > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "sgemm indexes each matrix with 32-bit offsets, got m="
              + m
              + " n="
              + n
              + " k="
              + k
              + " ("
              + largest
              + " floats in one matrix, most "
              + Integer.MAX_VALUE
              + ")");
    }
  }

  private static void requireSize(String matrix, DeviceBuffer buffer, long floats) {
    if (buffer.size() < floats * Float.BYTES) {
      throw new IllegalArgumentException(
          "sgemm matrix "
              + matrix
              + " needs "
              + floats * Float.BYTES
              + " bytes, buffer has "
              + buffer.size());
    }
  }

  private static String load() {
    try (InputStream in = Sgemm.class.getResourceAsStream("sgemm.cl")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the bundled sgemm.cl", e);
    }
  }
}
