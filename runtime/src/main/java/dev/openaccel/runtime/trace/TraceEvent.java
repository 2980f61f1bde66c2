package dev.openaccel.runtime.trace;

import dev.openaccel.runtime.Device;
import java.util.Objects;

/**
 * What the runtime reports to {@link TraceBus} subscribers: PyTorch's GPUTrace hooks as messages.
 * Every event names its device and carries a timestamp from the monotonic device clock ({@link
 * System#nanoTime()}). Host-side events (created, recorded, waited, synchronized) are stamped at
 * the call; kernel events on the device thread, in stream order.
 */
public sealed interface TraceEvent {

  /** The device it happened on. */
  Device device();

  /** {@link System#nanoTime()} when it happened. */
  long atNanos();

  /** The backend event was created, by the event's first record. */
  record EventCreated(Device device, long eventId, long atNanos) implements TraceEvent {
    /** Rejects a null {@code device} ({@link NullPointerException}). */
    public EventCreated {
      Objects.requireNonNull(device, "device");
    }
  }

  /** The backend event was destroyed, by the event's close. */
  record EventDeleted(Device device, long eventId, long atNanos) implements TraceEvent {
    /** Rejects a null {@code device} ({@link NullPointerException}). */
    public EventDeleted {
      Objects.requireNonNull(device, "device");
    }
  }

  /** Record {@code generation} of the event was enqueued on the stream. */
  record EventRecorded(Device device, long eventId, long streamId, long generation, long atNanos)
      implements TraceEvent {
    /** Rejects a null {@code device} ({@link NullPointerException}). */
    public EventRecorded {
      Objects.requireNonNull(device, "device");
    }
  }

  /** The stream will wait for record {@code generation} of the event. */
  record EventWaited(Device device, long eventId, long streamId, long generation, long atNanos)
      implements TraceEvent {
    /** Rejects a null {@code device} ({@link NullPointerException}). */
    public EventWaited {
      Objects.requireNonNull(device, "device");
    }
  }

  /** The host synchronized on the event. */
  record EventSynchronized(Device device, long eventId, long atNanos) implements TraceEvent {
    /** Rejects a null {@code device} ({@link NullPointerException}). */
    public EventSynchronized {
      Objects.requireNonNull(device, "device");
    }
  }

  /** A stream was created with {@code priority}. */
  record StreamCreated(Device device, long streamId, int priority, long atNanos)
      implements TraceEvent {
    /** Rejects a null {@code device} ({@link NullPointerException}). */
    public StreamCreated {
      Objects.requireNonNull(device, "device");
    }
  }

  /** The host synchronized on the stream. */
  record StreamSynchronized(Device device, long streamId, long atNanos) implements TraceEvent {
    /** Rejects a null {@code device} ({@link NullPointerException}). */
    public StreamSynchronized {
      Objects.requireNonNull(device, "device");
    }
  }

  /** The host synchronized on the whole device. */
  record DeviceSynchronized(Device device, long atNanos) implements TraceEvent {
    /** Rejects a null {@code device} ({@link NullPointerException}). */
    public DeviceSynchronized {
      Objects.requireNonNull(device, "device");
    }
  }

  /** A kernel started on the device thread. */
  record KernelStarted(Device device, long streamId, String kernel, long atNanos)
      implements TraceEvent {
    /** Rejects a null {@code device} or {@code kernel} ({@link NullPointerException}). */
    public KernelStarted {
      Objects.requireNonNull(device, "device");
      Objects.requireNonNull(kernel, "kernel");
    }
  }

  /**
   * A replay of a graph was enqueued on a stream (lane 0), stamped before it was: its nodes'
   * kernels follow, up to its {@link GraphReplayed}.
   */
  record GraphLaunched(Device device, long streamId, long graphId, long replay, long atNanos)
      implements TraceEvent {
    /** Rejects a null {@code device} ({@link NullPointerException}). */
    public GraphLaunched {
      Objects.requireNonNull(device, "device");
    }
  }

  /** A replay of a graph ended; {@code failed} if a kernel or copy of it failed. */
  record GraphReplayed(
      Device device, long streamId, long graphId, long replay, boolean failed, long atNanos)
      implements TraceEvent {
    /** Rejects a null {@code device} ({@link NullPointerException}). */
    public GraphReplayed {
      Objects.requireNonNull(device, "device");
    }
  }

  /** A kernel finished; {@code failed} if it threw. */
  record KernelFinished(Device device, long streamId, String kernel, boolean failed, long atNanos)
      implements TraceEvent {
    /** Rejects a null {@code device} or {@code kernel} ({@link NullPointerException}). */
    public KernelFinished {
      Objects.requireNonNull(device, "device");
      Objects.requireNonNull(kernel, "kernel");
    }
  }

  /**
   * A piece of data one member of a process group sent for a collective operation (reported by the
   * cluster module, on the node of that member): from when the piece was ready ({@code startNanos}:
   * it arrived and was reduced, or it is the member's own) until it was handed to the network
   * ({@code atNanos}). {@code operation} and {@code number} name the operation as its messages do
   * ({@code allReduce #4}); {@code step} is its step of the algorithm, {@code piece} its index
   * within that step, {@code bytes} its size. {@code streamId} is the stream the operation was
   * enqueued on.
   */
  record CollectiveStep(
      Device device,
      long streamId,
      String group,
      String operation,
      long number,
      int step,
      int piece,
      long bytes,
      long startNanos,
      long atNanos)
      implements TraceEvent {
    /**
     * Rejects a null {@code device}, {@code group} or {@code operation} ({@link
     * NullPointerException}).
     */
    public CollectiveStep {
      Objects.requireNonNull(device, "device");
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(operation, "operation");
    }
  }

  /**
   * A collective operation of a process group ended on one member (reported by the cluster module,
   * on the node of that member): its span, from when it started ({@code startNanos}: its stream
   * reached it) until its {@code Work} completed ({@code atNanos}: the result is in the output, or
   * it failed, then {@code failed}). {@code bytes} is the larger of its input and output on this
   * member (0 for a barrier); its {@link CollectiveStep}s carry the same group, operation and
   * number.
   */
  record CollectiveFinished(
      Device device,
      long streamId,
      String group,
      String operation,
      long number,
      long bytes,
      boolean failed,
      long startNanos,
      long atNanos)
      implements TraceEvent {
    /**
     * Rejects a null {@code device}, {@code group} or {@code operation} ({@link
     * NullPointerException}).
     */
    public CollectiveFinished {
      Objects.requireNonNull(device, "device");
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(operation, "operation");
    }
  }

  /** Device memory was allocated; {@code allocatedBytes} is the device total afterwards. */
  record MemoryAllocated(
      Device device, long bufferId, long bytes, long allocatedBytes, long atNanos)
      implements TraceEvent {
    /** Rejects a null {@code device} ({@link NullPointerException}). */
    public MemoryAllocated {
      Objects.requireNonNull(device, "device");
    }
  }

  /** Device memory was freed; {@code allocatedBytes} is the device total afterwards. */
  record MemoryFreed(Device device, long bufferId, long bytes, long allocatedBytes, long atNanos)
      implements TraceEvent {
    /** Rejects a null {@code device} ({@link NullPointerException}). */
    public MemoryFreed {
      Objects.requireNonNull(device, "device");
    }
  }
}
