package dev.openaccel.opencl;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.PriorityRange;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.BackendContext;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.DeviceGuardImpl;
import dev.openaccel.runtime.spi.Engine;
import dev.openaccel.runtime.spi.EngineSpec;
import dev.openaccel.runtime.trace.Tracer;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.LoggerFactory;

/**
 * The OpenCL backend of one accelerator: the selected platform's devices in one {@code cl_context},
 * described as an {@link EngineSpec} whose executor gives each stream a {@link ClQueue} and whose
 * memory is {@link ClDeviceMemory}; the runtime's actor engine does the rest. Without an OpenCL
 * platform it reports 0 devices and {@link #unavailableReason()} says why.
 *
 * <p>Owns: the context, the programs, the command buffers of graphs and the memory's map queues,
 * released when the actor system terminates; the engine reference, set once at creation. This class
 * is thread-safe.
 */
final class OpenClBackend implements LaunchTarget {
  /** No queue priorities without {@code cl_khr_priority_hints}: one priority, 0. */
  static final PriorityRange PRIORITIES = new PriorityRange(0, 0);

  private final String unavailable;
  private final ClContext context;
  private final ClDeviceMemory memory;
  private final Programs programs;
  private final ClCommandBuffers commandBuffers;
  private volatile Engine engine;

  private OpenClBackend(OpenClSettings settings, String unavailable, ClContext context) {
    this.unavailable = unavailable;
    this.context = context;
    this.memory = context == null ? null : new ClDeviceMemory(context, settings.memoryPerDevice());
    this.programs = context == null ? null : new Programs(context, settings, this);
    this.commandBuffers =
        context == null ? null : new ClCommandBuffers(context, settings.profiling());
  }

  /**
   * The engine of a new backend for {@code settings}, kept in the actor system for {@link
   * OpenCl#get}; never throws for a missing or failing platform.
   */
  static DeviceGuardImpl create(OpenClSettings settings, BackendContext backend) {
    String unavailable = null;
    ClContext context = null;
    try {
      ClPlatforms.Probe probe = ClPlatforms.probe(settings);
      if (probe instanceof ClPlatforms.Found found) {
        context = new ClContext(found, settings.completions());
      } else {
        unavailable = ((ClPlatforms.Unavailable) probe).reason();
      }
    } catch (RuntimeException e) {
      unavailable = "OpenCL failed to start: " + e.getMessage();
    }
    if (unavailable != null) {
      LoggerFactory.getLogger(OpenClBackend.class).warn("opencl has 0 devices: {}", unavailable);
    }
    OpenClBackend created = new OpenClBackend(settings, unavailable, context);
    created.engine = backend.engine(created.spec(settings, backend.tracer()));
    OpenClSystem.of(backend.system()).install(created);
    if (context != null) {
      context.endsWith(backend.system().getWhenTerminated());
      backend.afterTermination("the opencl context", created::release);
    }
    return created.engine;
  }

  private EngineSpec spec(OpenClSettings settings, Tracer tracer) {
    EngineSpec.Builder spec =
        EngineSpec.builder(OpenClProvider.TYPE)
            .deviceCount(context == null ? 0 : context.devices().size())
            .priorityRange(PRIORITIES)
            .computeUnits(settings.computeUnits())
            .streamPoolSize(settings.streamPoolSize())
            .batch(settings.batch())
            .waitStrategy(settings.waitStrategy());
    Set<Capability> capabilities =
        EnumSet.of(Capability.EVENTS, Capability.STREAM_POOL, Capability.INTERPROCESS_EVENTS);
    if (context != null) {
      if (context.devices().size() > 1) {
        capabilities.add(Capability.CROSS_DEVICE_WAIT); // with one device there is no other
      }
      boolean profiling = settings.profiling();
      spec.executor(new ClExecutor(context, profiling, tracer, commandBuffers)).memory(memory);
      capabilities.add(Capability.DEVICE_MEMORY);
      capabilities.add(Capability.GRAPHS);
      if (profiling) {
        capabilities.add(Capability.TIMING);
      }
    }
    return spec.capabilities(capabilities).build();
  }

  /** Why there are no devices, or empty when OpenCL is available. */
  Optional<String> unavailableReason() {
    return Optional.ofNullable(unavailable);
  }

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

  /** The device memory (buffers, copies, mapped views). */
  ClDeviceMemory memory() {
    requireAvailable();
    return memory;
  }

  /** The command buffers of graph replays. */
  ClCommandBuffers commandBuffers() {
    requireAvailable();
    return commandBuffers;
  }

  /** The engine, for the operations the backend adds to it. */
  Engine engine() {
    requireAvailable();
    return engine;
  }

  @Override
  public ClRegion region(DeviceBuffer buffer, String use) {
    return ClRegion.of(engine().region(buffer, use), memory);
  }

  @Override
  public void enqueue(Stream stream, ClLaunch launch) {
    engine.enqueue(stream, launch.name(), launch);
  }

  private void requireAvailable() {
    if (context == null) {
      throw new IllegalStateException("the opencl backend has no devices: " + unavailable);
    }
  }

  private void release() {
    context.stopMaking(); // no program or buffer is made from here on, nor half made now
    commandBuffers.release(); // before the programs: it holds kernel objects of theirs
    programs.release();
    memory.release();
    context.close();
  }
}
