package dev.openaccel.cluster;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kernels of one node, by name: what {@link RemoteStream#launch} looks up on the stream's node.
 * Every node that should run a kernel registers it under the same name (the same code on the class
 * path, registered at start-up). This class is thread-safe.
 */
public final class KernelRegistry {
  private final Map<String, RemoteKernel> kernels = new ConcurrentHashMap<>();

  KernelRegistry() {}

  /**
   * Registers {@code kernel} under {@code name}.
   *
   * @throws IllegalArgumentException if the name is blank
   * @throws IllegalStateException if another kernel has this name
   */
  public void register(String name, RemoteKernel kernel) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kernel, "kernel");
    if (name.isBlank()) {
      throw new IllegalArgumentException("a kernel name must not be blank");
    }
    RemoteKernel previous = kernels.putIfAbsent(name, kernel);
    if (previous != null && previous != kernel) {
      throw new IllegalStateException("a different kernel is already registered as '" + name + "'");
    }
  }

  /** The kernel registered under {@code name}. */
  public Optional<RemoteKernel> find(String name) {
    return Optional.ofNullable(kernels.get(name));
  }

  /** The registered names, sorted. */
  public Set<String> names() {
    return new TreeSet<>(kernels.keySet());
  }
}
