package dev.openaccel.runtime;

import java.io.Serializable;
import java.util.Objects;

/**
 * A device of a type, such as {@code openreg:1}. Index {@code -1} means "no index given", which
 * operations read as the caller's current device of that type.
 *
 * @param type the device type
 * @param index the device index, {@code >= -1}
 */
public record Device(DeviceType type, int index) implements Serializable {

  /**
   * Checks the index.
   *
   * @throws IllegalArgumentException "device index must be -1 (none) or non-negative, got ..." if
   *     the index is below -1; {@link NullPointerException} if the type is null
   */
  public Device {
    Objects.requireNonNull(type, "type");
    if (index < -1) {
      throw new IllegalArgumentException(
          "device index must be -1 (none) or non-negative, got " + index + " for " + type);
    }
  }

  /** The device {@code type:index}. */
  public static Device of(DeviceType type, int index) {
    return new Device(type, index);
  }

  /**
   * Parses {@code "openreg"} (no index) or {@code "openreg:1"}.
   *
   * @throws IllegalArgumentException if the text is not of that form
   */
  public static Device parse(String text) {
    Objects.requireNonNull(text, "text");
    int colon = text.indexOf(':');
    if (colon < 0) {
      return new Device(DeviceType.of(text), -1);
    }
    String digits = text.substring(colon + 1);
    if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new IllegalArgumentException(
          "invalid device string '" + text + "': expected type or type:index, e.g. openreg:1");
    }
    try {
      return new Device(DeviceType.of(text.substring(0, colon)), Integer.parseInt(digits));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("invalid device index in '" + text + "'", e);
    }
  }

  /** Whether an index was given. */
  public boolean hasIndex() {
    return index >= 0;
  }

  @Override
  public String toString() {
    return hasIndex() ? type.name() + ":" + index : type.name();
  }
}
