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
 * registers. On a GPU, when {@code m} and {@code n} are multiples of 128 and {@code k} of 16, a
 * work-group of 16 x 16 computes a 128 x 128 tile of {@code C} through local memory, 8 x 8 per
 * work-item ({@code sgemm128}). Otherwise, and on other devices (CPUs), each work-item reads global
 * memory directly for 8 rows x 16 columns when {@code n} is a multiple of 16 (in work-groups of 16
 * x 2 when the sizes allow), else 8 x 8. This class is thread-safe.
 */
public final class Sgemm {
  private static final String SOURCE = load();

  private final DeviceKernel tiles;
  private final DeviceKernel wide;
  private final DeviceKernel narrow;
  private final boolean[] tilesOn; // by device index

  private Sgemm(DeviceProgram program, boolean[] tilesOn) {
    this.tiles = program.kernel("sgemm128");
    this.wide = program.kernel("sgemm8x16");
    this.narrow = program.kernel("sgemm8x8");
    this.tilesOn = tilesOn;
  }

  /** The multiply of {@code opencl}'s accelerator; compiles the kernels on first use (cached). */
  public static Sgemm of(OpenCl opencl) {
    List<ClDevice> devices = opencl.devices();
    boolean[] gpus = new boolean[devices.size()];
    for (int i = 0; i < gpus.length; i++) {
      gpus[i] = devices.get(i).gpu();
    }
    return new Sgemm(compile(opencl), gpus);
  }

  /** A multiply that uses the local-memory tiles on every device the sizes allow (tests). */
  static Sgemm withTilesEverywhere(OpenCl opencl) {
    boolean[] all = new boolean[opencl.devices().size()];
    Arrays.fill(all, true);
    return new Sgemm(compile(opencl), all);
  }

  private static DeviceProgram compile(OpenCl opencl) {
    return opencl.compile(SOURCE, "-cl-fast-relaxed-math");
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
    if (tilesOn[stream.deviceIndex()] && m % 128 == 0 && n % 128 == 0 && k % 16 == 0) {
      tiles.launch(
          stream, name, LaunchShape.of(n / 8, m / 8).local(16, 16), m, n, k, alpha, a, b, beta, c);
      return;
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
