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
  private record Key(String source, String options, boolean checked) {}

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
   * The program of {@code source} built with the configured and the given options, checked as they
   * say.
   *
   * @throws OpenClException with the full build log if it does not build
   * @throws IllegalArgumentException if it is to be checked and a kernel cannot be
   */
  DeviceProgram compile(String source, ProgramOptions options) {
    SignalChaining.checkFor(context.platformName()); // PoCL's LLVM runs from here on
    String all = (settings.buildOptions() + " " + options.buildOptions()).trim();
    Key key = new Key(source, all, options.checkedWith(settings.checkedKernels()));
    return context.whileOpen("compile a program", () -> compileOpen(key));
  }

  private DeviceProgram compileOpen(Key key) {
    if (!settings.programCache()) {
      DeviceProgram program = build(key);
      synchronized (uncached) {
        uncached.add(program);
      }
      return program;
    }
    return cache.computeIfAbsent(key, this::build);
  }

  private DeviceProgram build(Key key) {
    if (!key.checked()) {
      return new DeviceProgram(new ClProgram(context, key.source(), key.options()), target, null);
    }
    CheckedSource.Result checked = CheckedSource.instrument(key.source());
    return new DeviceProgram(
        new ClProgram(context, checked.source(), key.options()), target, checked.kernels());
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
