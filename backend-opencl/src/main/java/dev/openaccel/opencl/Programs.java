package dev.openaccel.opencl;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The accelerator's built programs, keyed by source and build options when the program cache is on.
 *
 * <p>Owns: every {@link DeviceProgram} it built, released by {@link #release()}. Thread-safe: a
 * program is built at most once per key (concurrent callers of the same key wait for that build).
 */
final class Programs {
  private record Key(String source, String options) {}

  private final ClContext context;
  private final OpenClSettings settings;
  private final LaunchTarget target;
  private final Map<Key, DeviceProgram> cache = new ConcurrentHashMap<>();
  private final List<DeviceProgram> uncached = new ArrayList<>();

  Programs(ClContext context, OpenClSettings settings, LaunchTarget target) {
    this.context = context;
    this.settings = settings;
    this.target = target;
  }

  /**
   * The program of {@code source} built with the configured and the given options.
   *
   * @throws OpenClException with the full build log if it does not build
   */
  DeviceProgram compile(String source, String options) {
    SignalChaining.checkFor(context.platformName()); // PoCL's LLVM runs from here on
    return context.whileOpen("compile a program", () -> compileOpen(source, options));
  }

  private DeviceProgram compileOpen(String source, String options) {
    String all = (settings.buildOptions() + " " + options).trim();
    if (!settings.programCache()) {
      DeviceProgram program = build(source, all);
      synchronized (uncached) {
        uncached.add(program);
      }
      return program;
    }
    return cache.computeIfAbsent(new Key(source, all), key -> build(key.source(), key.options()));
  }

  private DeviceProgram build(String source, String options) {
    return new DeviceProgram(new ClProgram(context, source, options), target);
  }

  /** Releases every program; no launch may be enqueued afterwards. */
  void release() {
    cache.values().forEach(DeviceProgram::release);
    cache.clear();
    synchronized (uncached) {
      uncached.forEach(DeviceProgram::release);
      uncached.clear();
    }
  }
}
