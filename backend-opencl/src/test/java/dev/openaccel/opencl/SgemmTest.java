package dev.openaccel.opencl;

import static dev.openaccel.conformance.BackendTck.assertThrowsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@RequiresOpenCl
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SgemmTest {
  private Accelerator accelerator;
  private Sgemm sgemm;
  private Sgemm tiles128;
  private Sgemm tiles64;
  private Device device;

  @BeforeAll
  void start() {
    accelerator = OpenClTestSupport.start();
    sgemm = Sgemm.of(OpenCl.get(accelerator));
    tiles128 = Sgemm.withTiles(OpenCl.get(accelerator), 1);
    tiles64 = Sgemm.withTiles(OpenCl.get(accelerator), Integer.MAX_VALUE);
    device = Device.of(OpenClProvider.TYPE, 0);
  }

  @AfterAll
  void close() {
    accelerator.close();
  }

  @Test
  void tiledShapesMatchTheJavaReference() {
    check(64, 128, 40, 1f, 0f);
  }

  @Test
  void untiledShapesWithAlphaAndBetaMatchTheJavaReference() {
    check(24, 16, 7, 0.5f, 2f);
  }

  @Test
  void wideTilesInWorkGroupsMatchTheJavaReference() {
    check(16, 256, 33, 1f, 0f); // 8 x 16 per work-item, work-groups of 16 x 2
  }

  @Test
  void narrowTilesForColumnsNotAMultipleOfSixteenMatchTheJavaReference() {
    check(32, 40, 9, 1.5f, -1f); // 8 x 8 per work-item
  }

  @Test
  void localMemoryTilesOf128MatchTheJavaReference() {
    assertPlan(tiles128, 256, 128, 48, "sgemmTiles", "-DTILE=128", "[16, 32] / [16, 16]");
    check(tiles128, 256, 128, 48, 1f, 0f); // two work-groups down, three steps of 16 in K
    check(tiles128, 128, 384, 16, -0.5f, 1.5f);
  }

  @Test
  void localMemoryTilesOf64MatchTheJavaReference() {
    assertPlan(tiles64, 128, 64, 32, "sgemmTiles", "-DTILE=64", "[16, 32] / [16, 16]");
    check(tiles64, 128, 64, 32, 1f, 0f);
    check(tiles64, 64, 192, 16, -0.5f, 1.5f);
    assertPlan(tiles128, 64, 128, 16, "sgemmTiles", "-DTILE=64", "[32, 16] / [16, 16]");
    check(tiles128, 64, 128, 16, 1f, 0f); // m not a multiple of 128
  }

  @Test
  void sizesTheLocalMemoryTilesDoNotFitFallBackToTheRegisterKernels() {
    assertPlan(tiles128, 128, 128, 40, "sgemm8x16", "-cl-fast-relaxed-math", "[8, 16]");
    check(tiles128, 128, 128, 40, 1f, 0f); // k not a multiple of 16
    assertPlan(tiles128, 96, 256, 32, "sgemm8x16", "-cl-fast-relaxed-math", "[16, 12] / [16, 2]");
    check(tiles128, 96, 256, 32, 1f, 0f); // m not a multiple of 64
    assertPlan(tiles128, 64, 40, 16, "sgemm8x8", "-cl-fast-relaxed-math", "[5, 8]");
  }

  @Test
  void onlyAGpuGetsTheLocalMemoryTiles() {
    boolean gpu = OpenCl.get(accelerator).devices().get(0).gpu();
    Sgemm.Plan plan = sgemm.plan(0, 1024, 1024, 1024);
    assertEquals(gpu ? "sgemmTiles" : "sgemm8x16", plan.kernel(), plan.toString());
  }

  @Test
  void matricesBeyondThirtyTwoBitOffsetsAreRejected() {
    assertThrowsWith(
        IllegalArgumentException.class,
        "sgemm indexes each matrix with 32-bit offsets, got m=65536 n=8 k=65536",
        () -> sgemm.plan(0, 65536, 8, 65536));
  }

  @Test
  void sizesThatAreNotMultiplesOfEightAreRejected() {
    Stream stream = accelerator.newStream(device);
    try (DeviceBuffer x = accelerator.allocate(device, 4096)) {
      assertThrowsWith(
          IllegalArgumentException.class,
          "got m=12 n=8 k=4",
          () -> sgemm.multiply(stream, 12, 8, 4, x, x, x));
      assertThrowsWith(
          IllegalArgumentException.class,
          "matrix B needs 16384 bytes, buffer has 4096",
          () -> sgemm.multiply(stream, 8, 64, 64, x, x, x));
    }
  }

  private void check(int m, int n, int k, float alpha, float beta) {
    check(sgemm, m, n, k, alpha, beta);
  }

  private static void assertPlan(
      Sgemm sgemm, int m, int n, int k, String kernel, String option, String shape) {
    Sgemm.Plan plan = sgemm.plan(0, m, n, k);
    assertEquals(kernel, plan.kernel(), plan.toString());
    assertTrue(plan.buildOptions().contains(option), plan.toString());
    assertEquals(shape, plan.shape().toString(), plan.toString());
  }

  /**
   * C = alpha A B + beta C against a Java loop; with beta 0, C starts as NaN and must not be read.
   */
  private void check(Sgemm sgemm, int m, int n, int k, float alpha, float beta) {
    SplittableRandom random = new SplittableRandom(m * 31L + n);
    float[] a = randoms(random, m * k);
    float[] b = randoms(random, k * n);
    float[] c = randoms(random, m * n);
    if (beta == 0f) {
      java.util.Arrays.fill(c, Float.NaN);
    }
    Stream stream = accelerator.newStream(device);
    try (DeviceBuffer da = accelerator.allocate(device, a.length * 4L);
        DeviceBuffer db = accelerator.allocate(device, b.length * 4L);
        DeviceBuffer dc = accelerator.allocate(device, c.length * 4L)) {
      stream.copyToDevice(OpenClTestSupport.floats(a), da);
      stream.copyToDevice(OpenClTestSupport.floats(b), db);
      stream.copyToDevice(OpenClTestSupport.floats(c), dc);
      sgemm.multiply(stream, m, n, k, alpha, da, db, beta, dc);
      ByteBuffer out = ByteBuffer.allocateDirect(c.length * 4).order(ByteOrder.LITTLE_ENDIAN);
      stream.copyToHost(dc, out);
      OpenClTestSupport.synchronize(stream);
      FloatBuffer result = out.asFloatBuffer();
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
          float expected = beta == 0f ? 0f : beta * c[i * n + j];
          for (int p = 0; p < k; p++) {
            expected += alpha * a[i * k + p] * b[p * n + j];
          }
          assertEquals(expected, result.get(i * n + j), 1e-3f, "C[" + i + "][" + j + "]");
        }
      }
    }
  }

  private static float[] randoms(SplittableRandom random, int count) {
    float[] values = new float[count];
    for (int i = 0; i < count; i++) {
      values[i] = (float) random.nextDouble(-1, 1);
    }
    return values;
  }
}
