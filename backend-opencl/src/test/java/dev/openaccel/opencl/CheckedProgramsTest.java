package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import org.junit.jupiter.api.Test;

/**
 * Building checked programs: which programs are checked (the configuration, or the program's own
 * {@link ProgramOptions}), that an unchecked one is built from the user's source untouched, that
 * every form of the rewriting builds, that the hidden arguments stay out of the user's sight, and
 * that a kernel that cannot be checked is refused at compile. {@link CheckedKernelsTest} runs them.
 */
@RequiresOpenCl
class CheckedProgramsTest extends CheckedFixture {
  private static final String SOURCE = CheckedKernelsTest.SOURCE;

  @Test
  void everyFormOfTheRewritingBuilds() {
    String forms =
        """
        typedef struct { float x; int n; } P;
        __kernel void k(__global P* p, __global float* x);
        __attribute__((reqd_work_group_size(1, 1, 1)))
        kernel void k(global P* p, global float * const restrict x) {
          x[0] = p[0].x;                       // a store and a member of a read
          p[1].n += 1; ++p[2].n; p[3].x--;     // other writes
          atomic_add(&p[4].n, 1);              /* an atomic's pointer */
          if (x[1] == 1) x[2] = x[3] = 2; else x[4] = 1, x[5] = 2;
        }
        __kernel void v4(__global float4* v, __global const float4* w) {
          size_t i = get_global_id(0);
          v[i].xy = w[i].zw; v[i].s3++; v[i] = w[v[i].x > 0];
        }
        """;
    DeviceProgram program = opencl.compile(forms, ProgramOptions.defaults().checked(true));
    assertEquals(2, program.kernel("k").parameters().size());
    assertEquals(2, program.kernel("v4").parameters().size());
  }

  @Test
  void theHiddenArgumentsAreNotTheUsers() {
    DeviceKernel saxpy = checked.kernel("saxpy");
    assertTrue(saxpy.checked());
    assertEquals(4, saxpy.parameters().size());
    Stream stream = accelerator.newStream(device);
    try (DeviceBuffer x = accelerator.allocate(device, 16)) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> saxpy.launch(stream, LaunchShape.of(4), 2.0f, x, x, 4, 16L, 16L));
      assertEquals(
          "kernel saxpy takes 4 arguments [float a, __global float* x, __global float* y,"
              + " int n], got 6",
          e.getMessage());
    }
  }

  @Test
  void anUncheckedProgramIsBuiltFromTheSourceAsWritten() {
    DeviceProgram unchecked = opencl.compile(SOURCE, ProgramOptions.defaults().checked(false));
    assertFalse(unchecked.checked());
    assertFalse(unchecked.kernel("saxpy").checked());
    assertEquals(SOURCE, unchecked.builtSource());
    assertTrue(checked.checked());
    assertNotEquals(SOURCE, checked.builtSource());
    assertEquals(SOURCE.lines().count(), checked.builtSource().lines().count());
  }

  @Test
  void theConfigurationDecidesUnlessTheProgramSays() {
    assertFalse(opencl.compile(SOURCE).checked(), "openaccel.opencl.checked-kernels = off");
    Accelerator on = OpenClTestSupport.start("openaccel.opencl.checked-kernels = on");
    try {
      OpenCl cl = OpenCl.get(on);
      assertTrue(cl.compile(SOURCE).checked());
      assertTrue(cl.compile(SOURCE, "-DUNUSED").checked());
      DeviceProgram off = cl.compile(SOURCE, ProgramOptions.defaults().checked(false));
      assertFalse(off.checked());
      assertEquals(SOURCE, off.builtSource());
      Sgemm.of(cl); // its kernels, never checked, still build
    } finally {
      on.close();
    }
  }

  @Test
  void aKernelThatCannotBeCheckedIsRefusedAtCompile() {
    String shift = "__kernel void shift(__global float* x) { __global float* y = x + 1; }";
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> opencl.compile(shift, ProgramOptions.defaults().checked(true)));
    assertTrue(e.getMessage().startsWith("checked mode cannot check kernel shift: line 1"), e + "");
    opencl.compile(shift).kernel("shift"); // unchecked, it builds
  }
}
