package dev.openaccel.micrometer;

/**
 * The names and tag keys of the meters {@link OpenAccelMetrics} registers: Micrometer's conventions
 * (lowercase, dot-separated, base units), which each registry turns into its own (for example
 * {@code openaccel_memory_allocated_bytes} in Prometheus). Every meter is tagged {@value #DEVICE}
 * (such as {@code openreg:0}) and {@value #DEVICE_TYPE} (such as {@code openreg}), plus the
 * binder's common tags; the stream gauge also {@value #STREAM}.
 */
public final class MeterNames {

  /** Tag: the device, as {@code Device.toString()} writes it, such as {@code openreg:0}. */
  public static final String DEVICE = "device";

  /** Tag: the device's type, such as {@code openreg}. */
  public static final String DEVICE_TYPE = "device.type";

  /** Tag of {@link #STREAM_PENDING}: the stream's id on its device, 0 for the default stream. */
  public static final String STREAM = "stream";

  /** Gauge, bytes: memory held by live buffers ({@code MemoryStats.allocated}). */
  public static final String MEMORY_ALLOCATED = "openaccel.memory.allocated";

  /** Gauge, bytes: held by the caching allocator, live buffers plus cached free blocks. */
  public static final String MEMORY_RESERVED = "openaccel.memory.reserved";

  /** Gauge, bytes: the highest {@link #MEMORY_ALLOCATED} so far ({@code peakAllocated}). */
  public static final String MEMORY_PEAK = "openaccel.memory.peak";

  /** Gauge, bytes: the device's total memory. */
  public static final String MEMORY_CAPACITY = "openaccel.memory.capacity";

  /** Gauge, items: work enqueued on a stream and not completed ({@code Stream.pendingWork}). */
  public static final String STREAM_PENDING = "openaccel.stream.pending";

  /** Counter, kernels: kernels that started on the device. */
  public static final String KERNELS_STARTED = "openaccel.kernels.started";

  /** Counter, kernels: kernels that ended, failed ones included. */
  public static final String KERNELS_FINISHED = "openaccel.kernels.finished";

  /** Counter, kernels: kernels that ended by throwing (or, on OpenCL, with an error status). */
  public static final String KERNELS_FAILED = "openaccel.kernels.failed";

  /** Timer: how long each kernel ran, from its start to its end as the trace reports them. */
  public static final String KERNEL_DURATION = "openaccel.kernel.duration";

  /** Counter, events: records of an event on a stream ({@code Event.record}). */
  public static final String EVENTS_RECORDED = "openaccel.events.recorded";

  /** Counter, events: waits of a stream for an event's record ({@code Event.block}). */
  public static final String EVENTS_WAITED = "openaccel.events.waited";

  /** Counter, events: host waits on an event ({@code Event.synchronize}). */
  public static final String EVENTS_SYNCHRONIZED = "openaccel.events.synchronized";

  private MeterNames() {}
}
