package dev.openaccel.runtime.internal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.spi.BackendContext;
import dev.openaccel.runtime.spi.BackendProvider;
import dev.openaccel.runtime.spi.ConfigValues;
import dev.openaccel.runtime.spi.DeviceGuardImpl;
import dev.openaccel.runtime.spi.VirtualGuardImpl;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The backends of one {@code Accelerator}, found with {@link ServiceLoader} and created once. A
 * provider that throws {@link IllegalArgumentException} (a bad configuration value, see {@link
 * dev.openaccel.runtime.spi.ConfigValues}) or {@link ConfigException} fails the start; one that
 * throws anything else is kept as a backend with zero devices that reports its failure. Internal.
 *
 * <p>Owns: the type-to-backend table, fixed at construction.
 */
final class BackendRegistry {
  private static final Logger log = LoggerFactory.getLogger(BackendRegistry.class);

  private final Map<DeviceType, VirtualGuardImpl> backends; // in name order
  private final Map<DeviceType, VirtualGuardImpl> lookup; // the same, hashed: every call routes

  private BackendRegistry(Map<DeviceType, VirtualGuardImpl> backends) {
    this.backends = Collections.unmodifiableMap(backends);
    this.lookup = Map.copyOf(backends);
  }

  /**
   * Discovers and creates the enabled backends visible to {@code loader}, each with its own
   * context.
   */
  static BackendRegistry load(
      ClassLoader loader, Config config, Function<DeviceType, BackendContext> contexts) {
    Set<String> disabled =
        new LinkedHashSet<>(ConfigValues.stringList(config, "openaccel.disabled-backends"));
    Map<DeviceType, VirtualGuardImpl> backends =
        new TreeMap<>((a, b) -> a.name().compareTo(b.name()));
    for (BackendProvider provider : ServiceLoader.load(BackendProvider.class, loader)) {
      DeviceType type = provider.type();
      if (disabled.contains(type.name())) {
        log.debug("backend {} disabled by openaccel.disabled-backends", type);
      } else if (backends.containsKey(type)) {
        log.warn("ignoring second provider {} for device type {}", provider.getClass(), type);
      } else {
        backends.put(type, new VirtualGuardImpl(create(provider, type, contexts.apply(type))));
      }
    }
    return new BackendRegistry(backends);
  }

  private static DeviceGuardImpl create(
      BackendProvider provider, DeviceType type, BackendContext context) {
    try {
      DeviceGuardImpl impl = provider.create(context);
      if (!impl.type().equals(type)) {
        throw new IllegalStateException(
            "provider "
                + provider.getClass().getName()
                + " of "
                + type
                + " created a "
                + impl.type()
                + " backend");
      }
      return impl;
    } catch (IllegalArgumentException | ConfigException misconfigured) {
      throw misconfigured; // the user's to fix, at start: no backend with a hidden error
    } catch (RuntimeException | LinkageError e) {
      log.error("backend {} failed to initialise; it reports 0 devices", type, e);
      return new FailedBackend(type, e);
    }
  }

  /** The device types found and enabled, in name order. */
  Set<DeviceType> types() {
    return backends.keySet();
  }

  /**
   * The router for {@code type}.
   *
   * @throws IllegalArgumentException containing "no backend for device type"
   */
  VirtualGuardImpl get(DeviceType type) {
    VirtualGuardImpl impl = lookup.get(type);
    if (impl == null) {
      throw new IllegalArgumentException(
          "no backend for device type " + type + " (available: " + backends.keySet() + ")");
    }
    return impl;
  }
}
