package dev.openaccel.opencl;

import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.spi.BackendContext;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.EngineGuardImpl;
import dev.openaccel.runtime.spi.EngineSpec;
import dev.openaccel.runtime.spi.LaunchModel;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.LoggerFactory;

/**
 * The OpenCL backend's {@code DeviceGuardImpl}: the selected platform's devices, in one {@code
 * cl_context}, described as an {@link EngineSpec} for the runtime's actor engine, plus the programs
 * and command queues of this accelerator. Without an OpenCL platform it reports 0 devices and
 * {@link #unavailableReason()} says why.
 *
 * <p>Owns: the context, the program cache and the stream queues, released when the actor system
 * terminates. This class is thread-safe.
 */
final class OpenClBackend extends EngineGuardImpl {
  /** No queue priorities without {@code cl_khr_priority_hints}: one priority, 0. */
  static final PriorityRange PRIORITIES = new PriorityRange(0, 0);

  private static final Set<Capability> CAPABILITIES =
      Set.copyOf(
          EnumSet.of(
              Capability.EVENTS,
              Capability.TIMING,
              Capability.STREAM_POOL,
              Capability.CROSS_DEVICE_WAIT,
              Capability.INTERPROCESS_EVENTS,
              Capability.DEVICE_MEMORY));

  private final String unavailable;
  private final ClContext context;
  private final StreamQueues queues;
  private final Programs programs;

  private OpenClBackend(
      OpenClSettings settings, ClPlatforms.Probe probe, ClContext context, BackendContext backend) {
    super(OpenClProvider.TYPE, spec(settings, context), backend);
    this.unavailable = probe instanceof ClPlatforms.Unavailable u ? u.reason() : null;
    this.context = context;
    if (context == null) {
      queues = null;
      programs = null;
      return;
    }
    this.queues = new StreamQueues(context, settings.profiling());
    this.programs = new Programs(context, settings, new GatedStreamWork(context, queues));
    backend.system().getWhenTerminated().thenRun(this::release);
  }

  /** The backend for {@code settings}; never throws for a missing or failing platform. */
  static OpenClBackend create(OpenClSettings settings, BackendContext backend) {
    ClPlatforms.Probe probe;
    ClContext context = null;
    try {
      probe = ClPlatforms.probe(settings);
      if (probe instanceof ClPlatforms.Found found) {
        context = new ClContext(found);
      }
    } catch (RuntimeException e) {
      probe = new ClPlatforms.Unavailable("OpenCL failed to start: " + e.getMessage());
    }
    if (probe instanceof ClPlatforms.Unavailable u) {
      LoggerFactory.getLogger(OpenClBackend.class).warn("opencl: 0 devices: {}", u.reason());
    }
    return new OpenClBackend(settings, probe, context, backend);
  }

  private static EngineSpec spec(OpenClSettings settings, ClContext context) {
    int devices = context == null ? 0 : context.devices().size();
    long memory =
        settings.memoryPerDevice() > 0
            ? settings.memoryPerDevice()
            : context == null
                ? 1
                : context.devices().stream().mapToLong(ClDevice::globalMemory).min().orElse(1);
    return new EngineSpec(
        devices,
        PRIORITIES,
        settings.computeUnits(),
        settings.streamPoolSize(),
        settings.batch(),
        LaunchModel.immediate(),
        memory);
  }

  /** Why there are no devices, or empty when OpenCL is available. */
  Optional<String> unavailableReason() {
    return Optional.ofNullable(unavailable);
  }

  /** The context, for code of this package; throws when OpenCL is unavailable. */
  ClContext context() {
    requireAvailable();
    return context;
  }

  Programs programs() {
    requireAvailable();
    return programs;
  }

  List<ClDevice> devices() {
    return context == null ? List.of() : context.devices();
  }

  private void requireAvailable() {
    if (context == null) {
      throw new IllegalStateException("the opencl backend has no devices: " + unavailable);
    }
  }

  private void release() {
    programs.release();
    queues.release();
    context.close();
  }

  @Override
  public Set<Capability> capabilities() {
    return CAPABILITIES;
  }
}
