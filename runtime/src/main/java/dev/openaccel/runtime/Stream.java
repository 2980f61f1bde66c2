package dev.openaccel.runtime;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;

/**
 * An ordered queue of device work, as {@code torch.Stream}: kernels enqueued on one stream run
 * strictly in enqueue order, one at a time; different streams run concurrently.
 *
 * <p>A value: two {@code Stream}s are equal when they name the same device and stream id, however
 * they were obtained. All methods are thread-safe.
 */
public final class Stream implements AutoCloseable {
  private final Device device;
  private final long id;
  private final int priority;
  private final Ops ops;

  private Stream(Device device, long id, int priority, Ops ops) {
    this.device = Objects.requireNonNull(device, "device");
    if (!device.hasIndex()) {
      throw new IllegalArgumentException("a stream needs a device with an index, got " + device);
    }
    this.id = id;
    this.priority = priority;
    this.ops = Objects.requireNonNull(ops, "ops");
  }

  /** Wraps a backend's stream, for backends; throws IllegalArgumentException without an index. */
  public static Stream wrap(Device device, long id, int priority, Ops ops) {
    return new Stream(device, id, priority, ops);
  }

  /** The device this stream belongs to. */
  public Device device() {
    return device;
  }

  /** The index of {@link #device}. */
  public int deviceIndex() {
    return device.index();
  }

  /** The type of {@link #device}. */
  public DeviceType deviceType() {
    return device.type();
  }

  /** The stream's id on its device: 0 for the default stream. */
  public long id() {
    return id;
  }

  /** The priority it was created with, clamped into the backend's priority range. */
  public int priority() {
    return priority;
  }

  /** The backend's operations for this stream; for backend implementations. */
  public Ops ops() {
    return ops;
  }

  /** True when all work enqueued so far has completed. Reads published state; sends no message. */
  public boolean query() {
    return ops.query();
  }

  /** How many work items enqueued here have not completed: a snapshot; sends no message. */
  public long pendingWork() {
    return ops.pendingWork();
  }

  /**
   * Blocks until the work enqueued so far has completed.
   *
   * @throws DeviceExecutionException if covered work failed since the last stream synchronization
   *     (not a {@link #submit}'s failure, which its stage reports), or the stream stopped before
   *     the work ran
   * @throws IllegalStateException containing "blocking call on an actor thread" on an OpenAccel
   *     thread or a dispatcher thread of the accelerator's actor system; after this stream or the
   *     accelerator closed, containing "accepts no more work", as {@link #launch} (after the
   *     accelerator's close only if something was left to wait for)
   */
  public void synchronize() {
    ops.synchronize();
  }

  /** Completes when the work enqueued so far has completed: {@link #synchronize}, not blocking. */
  public CompletionStage<Void> synchronizeAsync() {
    return ops.synchronizeAsync();
  }

  /** Work enqueued here after this call waits until {@code event}'s latest record completes. */
  public void waitEvent(Event event) {
    event.block(this);
  }

  /**
   * Work enqueued here after this call waits for the work enqueued on {@code other} before it.
   * {@code other} may be a stream of another backend: the wait then parks this stream until a
   * record made on {@code other} completes, and a failure of that work reaches what this stream
   * records next (and is still reported by {@code other}'s own next sync).
   */
  public void waitStream(Stream other) {
    Objects.requireNonNull(other, "other");
    ops.waitFor(other);
  }

  /**
   * Work enqueued here after this call waits until {@code signal} completes: e.g. {@code
   * event.completion()} of an event of another backend or node, which {@link Event#block} rejects
   * as torch does. No thread blocks: the stream is parked. If {@code signal} fails, the failure
   * reaches what this stream records next, and later work still runs.
   */
  public void waitFor(CompletionStage<?> signal) {
    Objects.requireNonNull(signal, "signal");
    ops.waitFor(signal);
  }

  /** Records a new default-options event here and returns it. */
  public Event recordEvent() {
    return recordEvent(ops.newEvent(EventOptions.defaults()));
  }

  /** Records {@code event} here and returns it. */
  public Event recordEvent(Event event) {
    event.record(this);
    return event;
  }

  /**
   * Enqueues a kernel; it runs on the device after all work enqueued before it on this stream.
   *
   * <p>What a kernel may rely on: it runs on one of the device's own threads, after all work
   * enqueued before it on its stream has completed, with its stream's device current and its stream
   * current on that device ({@code Accelerator.currentDevice()} and {@code currentStream()} say
   * so), and with the thread's interrupt flag clear. What ends with it: any change it makes to the
   * current device or stream, and its interrupt flag; the next kernel on the thread starts clean.
   * Every {@link Throwable} it throws, {@link OutOfMemoryError} and {@link StackOverflowError}
   * included, fails only this kernel: a {@link DeviceExecutionException} naming it (cause kept) is
   * reported at the next covering sync, and later work still runs. Blocking calls inside a kernel
   * are rejected; use the {@code CompletionStage} forms.
   *
   * <p>A stream holds at most {@code openaccel.stream-queue-limit} items not yet completed; every
   * call that enqueues on a full stream waits for room, up to {@code openaccel.stream-queue-wait}
   * (interruptibly), on threads that may block; see {@link #launchAsync} for actors and kernels.
   *
   * @throws IllegalStateException containing "accepts no more work" after the stream or the
   *     accelerator closed; containing "queue full" when no room came within the wait, when the
   *     waiting thread was interrupted, or at once on a thread that must not block
   */
  public void launch(String name, Runnable kernel) {
    ops.launch(Objects.requireNonNull(name, "name"), Objects.requireNonNull(kernel, "kernel"));
  }

