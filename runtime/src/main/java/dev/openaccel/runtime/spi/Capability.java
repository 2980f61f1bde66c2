package dev.openaccel.runtime.spi;

/**
 * Optional features a backend may declare. A declared capability must work; using an undeclared one
 * throws {@link UnsupportedOperationException} ("&lt;backend&gt; doesn't support &lt;what&gt;").
 * The conformance suite checks both.
 */
public enum Capability {
  /** Events can be recorded, blocked on, queried and synchronized. */
  EVENTS,
  /** Events created with {@code enableTiming} record timestamps for elapsed time. */
  TIMING,
  /** Streams carry a priority from a non-trivial {@link DeviceGuardImpl#priorityRange()}. */
  STREAM_PRIORITIES,
  /** {@link DeviceGuardImpl#getStreamFromGlobalPool} hands out pooled streams. */
  STREAM_POOL,
  /** A stream may wait on an event recorded on another device of the same type. */
  CROSS_DEVICE_WAIT,
  /** Events created with {@code interprocess} can be shared through a handle. */
  INTERPROCESS_EVENTS,
  /** Device buffers can be allocated and copied. */
  DEVICE_MEMORY,
  /**
   * A stream's work can be captured into a {@link dev.openaccel.runtime.Graph} and replayed: the
   * engine captures Java kernels, copies, records and waits; a backend that declares it also makes
   * its device work replayable ({@link DeviceWork#replica}).
   */
  GRAPHS
}
