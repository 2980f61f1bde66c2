package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rewriting of checked kernels, on source text alone (no OpenCL): which accesses become guarded
 * and how, what is left as written, and what is refused. {@code CheckedKernelsTest} builds and runs
 * the rewritten source on the device.
 */
class CheckedSourceTest {

  /** A read of kernel {@code k}'s parameter {@code p} (argument {@code arg}) at {@code index}. */
  private static String get(String kernel, int arg, String p, String index) {
    return call(kernel + "_" + arg + "_get", arg, p, index) + ")";
  }

  /** The statement storing {@code value} there. */
  private static String set(String kernel, int arg, String p, String index, String value) {
    return call(kernel + "_" + arg + "_set", arg, p, index) + ", (" + value + "));";
  }

  /** Any other write there: the element's address, dereferenced. */
  private static String at(String kernel, int arg, String p, String index) {
    return "(*" + call(kernel + "_" + arg, arg, p, index) + "))";
  }

  private static String call(String guard, int arg, String p, String index) {
    return "__oa_"
        + guard
        + "("
        + p
        + ", (ulong) ("
        + index
        + "), __oa_bytes"
        + arg
        + ", __oa_err, "
        + arg
        + "u";
  }

  private static String body(String rewritten, String kernel) {
    int at = rewritten.indexOf("__kernel void " + kernel);
    return rewritten.substring(rewritten.indexOf('{', at));
  }

  @Test
  void everyGlobalPointerParameterGetsAHiddenSizeAndTheKernelAnErrorBuffer() {
    CheckedSource.Result result =
        CheckedSource.instrument(
            """
            __kernel void saxpy(float a, __global const float* restrict x,
                                __global float* restrict y, __local float* tmp, int n) {
              size_t i = get_global_id(0);
              y[i] = a * x[i] + y[i];
            }
            """);
    assertEquals(List.of(1, 2), result.kernels().get("saxpy").checked());
    assertEquals(3, result.kernels().get("saxpy").hidden());
    assertTrue(
        result
            .source()
            .contains(
                "int n, ulong __oa_bytes1, ulong __oa_bytes2, __global volatile uint* __oa_err)"),
        result.source());
    assertTrue(
        body(result.source(), "saxpy")
            .contains(
                set(
                    "saxpy",
                    2,
                    "y",
                    "i",
                    " a * " + get("saxpy", 1, "x", "i") + " + " + get("saxpy", 2, "y", "i"))),
        result.source());
    // the guards keep const and drop restrict (a property of the parameter, not of its type)
    assertTrue(
        result.source().contains("float __oa_saxpy_1_get(__global const float * __oa_p,"),
        result.source());
    assertTrue(
        result.source().contains("void __oa_saxpy_2_set(__global float * __oa_p,"),
        result.source());
    assertTrue(!result.source().contains("__oa_saxpy_1_set("), "only the forms used");
  }

  @Test
  void nestedBracketsGuardTheInnerAccessInsideTheOuterIndex() {
    String source =
        """
        __kernel void gather(__global const int* idx, __global const float* src, __global float* dst) {
          dst[get_global_id(0)] = src[idx[get_global_id(0)] + 1];
        }
        """;
    String body = body(CheckedSource.instrument(source).source(), "gather");
    String inner = get("gather", 0, "idx", "get_global_id(0)");
    assertTrue(body.contains(", ( " + get("gather", 1, "src", inner + " + 1") + "));"), body);
  }

  @Test
  void vectorElementsAndTheirComponentsAreGuardedAsTheirVectorType() {
    String source =
        """
        __kernel void v4(__global float4* v, __global const float4* w) {
          size_t i = get_global_id(0);
          v[i].xy = w[i].zw;
          v[i].s3++;
        }
        """;
    String rewritten = CheckedSource.instrument(source).source();
    assertTrue(rewritten.contains("__global float4 * __oa_v4_0(__global float4 * __oa_p,"));
    assertTrue(rewritten.contains("float4 __oa_v4_1_get(__global const float4 * __oa_p,"));
    String body = body(rewritten, "v4");
    assertTrue(
        body.contains(at("v4", 0, "v", "i") + ".xy = " + get("v4", 1, "w", "i") + ".zw;"), body);
    assertTrue(body.contains(at("v4", 0, "v", "i") + ".s3++;"), body);
  }

  @Test
  void plainStoresReadsAndOtherWritesEachGetTheirGuard() {
    String source =
        """
        __kernel void kinds(__global int* c) {
          c[0] += 1; ++c[1]; c[2]--; c[3] <<= 2;
          atomic_add(&c[4], 1);
          int r = c[5] & c[6];
          if (c[7] == 1) c[8] = 1;
          c[9] = c[10] = 2;
          c[11] = 1, c[12] = 2;
        }
        """;
    String body = body(CheckedSource.instrument(source).source(), "kinds");
    for (int i : new int[] {0, 1, 2, 3, 4, 10, 11, 12}) {
      assertTrue(body.contains(at("kinds", 0, "c", String.valueOf(i))), i + body);
    }
    for (int i = 5; i <= 7; i++) {
      assertTrue(body.contains(get("kinds", 0, "c", String.valueOf(i))), i + body);
    }
    assertTrue(body.contains(") " + set("kinds", 0, "c", "8", " 1")), body);
    assertTrue(
        body.contains(set("kinds", 0, "c", "9", " " + at("kinds", 0, "c", "10") + " = 2")), body);
  }

