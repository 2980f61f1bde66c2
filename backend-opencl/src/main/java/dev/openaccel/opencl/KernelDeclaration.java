package dev.openaccel.opencl;

import dev.openaccel.opencl.ClTokens.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A {@code __kernel} function as its source declares it, found among a program's tokens for the
 * rewriting of checked kernels ({@link CheckedSource}): its name, where it begins, its parameters,
 * and its body (none for a prototype). A kernel whose declaration a macro writes is not found.
 * Immutable.
 *
 * @param name the kernel's name
 * @param start token index where its declaration begins (after the previous top-level one)
 * @param close token index of the {@code )} that ends its parameter list
 * @param bodyOpen token index of its body's opening brace, or -1 for a prototype
 * @param bodyClose token index of its body's closing brace, or -1 for a prototype
 * @param parameters its parameters, in order
 */
record KernelDeclaration(
    String name, int start, int close, int bodyOpen, int bodyClose, List<Parameter> parameters) {

  /**
   * One parameter as written.
   *
   * @param index its position, from 0
   * @param name its name
   * @param pointerType for a {@code __global} pointer, its type without the pointer's own
   *     qualifiers ({@code restrict}, a {@code const} after the {@code *}), e.g. {@code __global
   *     const float4*}; null for any other parameter
   * @param line the source line it is written on, from 1
   */
  record Parameter(int index, String name, String pointerType, int line) {
    boolean isGlobalPointer() {
      return pointerType != null;
    }
  }

  private static final Set<String> POINTER_QUALIFIERS =
      Set.of("restrict", "__restrict", "__restrict__", "const", "volatile");

  KernelDeclaration {
    parameters = List.copyOf(parameters);
  }

  /**
   * The kernels declared in {@code tokens}, the tokens of {@code source}, in source order.
   *
   * @throws IllegalArgumentException for a {@code __global} parameter not written as a pointer
   */
  static List<KernelDeclaration> find(String source, List<Token> tokens) {
    List<KernelDeclaration> found = new ArrayList<>();
    int depth = 0;
    int start = 0; // the first token after the last top-level declaration
    for (int i = 0; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (t.is("(") || t.is("{") || t.is("[")) {
        depth++;
      } else if (t.is(")") || t.is("}") || t.is("]")) {
        depth--;
      }
      if (depth == 0 && (t.is(";") || t.is("}") || t.kind() == ClTokens.Kind.DIRECTIVE)) {
        start = i + 1;
      } else if (depth == 0 && (t.is("__kernel") || t.is("kernel"))) {
        KernelDeclaration kernel = declaration(source, tokens, start, i);
        if (kernel != null) {
          found.add(kernel);
          i = kernel.bodyOpen < 0 ? kernel.close : kernel.bodyClose;
          start = i + 1;
        }
      }
    }
    return found;
  }

  private static KernelDeclaration declaration(
      String source, List<Token> tokens, int start, int at) {
    int i = at + 1;
    while (i < tokens.size() && !tokens.get(i).is("(")) {
      i++;
    }
    while (i < tokens.size() && isAttribute(tokens.get(i - 1))) {
      i = matching(tokens, i) + 1; // __attribute__((...)) before the name
      while (i < tokens.size() && !tokens.get(i).is("(")) {
        i++;
      }
    }
    if (i >= tokens.size() || tokens.get(i - 1).kind() != ClTokens.Kind.IDENTIFIER) {
      return null;
    }
    String name = tokens.get(i - 1).text();
    int close = matching(tokens, i);
    List<Parameter> parameters = parameters(source, tokens, i + 1, close);
    int next = close + 1;
    while (next < tokens.size() && isAttribute(tokens.get(next))) {
      next = matching(tokens, next + 1) + 1;
    }
    if (next < tokens.size() && tokens.get(next).is("{")) {
      return new KernelDeclaration(name, start, close, next, matching(tokens, next), parameters);
    }
    return new KernelDeclaration(name, start, close, -1, -1, parameters);
  }

  private static boolean isAttribute(Token t) {
    return t.is("__attribute__") || t.is("__attribute");
  }

  /** The parameters between tokens {@code from} and {@code to} (exclusive). */
  private static List<Parameter> parameters(String source, List<Token> tokens, int from, int to) {
    List<Parameter> parameters = new ArrayList<>();
    int begin = from;
    int depth = 0;
    for (int i = from; i <= to; i++) {
      Token t = tokens.get(i);
      if (i == to || (depth == 0 && t.is(","))) {
        List<Token> declared = withoutAttributes(tokens.subList(begin, i));
        if (!(declared.isEmpty() || (declared.size() == 1 && declared.get(0).is("void")))) {
          parameters.add(parameter(source, parameters.size(), declared));
        }
        begin = i + 1;
      } else if (t.is("(") || t.is("[")) {
        depth++;
      } else if (t.is(")") || t.is("]")) {
        depth--;
      }
    }
    return parameters;
  }

  private static Parameter parameter(String source, int index, List<Token> declared) {
    Token last = declared.get(declared.size() - 1);
    int line = ClTokens.line(source, last.start());
    boolean global = declared.stream().anyMatch(t -> t.is("__global") || t.is("global"));
    int star = -1;
    for (int i = 0; i < declared.size(); i++) {
      star = declared.get(i).is("*") ? i : star;
    }
    if (!global) {
      return new Parameter(index, last.text(), null, line);
    }
    boolean plain = star >= 0 && last.kind() == ClTokens.Kind.IDENTIFIER;
    for (int i = star + 1; plain && i < declared.size() - 1; i++) {
      plain = POINTER_QUALIFIERS.contains(declared.get(i).text());
    }
    if (!plain) {
      throw new IllegalArgumentException(
          "checked mode cannot check parameter "
              + index
              + " on line "
              + line
              + " ("
              + String.join(" ", declared.stream().map(Token::text).toList())
              + "): a __global parameter must be written as a pointer, `__global T* name`");
    }
    StringBuilder type = new StringBuilder();
    for (Token t : declared.subList(0, star)) {
      if (!POINTER_QUALIFIERS.contains(t.text()) || t.is("const") || t.is("volatile")) {
        type.append(t.text()).append(' ');
      }
    }
    return new Parameter(index, last.text(), type.append('*').toString(), line);
  }

  private static List<Token> withoutAttributes(List<Token> tokens) {
    List<Token> kept = new ArrayList<>();
    for (int i = 0; i < tokens.size(); i++) {
      if (isAttribute(tokens.get(i)) && i + 1 < tokens.size() && tokens.get(i + 1).is("(")) {
        i = matching(tokens, i + 1);
      } else {
        kept.add(tokens.get(i));
      }
    }
    return kept;
  }

  /** The index of the bracket that closes the one at {@code open} (the last token if none does). */
  static int matching(List<Token> tokens, int open) {
    int depth = 0;
    for (int i = open; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (t.is("(") || t.is("[") || t.is("{")) {
        depth++;
      } else if ((t.is(")") || t.is("]") || t.is("}")) && --depth == 0) {
        return i;
      }
    }
    return tokens.size() - 1;
  }
}
