package dev.openaccel.opencl;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Single-precision matrix multiply on the device, {@code C = alpha * A * B + beta * C} with
 * row-major float matrices ({@code A} is {@code m x k}, {@code B} {@code k x n}, {@code C} {@code m
 * x n}). The bundled kernel ({@code sgemm.cl}) keeps an 8 x 8 block of {@code C} per work-item in
 * registers, in work-groups of 16 x 4 when the sizes allow. This class is thread-safe.
 */
public final class Sgemm {
  private static final String SOURCE = load();

  private final DeviceKernel kernel;

  private Sgemm(DeviceKernel kernel) {
    this.kernel = kernel;
  }

  /** The multiply of {@code opencl}'s accelerator; compiles the kernel on first use (cached). */
  public static Sgemm of(OpenCl opencl) {
    return new Sgemm(opencl.compile(SOURCE, "-cl-fast-relaxed-math").kernel("sgemm"));
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
    LaunchShape shape = LaunchShape.of(n / 8, m / 8);
    if ((n / 8) % 16 == 0 && (m / 8) % 4 == 0) {
      shape = shape.local(16, 4);
    }
    kernel.launch(stream, name, shape, m, n, k, alpha, a, b, beta, c);
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
