package dev.openaccel.runtime.spi;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigValue;
import java.time.Duration;
import java.util.List;

/**
 * Reading configuration values by their full key, so that a bad one fails the start naming the key,
 * the value and what is allowed: {@code "<key> must be <allowed>, got '<value>'"}. A backend reads
 * its settings with these in {@link BackendProvider#create}; an {@link IllegalArgumentException}
 * thrown there fails {@code Accelerator.start} (and the extension's creation) instead of leaving a
 * backend with zero devices. Stateless; thread-safe.
 */
public final class ConfigValues {
  private ConfigValues() {}

  /** A whole number {@code >= min}. */
  public static int intAtLeast(Config config, String key, int min) {
    return atLeast(config, key, "a whole number >= " + min, () -> config.getInt(key), min);
  }

  /** A whole number of 64 bits. */
  public static long longValue(Config config, String key) {
    return read(config, key, "a whole number", () -> config.getLong(key));
  }

  /** A duration ({@code 10ms}, {@code 2s}) of at least {@code min}. */
  public static Duration durationAtLeast(Config config, String key, Duration min) {
    String allowed = "a duration such as 10ms or 2s, at least " + min.toMillis() + "ms";
    return atLeast(config, key, allowed, () -> config.getDuration(key), min);
  }

  /** A size in bytes ({@code 256MiB}, {@code 4096}) of at least {@code min}. */
  public static long bytesAtLeast(Config config, String key, long min) {
    String allowed = "a size in bytes such as 4096 or 256MiB, at least " + min;
    return atLeast(config, key, allowed, () -> config.getBytes(key), min);
  }

  /** {@code on}/{@code off} (or {@code true}/{@code false}, {@code yes}/{@code no}). */
  public static boolean bool(Config config, String key) {
    return read(config, key, "on or off", () -> config.getBoolean(key));
  }

  /** A string. */
  public static String string(Config config, String key) {
    return read(config, key, "a string", () -> config.getString(key));
  }

  /** A list of strings (numbers are taken as their text). */
  public static List<String> stringList(Config config, String key) {
    return read(
        config,
        key,
        "a list such as [] or [\"a\", \"b\"]",
        () -> config.getList(key).unwrapped().stream().map(String::valueOf).toList());
  }

  /** The constant of {@code choices} whose {@code toString} is the value. */
  public static <E extends Enum<E>> E choice(Config config, String key, E[] choices) {
    return ConfigChoice.parse(key, string(config, key), choices);
  }

  /**
   * The error for {@code key}'s value in {@code config}: "{@code <key> must be <allowed>, got
   * '<value>'}".
   */
  public static IllegalArgumentException invalid(Config config, String key, String allowed) {
    return new IllegalArgumentException(
        key + " must be " + allowed + ", got " + shown(config, key));
  }

  private static String shown(Config config, String key) {
    if (!config.hasPathOrNull(key)) {
      return "nothing (the key is missing)";
    }
    if (config.getIsNull(key)) {
      return "null";
    }
    ConfigValue value = config.getValue(key);
    return "'" + value.unwrapped() + "'";
  }

  private interface Reader<T> {
    T read();
  }

  private static <T extends Comparable<T>> T atLeast(
      Config config, String key, String allowed, Reader<T> reader, T min) {
    T value = read(config, key, allowed, reader);
    if (value.compareTo(min) < 0) {
      throw invalid(config, key, allowed);
    }
    return value;
  }

  private static <T> T read(Config config, String key, String allowed, Reader<T> reader) {
    try {
      return reader.read();
    } catch (ConfigException wrong) {
      IllegalArgumentException e = invalid(config, key, allowed);
      e.initCause(wrong);
      throw e;
    }
  }
}
