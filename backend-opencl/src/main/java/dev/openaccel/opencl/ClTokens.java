package dev.openaccel.opencl;

import java.util.ArrayList;
import java.util.List;

/**
 * OpenCL C source cut into tokens, for the rewriting of checked kernels ({@link CheckedSource}).
 * Comments and whitespace are no tokens: they stay in the gaps between tokens, which the rewriting
 * copies as they are. String and character literals are one token each (so brackets and names in
 * them are never taken for code), and so is a preprocessor directive, from its {@code #} to the end
 * of its line (continuation lines included). Stateless.
 */
final class ClTokens {
  /** What a token is. */
  enum Kind {
    IDENTIFIER,
    NUMBER,
    LITERAL,
    PUNCTUATOR,
    DIRECTIVE
  }

  /**
   * One token: its kind, its text and where it lies in the source.
   *
   * @param start offset of its first character
   * @param end offset just past its last character
   */
  record Token(Kind kind, String text, int start, int end) {
    boolean is(String other) {
      return kind != Kind.LITERAL && kind != Kind.DIRECTIVE && text.equals(other);
    }
  }

  private static final String[] PUNCTUATORS = {
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=",
    "-=", "*=", "/=", "%=", "&=", "^=", "|=", "##"
  };

  private ClTokens() {}

  /** The tokens of {@code source}, in order; an unterminated comment or literal ends the source. */
  static List<Token> of(String source) {
    List<Token> tokens = new ArrayList<>();
    int i = 0;
    boolean lineStart = true; // only whitespace or comments since the last newline
    int n = source.length();
    while (i < n) {
      char c = source.charAt(i);
      if (c == '\n') {
        lineStart = true;
        i++;
      } else if (Character.isWhitespace(c)) {
        i++;
      } else if (source.startsWith("//", i)) {
        i = lineEnd(source, i);
      } else if (source.startsWith("/*", i)) {
        int close = source.indexOf("*/", i + 2);
        i = close < 0 ? n : close + 2;
      } else {
        int end;
        Kind kind;
        if (c == '#' && lineStart) {
          kind = Kind.DIRECTIVE;
          end = directiveEnd(source, i);
        } else if (Character.isJavaIdentifierStart(c) && c != '$') {
          kind = Kind.IDENTIFIER;
          end = i + 1;
          while (end < n && isIdentifierPart(source.charAt(end))) {
            end++;
          }
        } else if (Character.isDigit(c)
            || (c == '.' && i + 1 < n && Character.isDigit(source.charAt(i + 1)))) {
          kind = Kind.NUMBER;
          end = numberEnd(source, i);
        } else if (c == '"' || c == '\'') {
          kind = Kind.LITERAL;
          end = literalEnd(source, i, c);
        } else {
          kind = Kind.PUNCTUATOR;
          end = i + punctuatorLength(source, i);
        }
        tokens.add(new Token(kind, source.substring(i, end), i, end));
        lineStart = false;
        i = end;
      }
    }
    return tokens;
  }

  /** The line (from 1) of {@code offset} in {@code source}. */
  static int line(String source, int offset) {
    int line = 1;
    for (int i = 0; i < offset && i < source.length(); i++) {
      if (source.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }

  private static boolean isIdentifierPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  private static int lineEnd(String source, int from) {
    int newline = source.indexOf('\n', from);
    return newline < 0 ? source.length() : newline;
  }

  private static int directiveEnd(String source, int from) {
    int end = lineEnd(source, from);
    while (end < source.length() && source.substring(from, end).stripTrailing().endsWith("\\")) {
      end = lineEnd(source, end + 1);
    }
    return end;
  }

  /** A preprocessing number: digits, letters, dots, and a sign after an exponent's letter. */
  private static int numberEnd(String source, int from) {
    int end = from + 1;
    while (end < source.length()) {
      char c = source.charAt(end);
      char previous = source.charAt(end - 1);
      boolean sign = (c == '+' || c == '-') && "eEpP".indexOf(previous) >= 0;
      if (!isIdentifierPart(c) && c != '.' && !sign) {
        break;
      }
      end++;
    }
    return end;
  }

  private static int literalEnd(String source, int from, char quote) {
    int end = from + 1;
    while (end < source.length() && source.charAt(end) != quote && source.charAt(end) != '\n') {
      end += source.charAt(end) == '\\' ? 2 : 1;
    }
    return Math.min(source.length(), end + 1);
  }

  private static int punctuatorLength(String source, int from) {
    for (String p : PUNCTUATORS) {
      if (source.startsWith(p, from)) {
        return p.length();
      }
    }
    return 1;
  }
}
