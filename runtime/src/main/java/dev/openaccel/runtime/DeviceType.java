package dev.openaccel.runtime;

import java.io.Serializable;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The kind of a device, such as {@code openreg}: the key that routes every operation to its
 * backend.
 *
 * @param name lower-case identifier matching {@code [a-z][a-z0-9_]*}
 */
public record DeviceType(String name) implements Serializable {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");

  /**
   * Checks the name.
   *
   * @throws IllegalArgumentException "device type name '...' must match [a-z][a-z0-9_]*" if it does
   *     not match; {@link NullPointerException} if it is null
   */
  public DeviceType {
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "device type name '" + name + "' must match [a-z][a-z0-9_]*");
    }
  }

  /** The device type with the given name. */
  public static DeviceType of(String name) {
    return new DeviceType(name);
  }

  // Written out rather than generated: on the path of every routed call, where the generated
  // record methods showed in profiles. Same meaning: equal names.
  @Override
  public boolean equals(Object other) {
    return this == other || (other instanceof DeviceType type && name.equals(type.name));
  }

  @Override
  public int hashCode() {
    return name.hashCode();
  }

  @Override
  public String toString() {
    return name;
  }
}
