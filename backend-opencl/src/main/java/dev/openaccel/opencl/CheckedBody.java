package dev.openaccel.opencl;

import dev.openaccel.opencl.ClTokens.Token;
import dev.openaccel.opencl.KernelDeclaration.Parameter;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Rewrites the body of one checked kernel ({@link CheckedSource}): each access {@code p[index]} to
 * a {@code __global} pointer parameter becomes a call of one of {@code p}'s guards, brackets inside
 * {@code index} first (so {@code a[b[i]]} checks both). The text between tokens (whitespace,
 * comments, line breaks) is kept. An access is a write when an assignment, {@code ++} or {@code --}
 * follows it (after member or component names: {@code v[i].x = 0}) or precedes it, when a bracket
 * follows it, or when it is the pointer of an atomic call; otherwise a read. A read becomes {@code
 * get(p, (ulong)(index), bytes, errors, arg)}, the element or 0; a statement {@code p[index] =
 * value;} becomes {@code set(p, (ulong)(index), bytes, errors, arg, (value));}, which stores only
 * in bounds; any other write {@code (*at(p, (ulong)(index), bytes, errors, arg))}, the element or a
 * sink. The first two leave the element's load and store under a plain condition, which PoCL's
 * compiler vectorizes across work-items; a choice between two pointers it does not. Any other use
 * of the parameter is refused. Single use: one per kernel body.
 */
final class CheckedBody {
  /** The guards of a parameter: the element's address, its value, and a store to it. */
  enum Form {
    AT(""),
    GET("_get"),
    SET("_set");

    final String suffix;

    Form(String suffix) {
      this.suffix = suffix;
    }
  }

  /**
   * A rewritten body.
   *
   * @param text the text between the kernel's braces
   * @param forms the guards it calls, by parameter index
   */
  record Rewritten(String text, Map<Integer, Set<Form>> forms) {}

  private static final Set<String> WRITES =
      Set.of("=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--", "[");

  /** Tokens after which a statement may begin: {@code if (c) p[i] = v;} included. */
  private static final Set<String> STATEMENT_STARTS = Set.of(";", "{", "}", ")", "else", "do", ":");

  /** Words after which an {@code &} cannot be a bitwise and. */
  private static final Set<String> OPERATOR_WORDS = Set.of("return", "sizeof", "case");

  private final String source;
  private final List<Token> tokens;
  private final String kernel;
  private final Map<String, Parameter> pointers = new HashMap<>();
  private final StringBuilder out = new StringBuilder();
  private final Map<Integer, Set<Form>> forms = new TreeMap<>();

  private CheckedBody(String source, List<Token> tokens, String kernel, List<Parameter> pointers) {
    this.source = source;
    this.tokens = tokens;
    this.kernel = kernel;
    pointers.forEach(p -> this.pointers.put(p.name(), p));
  }

  /**
   * The text between {@code kernel}'s braces with every access to {@code pointers} guarded.
   *
   * @throws IllegalArgumentException naming the kernel, the parameter and the line, for a use of a
   *     pointer that cannot be checked
   */
  static Rewritten rewrite(
      String source, List<Token> tokens, KernelDeclaration kernel, List<Parameter> pointers) {
    CheckedBody body = new CheckedBody(source, tokens, kernel.name(), pointers);
    int copied = tokens.get(kernel.bodyOpen()).end();
    copied = body.rewrite(kernel.bodyOpen() + 1, kernel.bodyClose(), copied);
    body.out.append(source, copied, tokens.get(kernel.bodyClose()).start());
    return new Rewritten(body.out.toString(), body.forms);
  }

  /**
   * Appends the source from offset {@code copied} through tokens {@code from} to {@code to}
   * (exclusive), accesses rewritten, except the gap after the last; returns where it stopped.
   */
  private int rewrite(int from, int to, int copied) {
    for (int i = from; i < to; i++) {
      Token name = tokens.get(i);
      Parameter p = name.kind() == ClTokens.Kind.IDENTIFIER ? pointers.get(name.text()) : null;
      if (p == null || isMemberName(i)) {
        continue;
      }
      if (i + 1 >= to || !tokens.get(i + 1).is("[")) {
        throw refused(p, name, "uses " + p.name() + " other than as " + p.name() + "[index]");
      }
      int close = KernelDeclaration.matching(tokens, i + 1);
      int kind = kind(p, i, close);
      int end = kind == ClBoundsCheck.WRITE ? storeEnd(i, close, to) : -1;
      Form form = end >= 0 ? Form.SET : kind == ClBoundsCheck.READ ? Form.GET : Form.AT;
      forms.computeIfAbsent(p.index(), k -> EnumSet.noneOf(Form.class)).add(form);
      out.append(source, copied, name.start())
          .append(form == Form.AT ? "(*" : "")
          .append(CheckedSource.guardName(kernel, p.index()))
          .append(form.suffix)
          .append('(')
          .append(p.name())
          .append(", (ulong) (");
      int inner = rewrite(i + 2, close, tokens.get(i + 1).end());
      out.append(source, inner, tokens.get(close).start())
          .append("), ")
          .append(KernelChecks.bytesName(p.index()))
          .append(", ")
          .append(KernelChecks.ERRORS)
          .append(", ")
          .append(p.index())
          .append('u');
      if (form == Form.SET) {
        out.append(", (");
        int value = rewrite(close + 2, end, tokens.get(close + 1).end());
        out.append(source, value, tokens.get(end).start()).append("))");
        copied = tokens.get(end).start();
        i = end - 1;
      } else {
        out.append(form == Form.AT ? "))" : ")");
        copied = tokens.get(close).end();
        i = close;
      }
    }
    return copied;
  }

