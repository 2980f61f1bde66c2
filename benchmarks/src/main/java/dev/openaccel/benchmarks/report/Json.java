package dev.openaccel.benchmarks.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON reader, enough for JMH's result files: objects become {@code Map<String, Object>},
 * arrays {@code List<Object>}, numbers {@code Double}, and strings, booleans and null themselves.
 */
final class Json {
  private final String text;
  private int at;

  private Json(String text) {
    this.text = text;
  }

  /**
   * Parses one JSON value.
   *
   * @throws IllegalArgumentException with the offset, if {@code text} is not valid JSON
   */
  static Object parse(String text) {
    Json json = new Json(text);
    Object value = json.value();
    json.skipSpace();
    if (json.at != text.length()) {
      throw json.error("trailing characters");
    }
    return value;
  }

  private Object value() {
    skipSpace();
    if (at >= text.length()) {
      throw error("unexpected end");
    }
    char c = text.charAt(at);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      default:
        if (text.startsWith("true", at)) {
          at += 4;
          return Boolean.TRUE;
        } else if (text.startsWith("false", at)) {
          at += 5;
          return Boolean.FALSE;
        } else if (text.startsWith("null", at)) {
          at += 4;
          return null;
        }
        return number();
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    expect('{');
    if (peek() == '}') {
      at++;
      return map;
    }
    do {
      skipSpace();
      String key = string();
      expect(':');
      map.put(key, value());
    } while (next(',', '}'));
    return map;
  }

  private List<Object> array() {
    List<Object> list = new ArrayList<>();
    expect('[');
    if (peek() == ']') {
      at++;
      return list;
    }
    do {
      list.add(value());
    } while (next(',', ']'));
    return list;
  }

  private String string() {
    expect('"');
    StringBuilder out = new StringBuilder();
    while (at < text.length()) {
      char c = text.charAt(at++);
      if (c == '"') {
        return out.toString();
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char escaped = text.charAt(at++);
      switch (escaped) {
        case 'n' -> out.append('\n');
        case 't' -> out.append('\t');
        case 'r' -> out.append('\r');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'u' -> {
          out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          at += 4;
        }
        default -> out.append(escaped);
      }
    }
    throw error("unterminated string");
  }

  private Double number() {
    int start = at;
    while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
    if (start == at) {
      throw error("unexpected character '" + text.charAt(at) + "'");
    }
    return Double.valueOf(text.substring(start, at));
  }

  /** Consumes a separator; true if it was {@code more}, false if it was {@code end}. */
  private boolean next(char more, char end) {
    char c = peek();
    at++;
    if (c == more) {
      return true;
    }
    if (c == end) {
      return false;
    }
    throw error("expected '" + more + "' or '" + end + "'");
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    at++;
  }

  private char peek() {
    skipSpace();
    if (at >= text.length()) {
      throw error("unexpected end");
    }
    return text.charAt(at);
  }

  private void skipSpace() {
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
      at++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("bad JSON at offset " + at + ": " + what);
  }
}
