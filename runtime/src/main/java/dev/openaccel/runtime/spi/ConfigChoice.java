package dev.openaccel.runtime.spi;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Reading a configuration value that names one of an enum's constants by their {@code toString}.
 */
public final class ConfigChoice {
  private ConfigChoice() {}

  /**
   * The constant of {@code choices} whose {@code toString} is {@code value}.
   *
   * @param key the configuration key the value came from, named in the error
   * @throws IllegalArgumentException naming {@code key}, {@code value} and the known names if
   *     {@code value} names none
   */
  public static <E extends Enum<E>> E parse(String key, String value, E[] choices) {
    for (E choice : choices) {
      if (choice.toString().equals(value)) {
        return choice;
      }
    }
    throw new IllegalArgumentException(
        key
            + " must be one of "
            + Arrays.stream(choices).map(Object::toString).collect(Collectors.joining(", "))
            + ", got '"
            + value
            + "'");
  }
}
