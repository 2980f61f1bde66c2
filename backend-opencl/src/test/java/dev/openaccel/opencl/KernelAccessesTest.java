package dev.openaccel.opencl;

import static dev.openaccel.opencl.SanitizedKernelFixture.D0;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Which buffer arguments a kernel reads and which it may write, as the compiler declares its
 * parameters ({@code CL_KERNEL_ARG_TYPE_QUALIFIER}): however the {@code const} is spelled.
 */
@RequiresOpenCl
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KernelAccessesTest {
  private static final String SOURCE =
      """
      #define IN __global const float*
      typedef __global const float* in_t;
      __kernel void decl(IN a, in_t b, __global float const* c, __global float* const d,
                         __global volatile float* e, __constant float* f, __local float* g,
                         uint n, __global const float* restrict h, global float* i) {}
      """;

  private Accelerator acc;
  private OpenClBackend backend;
  private final List<DeviceBuffer> buffers = new ArrayList<>();

  @BeforeAll
  void start() {
    acc = OpenClTestSupport.start();
    backend = OpenClSystem.of(acc.system()).backend();
  }

  @AfterEach
  void closeBuffers() {
    acc.synchronize(D0);
    buffers.forEach(DeviceBuffer::close);
    buffers.clear();
  }

  @AfterAll
  void stop() {
    acc.close();
  }

  private DeviceBuffer buffer() {
    DeviceBuffer buffer = acc.allocate(D0, 16);
    buffers.add(buffer);
    return buffer;
  }

  /** Asserts what {@code kernel} launched with {@code args} reads and writes. */
  private void assertAccesses(
      DeviceKernel kernel, Object[] args, List<DeviceBuffer> reads, List<DeviceBuffer> writes) {
    KernelArguments encoded =
        KernelArguments.encode(kernel.name(), kernel.parameters(), args, backend);
    try {
      assertEquals(reads, kernel.accesses().reads(encoded));
      assertEquals(writes, kernel.accesses().writes(encoded));
    } finally {
      encoded.enqueued();
    }
  }

  @Test
  void pointersToConstAndConstantPointersReadEveryOtherGlobalPointerWrites() {
    DeviceKernel decl = OpenCl.get(acc).compile(SOURCE).kernel("decl");
    DeviceBuffer a = buffer();
    DeviceBuffer b = buffer();
    DeviceBuffer c = buffer();
    DeviceBuffer d = buffer();
    DeviceBuffer e = buffer();
    DeviceBuffer f = buffer();
    DeviceBuffer h = buffer();
    DeviceBuffer i = buffer();
    Object[] args = {a, b, c, d, e, f, LocalMemory.bytes(16), 4, h, i};
    assertAccesses(decl, args, List.of(a, b, c, f, h), List.of(d, e, i));
  }

  @Test
  void aCheckedKernelsHiddenParametersAreNotAmongItsAccesses() {
    DeviceKernel add =
        OpenCl.get(acc)
            .compile(SanitizedKernelFixture.SOURCE, ProgramOptions.defaults().checked(true))
            .kernel("add");
    DeviceBuffer x = buffer();
    DeviceBuffer y = buffer();
    assertAccesses(add, new Object[] {x, y}, List.of(x), List.of(y));
  }

  @Test
  void oneBufferBoundToAReadAndAWrittenParameterIsInBoth() {
    DeviceKernel add = OpenCl.get(acc).compile(SanitizedKernelFixture.SOURCE).kernel("add");
    DeviceBuffer x = buffer();
    assertAccesses(add, new Object[] {x, x}, List.of(x), List.of(x));
  }
}
