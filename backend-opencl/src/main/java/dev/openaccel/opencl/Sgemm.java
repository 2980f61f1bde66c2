package dev.openaccel.opencl;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Single-precision matrix multiply on the device, {@code C = alpha * A * B + beta * C} with
 * row-major float matrices ({@code A} is {@code m x k}, {@code B} {@code k x n}, {@code C} {@code m
 * x n}). The bundled kernels ({@code sgemm.cl}) keep a block of {@code C} per work-item in
 * registers. On a GPU, when {@code k} is a multiple of 16, work-groups of 16 x 16 compute tiles of
 * {@code C} through local memory: 128 x 128 (8 x 8 per work-item) when {@code m} and {@code n} are
 * multiples of 128 and give at least one tile per compute unit, else 64 x 64 (4 x 4 per work-item)
 * when they are multiples of 64. Otherwise, and on other devices (CPUs), each work-item reads
 * global memory directly for 8 rows x 16 columns when {@code n} is a multiple of 16 (in work-groups
 * of 16 x 2 when the sizes allow), else 8 x 8. This class is thread-safe.
 */
public final class Sgemm {
  private static final String SOURCE = load();
  private static final String OPTIONS = "-cl-fast-relaxed-math";

  private final DeviceKernel tiles128;
  private final DeviceKernel tiles64;
  private final DeviceKernel wide;
  private final DeviceKernel narrow;
  private final int[] groupsFor128; // by device index: tiles of 128 from this many; 0: no tiles

  private Sgemm(OpenCl opencl, int[] groupsFor128) {
    DeviceProgram program = opencl.compile(SOURCE, OPTIONS);
    this.tiles128 = program.kernel("sgemmTiles");
    this.tiles64 =
        Arrays.stream(groupsFor128).anyMatch(groups -> groups > 0)
            ? opencl.compile(SOURCE, OPTIONS + " -DTILE=64 -DPER=4").kernel("sgemmTiles")
            : null; // no device uses tiles
    this.wide = program.kernel("sgemm8x16");
    this.narrow = program.kernel("sgemm8x8");
    this.groupsFor128 = groupsFor128;
  }

  /** The multiply of {@code opencl}'s accelerator; compiles the kernels on first use (cached). */
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
    if (m <= 0 || n <= 0 || k <= 0 || m % 8 != 0 || n % 8 != 0) {
      throw new IllegalArgumentException(
          "sgemm needs m and n positive multiples of 8 and k > 0, got m="
              + m
              + " n="
              + n
              + " k="
              + k);
    }
    requireSize("A", a, (long) m * k);
    requireSize("B", b, (long) k * n);
    requireSize("C", c, (long) m * n);
    int groups = groupsFor128[stream.deviceIndex()];
    if (groups > 0 && k % 16 == 0) {
      if (m % 128 == 0 && n % 128 == 0 && (long) (m / 128) * (n / 128) >= groups) {
        LaunchShape shape = LaunchShape.of(n / 8, m / 8).local(16, 16);
        tiles128.launch(stream, name, shape, m, n, k, alpha, a, b, beta, c);
        return;
      }
      if (m % 64 == 0 && n % 64 == 0) {
        LaunchShape shape = LaunchShape.of(n / 4, m / 4).local(16, 16);
        tiles64.launch(stream, name, shape, m, n, k, alpha, a, b, beta, c);
        return;
      }
    }
    if (n % 16 != 0) {
      narrow.launch(stream, name, LaunchShape.of(n / 8, m / 8), m, n, k, alpha, a, b, beta, c);
      return;
    }
    LaunchShape shape = LaunchShape.of(n / 16, m / 8);
    if ((n / 16) % 16 == 0 && (m / 8) % 2 == 0) {
      shape = shape.local(16, 2);
    }
    wide.launch(stream, name, shape, m, n, k, alpha, a, b, beta, c);
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