  @Test
  void commentsStringsAndLineBreaksAreLeftAsWritten() {
    String source =
        """
        // y[0] in a comment before the kernel
        __kernel void k(__global float* y) {
          /* y[1] in a block comment
             over two lines */
          printf("y[%d]\\n", 2); // y[3]
          y[4] = '[';
        }
        """;
    String rewritten = CheckedSource.instrument(source).source();
    for (String kept :
        List.of(
            "// y[0] in a comment before the kernel\n",
            "/* y[1] in a block comment\n     over two lines */",
            "printf(\"y[%d]\\n\", 2); // y[3]\n",
            set("k", 0, "y", "4", " '['"))) {
      assertTrue(rewritten.contains(kept), kept + " in\n" + rewritten);
    }
    assertEquals(source.lines().count(), rewritten.lines().count(), rewritten);
  }

  @Test
  void aKernelWithoutGlobalPointersIsLeftAsWritten() {
    String source = "__kernel void empty(int unused, __local float* tmp) { tmp[0] = unused; }\n";
    CheckedSource.Result result = CheckedSource.instrument(source);
    assertEquals(source, result.source());
    assertEquals(0, result.kernels().get("empty").hidden());
  }

  @Test
  void aPrototypeGetsTheHiddenParametersAndTheGuardsOnce() {
    String source =
        """
        __kernel void k(__global float* y);
        __kernel void k(__global float* y) { y[0] = 1; }
        """;
    String rewritten = CheckedSource.instrument(source).source();
    assertEquals(2, rewritten.split("__global volatile uint\\* __oa_err\\)", -1).length - 1);
    assertEquals(2, rewritten.split("__oa_k_0_set\\(", -1).length - 1, rewritten); // defined, used
  }

  @Test
  void attributesAndTheQualifiersWithoutUnderscoresAreUnderstood() {
    String source =
        """
        __attribute__((reqd_work_group_size(64, 1, 1)))
        kernel void k(global const uint * const restrict in, global uint *out) {
          out[get_global_id(0)] = in[get_global_id(0)];
        }
        """;
    CheckedSource.Result result = CheckedSource.instrument(source);
    assertEquals(List.of(0, 1), result.kernels().get("k").checked());
    assertTrue(
        result.source().contains("uint __oa_k_0_get(global const uint * __oa_p,"), result.source());
  }

  @Test
  void pointerArithmeticIsRefusedNamingKernelParameterAndLine() {
    IllegalArgumentException e =
        refused(
            """
            __kernel void shift(__global float* x, int n) {
              __global float* y = x + n;
              y[0] = 1;
            }
            """);
    assertEquals(
        "checked mode cannot check kernel shift: line 2 uses x other than as x[index], and a"
            + " pointer made from the __global parameter 0 (__global float * x) would reach memory"
            + " unchecked; index it directly, or compile the program unchecked",
        e.getMessage());
  }

  @Test
  void dereferencingPassingOnAndTakingAnAddressAreRefused() {
    for (String statement :
        List.of(
            "*x = 1;", "f(x);", "vstore4((float4) 0, 0, &x[4]);", "float* p = (float*) &x[1];")) {
      String source =
          "void f(__global float* p) {}\n__kernel void k(__global float* x) {\n  "
              + statement
              + "\n}\n";
      IllegalArgumentException e = refused(source);
      assertTrue(e.getMessage().startsWith("checked mode cannot check kernel k: line 3 "), e + "");
      assertTrue(e.getMessage().contains("(__global float * x)"), e.getMessage());
    }
  }

  @Test
  void aMacroThatNamesAGlobalParameterIsRefusedAndOneWithItAsItsOwnParameterIsNot() {
    IllegalArgumentException e =
        refused(
            """
            #define AT(i) x[i]
            __kernel void k(__global float* x) { AT(0) = 1; }
            """);
    assertTrue(
        e.getMessage()
            .startsWith(
                "checked mode cannot check kernel k: the macro AT on line 1 names its __global"
                    + " parameter x"),
        e.getMessage());
    CheckedSource.instrument(
        """
        #define SQUARE(x) ((x) * (x))
        __kernel void k(__global float* x) { x[0] = SQUARE(2.0f); }
        """);
  }

  @Test
  void aGlobalParameterNotWrittenAsAPointerIsRefused() {
    IllegalArgumentException e = refused("__kernel void k(__global float x[]) { x[0] = 1; }");
    assertTrue(e.getMessage().contains("must be written as a pointer"), e.getMessage());
  }

  @Test
  void aMemberNamedLikeAParameterIsNoUseOfIt() {
    String source =
        """
        typedef struct { float x; } P;
        __kernel void k(__global P* p, __global float* x) { x[0] = p[0].x; }
        """;
    String body = body(CheckedSource.instrument(source).source(), "k");
    assertTrue(body.contains(get("k", 0, "p", "0") + ".x"), body);
  }

  private static IllegalArgumentException refused(String source) {
    return assertThrows(IllegalArgumentException.class, () -> CheckedSource.instrument(source));
  }
}
