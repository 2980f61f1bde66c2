package dev.openaccel.runtime.internal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.internal.engine.SanitizerMode;
import dev.openaccel.runtime.spi.ConfigValues;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checks an accelerator makes of its configuration as it starts: the runtime's own keys must
 * hold allowed values (else {@link IllegalArgumentException} naming the key, the value and what is
 * allowed), and a key under {@code openaccel.} that no module on the class path defines is reported
 * at WARN with the closest known key (a misspelt key would otherwise be ignored). Stateless.
 * Internal.
 */
final class RuntimeConfig {
  private static final Logger log = LoggerFactory.getLogger(RuntimeConfig.class);
  private static final Pattern SYSTEM_NAME = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_-]*");

  private RuntimeConfig() {}

  /** {@code openaccel.system-name}, checked before a system of that name is created. */
  static String systemName(Config config) {
    String key = "openaccel.system-name";
    String name = ConfigValues.string(config, key);
    if (!SYSTEM_NAME.matcher(name).matches()) {
      throw ConfigValues.invalid(
          config, key, "an actor system name: letters, digits, and '-' or '_' after the first");
    }
    return name;
  }

  /** Checks the runtime's keys and warns about unknown ones. */
  static void check(Config config, ClassLoader loader) {
    systemName(config);
    String type = ConfigValues.string(config, "openaccel.default-device-type");
    if (!type.isEmpty()) {
      try {
        DeviceType.of(type);
      } catch (IllegalArgumentException notAType) {
        throw ConfigValues.invalid(
            config, "openaccel.default-device-type", "\"\" or a device type such as openreg");
      }
    }
    ConfigValues.stringList(config, "openaccel.disabled-backends");
    ConfigValues.intAtLeast(config, "openaccel.stream-pool-size", 1);
    ConfigValues.intAtLeast(config, "openaccel.stream-queue-limit", 0);
    ConfigValues.durationAtLeast(config, "openaccel.stream-queue-wait", Duration.ZERO);
    ConfigValues.durationAtLeast(
        config, "openaccel.device-synchronize-timeout", Duration.ofMillis(1));
    ConfigValues.durationAtLeast(
        config, "openaccel.interrupt-kernels-after", Duration.ofMillis(10));
    ConfigValues.choice(config, "openaccel.sanitizer", SanitizerMode.values());
    warnUnknown(config, ConfigFactory.defaultReference(loader));
  }

  /** Warns about each key under {@code openaccel} that {@code reference} does not define. */
  static void warnUnknown(Config config, Config reference) {
    if (!config.hasPath("openaccel")) {
      return;
    }
    Set<String> known = new TreeSet<>();
    reference.getConfig("openaccel").entrySet().forEach(e -> known.add("openaccel." + e.getKey()));
    List<String> open = openObjects(reference);
    for (Map.Entry<String, ConfigValue> given : config.getConfig("openaccel").entrySet()) {
      // A list given as system properties arrives as indexed keys: -Dopenaccel.x.0=a is
      // openaccel.x.
      String key = ("openaccel." + given.getKey()).replaceAll("(\\.\\d+)+$", "");
      if (!known.contains(key) && open.stream().noneMatch(key::startsWith)) {
        log.warn(
            "unknown configuration key {} (no OpenAccel module on the class path reads it; it is"
                + " ignored); the closest known key is {}",
            key,
            closest(key, known));
      }
    }
  }

  /**
   * The objects under {@code openaccel} whose keys are free: empty ones ({@code devices {}}, keyed
   * by device index) and dispatchers (Pekko checks their keys).
   */
  private static List<String> openObjects(Config reference) {
    List<String> open = new ArrayList<>();
    collectOpen("openaccel", reference.getObject("openaccel"), open);
    return open;
  }

  private static void collectOpen(String path, ConfigObject object, List<String> open) {
    if (object.isEmpty() || object.containsKey("type") && object.containsKey("executor")) {
      open.add(path + ".");
      return;
    }
    object.forEach(
        (name, value) -> {
          if (value.valueType() == ConfigValueType.OBJECT) {
            collectOpen(path + "." + name, (ConfigObject) value, open);
          }
        });
  }

  /** The known key nearest to {@code key} by edit distance. */
  static String closest(String key, Set<String> known) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : known) {
      int distance = distance(key, candidate);
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return best;
  }

  /** Levenshtein distance, two rows. */
  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
