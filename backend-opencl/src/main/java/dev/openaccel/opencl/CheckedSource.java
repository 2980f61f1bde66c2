package dev.openaccel.opencl;

import static dev.openaccel.opencl.ClBoundsCheck.AREA;
import static dev.openaccel.opencl.ClBoundsCheck.SINK;
import static dev.openaccel.opencl.ClBoundsCheck.ZERO_AREA;

import dev.openaccel.opencl.ClTokens.Token;
import dev.openaccel.opencl.KernelDeclaration.Parameter;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The source of a checked program: OpenCL C whose kernels check every access to their {@code
 * __global} pointer parameters. Each kernel with such parameters gets, behind its own, a hidden
 * {@code ulong} per pointer (the byte size of the buffer passed for it) and a hidden error buffer
 * ({@link KernelChecks}); each access {@code p[index]} in its body becomes a call of a guard made
 * for {@code p} ({@link CheckedBody}, emitted before the kernel for the forms its body uses) that
 * reads, writes or addresses the element when {@code 0 <= index < bytes / sizeof(*p)}, and
 * otherwise records the access in the error buffer (the first one, with atomics, and a count of
 * all) and reads 0, skips the store, or yields a scratch element of that buffer: nothing outside
 * the user's buffers is touched. The generated code is put on the lines the user wrote, so the
 * build log's line numbers are those of the user's source.
 *
 * <p>A pointer made from a parameter could reach memory past its buffer unchecked, so the rewriting
 * refuses a kernel that uses a {@code __global} pointer parameter other than as {@code p[index]}
 * (pointer arithmetic, {@code *p}, passing {@code p} or {@code &p[i]} on, except {@code &p[i]} as
 * the pointer of an {@code atomic_*} or {@code atom_*} call), and a {@code #define} that names such
 * a parameter (accesses in macros are not rewritten). Stateless.
 */
final class CheckedSource {
  /**
   * An instrumented program.
   *
   * @param source the source to build
   * @param kernels what was added to each kernel the source declares, by name
   */
  record Result(String source, Map<String, KernelChecks> kernels) {
    Result {
      kernels = Map.copyOf(kernels);
    }
  }

  /**
   * Records an out-of-bounds access: the first one's details, and a 64-bit count of all. Its names
   * and the guards' are reserved ones, so that no name of the user's (a typedef) is shadowed.
   */
  private static final String PRELUDE =
      "void __oa_fail(__global volatile uint* __oa_e, uint __oa_arg, uint __oa_kind, ulong __oa_i,"
          + " ulong __oa_n) { if (atomic_inc(&__oa_e[8]) == 0xffffffffu) { atomic_inc(&__oa_e[9]); }"
          + " if (atomic_cmpxchg(&__oa_e[0], 0u, 1u) == 0u) { __oa_e[1] = __oa_arg;"
          + " __oa_e[2] = __oa_kind; __oa_e[4] = (uint) __oa_i;"
          + " __oa_e[5] = (uint) (__oa_i >> 32); __oa_e[6] = (uint) __oa_n;"
          + " __oa_e[7] = (uint) (__oa_n >> 32); } } ";

  private static final Set<String> ELEMENT_QUALIFIERS =
      Set.of("__global", "global", "const", "volatile", "*");

  private CheckedSource() {}

  /**
   * Instruments every kernel of {@code source}.
   *
   * @throws IllegalArgumentException naming the kernel, the parameter and the line, for a kernel
   *     whose accesses cannot all be checked
   */
  static Result instrument(String source) {
    List<Token> tokens = ClTokens.of(source);
    List<KernelDeclaration> kernels = KernelDeclaration.find(source, tokens);
    requireNoMacroUses(source, tokens, kernels);
    StringBuilder out = new StringBuilder(source.length() * 2);
    Map<String, KernelChecks> checks = new LinkedHashMap<>();
    boolean prelude = false;
    int copied = 0;
    for (KernelDeclaration kernel : kernels) {
      List<Parameter> pointers =
          kernel.parameters().stream().filter(Parameter::isGlobalPointer).toList();
      checks.put(
          kernel.name(),
          new KernelChecks(kernel.name(), pointers.stream().map(Parameter::index).toList()));
      if (pointers.isEmpty()) {
        continue;
      }
      int start = tokens.get(kernel.start()).start();
      out.append(source, copied, start);
      CheckedBody.Rewritten body = null;
      if (kernel.bodyOpen() >= 0) { // a prototype gets the hidden parameters alone
        body = CheckedBody.rewrite(source, tokens, kernel, pointers);
        if (!prelude) {
          out.append(PRELUDE);
          prelude = true;
        }
        for (Parameter p : pointers) {
          body.forms()
              .getOrDefault(p.index(), Set.of())
              .forEach(f -> out.append(guard(kernel, p, f)));
        }
      }
      int close = tokens.get(kernel.close()).start();
      out.append(source, start, close);
      pointers.forEach(p -> out.append(", ulong ").append(KernelChecks.bytesName(p.index())));
      out.append(", __global volatile uint* ").append(KernelChecks.ERRORS);
      copied = close;
      if (body != null) {
        out.append(source, close, tokens.get(kernel.bodyOpen()).end()).append(body.text());
        copied = tokens.get(kernel.bodyClose()).start();
      }
    }
    return new Result(out.append(source, copied, source.length()).toString(), checks);
  }

  /** The name of the guard of {@code kernel}'s parameter {@code index}. */
  static String guardName(String kernel, int index) {
    return "__oa_" + kernel + "_" + index;
  }

  /**
   * One guard of {@code kernel}'s parameter {@code p} ({@link CheckedBody.Form}): in bounds, the
   * element's address, its value, or a store to it; out of bounds, after recording the access, the
   * sink's address, the zeroed area's value, or nothing. Elements over {@value ClBoundsCheck#AREA}
   * bytes, more than scratch holds, fail the build with a typedef named for it.
   */
  private static String guard(KernelDeclaration kernel, Parameter p, CheckedBody.Form form) {
    String type = p.pointerType();
    String element = elementType(type);
    String in = " if (__oa_i < __oa_n) { "; // a negative index, converted, is above any size
    String fail =
        " __oa_fail(__oa_e, __oa_arg, "
            + (form == CheckedBody.Form.GET ? 0 : 1)
            + "u, __oa_i, __oa_n);";
    String scratch = "(" + type + ") ((__global volatile uchar*) __oa_e + ";
    String body =
        switch (form) {
          case AT -> in + "return __oa_p + __oa_i; }" + fail + " return " + scratch + SINK + "); }";
          case GET ->
              in + "return __oa_p[__oa_i]; }" + fail + " return *" + scratch + ZERO_AREA + "); }";
          case SET -> in + "__oa_p[__oa_i] = __oa_v; return; }" + fail + " }";
        };
    return (form == CheckedBody.Form.AT ? type : form == CheckedBody.Form.GET ? element : "void")
        + " "
        + guardName(kernel.name(), p.index())
        + form.suffix
        + "("
        + type
        + " __oa_p, ulong __oa_i, ulong __oa_bytes, __global volatile uint* __oa_e, uint __oa_arg"
        + (form == CheckedBody.Form.SET ? ", " + element + " __oa_v" : "")
        + ") { typedef char __oa_element_of_"
        + p.name()
        + "_is_over_"
        + AREA
        + "_bytes[sizeof(*__oa_p) <= "
        + AREA
        + " ? 1 : -1]; ulong __oa_n = __oa_bytes / sizeof(*__oa_p);"
        + body
        + " ";
  }

  /** The type of an element of {@code pointerType}: without its address space and qualifiers. */
  private static String elementType(String pointerType) {
    return Arrays.stream(pointerType.split(" "))
        .filter(word -> !ELEMENT_QUALIFIERS.contains(word))
        .collect(Collectors.joining(" "));
  }

  /**
   * Refuses a {@code #define} whose replacement names a {@code __global} pointer parameter of a
   * kernel (other than one of the macro's own parameters): the access it writes would not be
   * rewritten.
   */
  private static void requireNoMacroUses(
      String source, List<Token> tokens, List<KernelDeclaration> kernels) {
    Map<String, String> owners = new LinkedHashMap<>();
    for (KernelDeclaration kernel : kernels) {
      for (Parameter p : kernel.parameters()) {
        if (p.isGlobalPointer()) {
          owners.putIfAbsent(p.name(), kernel.name());
        }
      }
    }
    for (Token directive : tokens) {
      if (directive.kind() != ClTokens.Kind.DIRECTIVE) {
        continue;
      }
      List<Token> words = ClTokens.of(directive.text().substring(1));
      if (words.size() < 2 || !words.get(0).is("define")) {
        continue;
      }
      int body = 2;
      Set<String> own = new HashSet<>();
      if (words.size() > 2 && words.get(2).is("(") && words.get(2).start() == words.get(1).end()) {
        body = KernelDeclaration.matching(words, 2) + 1;
        words.subList(3, body).forEach(w -> own.add(w.text()));
      }
      for (Token word : words.subList(Math.min(body, words.size()), words.size())) {
        String kernel = owners.get(word.text());
        if (kernel != null
            && word.kind() == ClTokens.Kind.IDENTIFIER
            && !own.contains(word.text())) {
          throw new IllegalArgumentException(
              "checked mode cannot check kernel "
                  + kernel
                  + ": the macro "
                  + words.get(1).text()
                  + " on line "
                  + ClTokens.line(source, directive.start())
                  + " names its __global parameter "
                  + word.text()
                  + ", and accesses written in macros are not checked; index "
                  + word.text()
                  + " in the kernel itself, or compile the program unchecked");
        }
      }
    }
  }
}