  /**
   * For a statement {@code p[index] = value;} whose access is at tokens {@code name} to {@code
   * close}: the index of its {@code ;}; else -1 (a compound assignment, a comma in the value, an
   * assignment inside an expression).
   */
  private int storeEnd(int name, int close, int to) {
    if (close + 1 >= to || !tokens.get(close + 1).is("=") || !startsStatement(name - 1)) {
      return -1;
    }
    int depth = 0;
    for (int i = close + 2; i < to; i++) {
      Token t = tokens.get(i);
      if (t.is("(") || t.is("[") || t.is("{")) {
        depth++;
      } else if (t.is(")") || t.is("]") || t.is("}")) {
        depth--;
      }
      if (depth < 0 || (depth == 0 && t.is(","))) {
        return -1;
      }
      if (depth == 0 && t.is(";")) {
        return i > close + 2 ? i : -1;
      }
    }
    return -1;
  }

  /** Whether a statement may begin after token {@code i}. */
  private boolean startsStatement(int i) {
    if (i < 0) {
      return true;
    }
    Token t = tokens.get(i);
    return t.kind() == ClTokens.Kind.DIRECTIVE || STATEMENT_STARTS.contains(t.text());
  }

  /** A member or vector component that happens to share the parameter's name: {@code s.x}. */
  private boolean isMemberName(int i) {
    return i > 0 && (tokens.get(i - 1).is(".") || tokens.get(i - 1).is("->"));
  }

  /** Whether the access at tokens {@code name} to {@code close} reads or writes. */
  private int kind(Parameter p, int name, int close) {
    Token before = name > 0 ? tokens.get(name - 1) : null;
    if (before != null && (before.is("++") || before.is("--"))) {
      return ClBoundsCheck.WRITE;
    }
    if (before != null && before.is("&") && !isBinary(name - 2)) {
      if (isAtomicPointer(name - 2, close)) {
        return ClBoundsCheck.WRITE;
      }
      boolean afterParenthesis = name >= 2 && tokens.get(name - 2).is(")");
      throw refused(
          p,
          tokens.get(name),
          "takes the address of "
              + p.name()
              + "[...]"
              + (afterParenthesis
                  ? " (a bitwise and after a closing parenthesis reads the same: write it as "
                      + p.name()
                      + "[...] & (...))"
                  : ""));
    }
    int after = afterMembers(close);
    return after < tokens.size() && WRITES.contains(tokens.get(after).text())
        ? ClBoundsCheck.WRITE
        : ClBoundsCheck.READ;
  }

  /** The token after {@code close} and the member or component names that follow it. */
  private int afterMembers(int close) {
    int after = close + 1;
    while (after + 1 < tokens.size()
        && tokens.get(after).is(".")
        && tokens.get(after + 1).kind() == ClTokens.Kind.IDENTIFIER) {
      after += 2; // a member or a vector component: v[i].xy = ...
    }
    return after;
  }

  /** Whether an {@code &} after token {@code i} is a bitwise and: an operand ends at {@code i}. */
  private boolean isBinary(int i) {
    if (i < 0) {
      return false;
    }
    Token t = tokens.get(i);
    return switch (t.kind()) {
      case IDENTIFIER -> !OPERATOR_WORDS.contains(t.text());
      case NUMBER, LITERAL -> true;
      case PUNCTUATOR -> t.is("]");
      case DIRECTIVE -> false;
    };
  }

  /**
   * {@code atomic_xxx(&p[i], ...)} or {@code atomic_xxx(&p[i].member, ...)}: the {@code (} at
   * {@code open}, the call's name before it.
   */
  private boolean isAtomicPointer(int open, int close) {
    int after = afterMembers(close);
    if (open < 1 || !tokens.get(open).is("(") || after >= tokens.size()) {
      return false;
    }
    String call = tokens.get(open - 1).text();
    Token next = tokens.get(after);
    return (call.startsWith("atomic_") || call.startsWith("atom_"))
        && (next.is(",") || next.is(")"));
  }

  private IllegalArgumentException refused(Parameter p, Token at, String what) {
    return new IllegalArgumentException(
        "checked mode cannot check kernel "
            + kernel
            + ": line "
            + ClTokens.line(source, at.start())
            + " "
            + what
            + ", and a pointer made from the __global parameter "
            + p.index()
            + " ("
            + p.pointerType()
            + " "
            + p.name()
            + ") would reach memory unchecked; index it directly, or compile the program unchecked");
  }
}