  /**
   * Enqueues a kernel as {@link #launch(String, Runnable)} does, without ever blocking: when the
   * stream's queue is full ({@code openaccel.stream-queue-limit}) the kernel waits outside it, in
   * order with this stream's other waiting {@code launchAsync} calls, and the returned stage
   * completes once it is admitted (at once when there is room); the form for actors and kernels.
   * The stage fails with {@link IllegalStateException} if the stream stops or closes first.
   */
  public CompletionStage<Void> launchAsync(String name, Runnable kernel) {
    return ops.launchAsync(
        Objects.requireNonNull(name, "name"), Objects.requireNonNull(kernel, "kernel"));
  }

  /**
   * Enqueues a kernel with a result. Its failure is reported once, by the stage, which completes
   * exceptionally with the {@link DeviceExecutionException}: a later {@link #synchronize} or record
   * of this stream does not report it again (whoever submits holds the stage that says it failed).
   *
   * @throws IllegalStateException containing "accepts no more work" after the accelerator closed
   */
  public <T> CompletionStage<T> submit(String name, Callable<T> kernel) {
    return ops.submit(
        Objects.requireNonNull(name, "name"), Objects.requireNonNull(kernel, "kernel"));
  }

  /**
   * Enqueues a copy of {@code src}'s remaining bytes (from its position) into {@code dst}. The
   * bytes are read when the copy runs, in stream order; {@code src}'s position is not changed.
   *
   * @throws IllegalArgumentException naming both sizes if {@code src.remaining() != dst.size()}
   * @throws IllegalStateException if {@code dst} is closed
   */
  public void copyToDevice(ByteBuffer src, DeviceBuffer dst) {
    ops.copyToDevice(Objects.requireNonNull(src, "src"), Objects.requireNonNull(dst, "dst"));
  }

  /**
   * Enqueues a copy of {@code src} into {@code dst} from its position; {@code dst}'s position is
   * not changed. Synchronize (or wait on an event recorded after it) before reading {@code dst}.
   *
   * @throws IllegalArgumentException naming both sizes if {@code dst.remaining() != src.size()}
   * @throws IllegalStateException if {@code src} is closed
   */
  public void copyToHost(DeviceBuffer src, ByteBuffer dst) {
    ops.copyToHost(Objects.requireNonNull(src, "src"), Objects.requireNonNull(dst, "dst"));
  }

  /**
   * Enqueues a copy between buffers of the same size, on the same or different devices.
   *
   * @throws IllegalArgumentException naming both sizes if they differ
   * @throws IllegalStateException if either buffer is closed
   */
  public void copy(DeviceBuffer src, DeviceBuffer dst) {
    ops.copy(Objects.requireNonNull(src, "src"), Objects.requireNonNull(dst, "dst"));
  }

  /**
   * Enqueues a kernel that gets views of {@code buffers} (all on this stream's device) while it
   * runs.
   *
   * @throws IllegalArgumentException if a buffer is on another device
   * @throws IllegalStateException if a buffer is closed
   */
  public void launch(String name, Kernel kernel, DeviceBuffer... buffers) {
    ops.launch(
        Objects.requireNonNull(name, "name"), Objects.requireNonNull(kernel, "kernel"), buffers);
  }

  /**
   * Puts this stream in capture mode: what is enqueued on it until the capture ends is recorded
   * into a {@link Graph}, not run (see {@link GraphCapture} for the rules).
   *
   * @throws IllegalStateException if this stream is already captured, or accepts no more work
   * @throws UnsupportedOperationException if its backend has no graphs
   */
  public GraphCapture beginCapture() {
    return ops.beginCapture();
  }

  /**
   * Closes this stream: the work enqueued so far still runs, in order, and the stream then gives
   * back its actor and device queue; this call waits for nothing. Every later call that enqueues or
   * synchronizes on it throws an {@link IllegalStateException} ("... accepts no more work"); {@link
   * #query} and {@link #pendingWork} still answer. A failure of its work that no synchronize
   * reported is logged at WARN when it ends. Its id is never handed out again: {@code
   * Accelerator.stream(device, id)} then throws. Idempotent.
   *
   * @throws IllegalStateException for the default stream or a pooled stream, which are shared
   */
  @Override
  public void close() {
    ops.close();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Stream other && id == other.id && device.equals(other.device);
  }

  @Override
  public int hashCode() {
    return device.hashCode() * 31 + Long.hashCode(id);
  }

  @Override
  public String toString() {
    return "Stream(device_type="
        + device.type().name()
        + ", device_index="
        + device.index()
        + ", stream_id="
        + id
        + ", priority="
        + priority
        + ")";
  }

  /**
   * What a backend's stream does behind the public value ({@link StreamOperations}). A backend
   * creates streams with {@link #wrap} and one {@code Ops} per stream.
   */
  public interface Ops extends StreamOperations {
    /**
     * Puts the stream in capture mode: see {@link GraphCapture}.
     *
     * @throws UnsupportedOperationException by default: a backend without graphs
     */
    default GraphCapture beginCapture() {
      throw new UnsupportedOperationException(getClass().getName() + " doesn't support graphs");
    }
  }
}
