package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Kernel;
import dev.openaccel.runtime.KernelContext;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.CopyChecks;
import dev.openaccel.runtime.spi.DeviceMemory;
import java.nio.ByteBuffer;

/**
 * Builds the work items of copies and buffer kernels: arguments are checked at the call, bytes move
 * when the stream runs the item, on the device thread. Internal.
 */
final class MemoryWork {
  private MemoryWork() {}

  // ---- the stream's entry points: engine-simulated memory, or the backend's DeviceMemory ----

  static WorkItem copyToDevice(ActorEngine engine, ByteBuffer src, DeviceBuffer dst) {
    DeviceMemory memory = engine.spec().memory();
    return memory == null
        ? copyToDevice(src, engine.bufferOf(dst))
        : new WorkItem.DeviceCommand("copyToDevice", memory.copyToDevice(src, dst));
  }

  static WorkItem copyToHost(ActorEngine engine, DeviceBuffer src, ByteBuffer dst) {
    DeviceMemory memory = engine.spec().memory();
    return memory == null
        ? copyToHost(engine.bufferOf(src), dst)
        : new WorkItem.DeviceCommand("copyToHost", memory.copyToHost(src, dst));
  }

  static WorkItem copy(ActorEngine engine, DeviceBuffer src, DeviceBuffer dst) {
    DeviceMemory memory = engine.spec().memory();
    return memory == null
        ? copy(engine.bufferOf(src), engine.bufferOf(dst))
        : new WorkItem.DeviceCommand("copy", memory.copy(src, dst));
  }

  static WorkItem kernel(
      ActorEngine engine, String name, Kernel kernel, Stream stream, DeviceBuffer[] buffers) {
    DeviceMemory memory = engine.spec().memory();
    if (memory != null) {
      return mappedKernel(name, kernel, stream, memory, buffers);
    }
    Buffer[] owned = new Buffer[buffers.length];
    for (int i = 0; i < buffers.length; i++) {
      owned[i] = engine.bufferOf(buffers[i]);
    }
    return kernel(name, kernel, stream, owned);
  }

  // ---- engine-simulated memory ----

  private static WorkItem.HostKernel copyToDevice(ByteBuffer src, Buffer dst) {
    int length = CopyChecks.toDevice(src, dst);
    int from = src.position();
    Block block = dst.block("copy into");
    return host("copyToDevice", () -> block.storage().put(0, src, from, length));
  }

  private static WorkItem.HostKernel copyToHost(Buffer src, ByteBuffer dst) {
    int length = CopyChecks.toHost(src, dst);
    int to = dst.position();
    Block block = src.block("copy from");
    return host("copyToHost", () -> dst.put(to, block.storage(), 0, length));
  }

  private static WorkItem.HostKernel copy(Buffer src, Buffer dst) {
    CopyChecks.between(src, dst);
    int length = (int) src.size();
    Block from = src.block("copy from");
    Block to = dst.block("copy into");
    return host("copy", () -> to.storage().put(0, from.storage(), 0, length));
  }

  private static WorkItem.HostKernel kernel(
      String name, Kernel kernel, Stream stream, Buffer[] buffers) {
    Block[] blocks = new Block[buffers.length];
    int[] sizes = new int[buffers.length];
    for (int i = 0; i < buffers.length; i++) {
      checkSameDevice(name, stream, buffers[i]);
      blocks[i] = buffers[i].block("launch a kernel on");
      sizes[i] = (int) buffers[i].size();
    }
    return host(name, () -> run(kernel, stream, blocks, sizes));
  }

  /**
   * A Java kernel over buffers of a backend's own {@link DeviceMemory}: each buffer is mapped for
   * the kernel's run and unmapped after it, on the device thread.
   */
  private static WorkItem.HostKernel mappedKernel(
      String name, Kernel kernel, Stream stream, DeviceMemory memory, DeviceBuffer[] buffers) {
    for (DeviceBuffer buffer : buffers) {
      checkSameDevice(name, stream, buffer);
    }
    DeviceBuffer[] used = buffers.clone();
    return host(
        name,
        () -> {
          ByteBuffer[] views = new ByteBuffer[used.length];
          try {
            for (int i = 0; i < used.length; i++) {
              views[i] = memory.map(used[i]);
            }
            run(kernel, stream, views);
          } finally {
            for (int i = 0; i < used.length; i++) {
              if (views[i] != null) {
                memory.unmap(used[i], views[i]);
              }
            }
          }
        });
  }

  private static void run(Kernel kernel, Stream stream, Block[] blocks, int[] sizes)
      throws Exception {
    ByteBuffer[] views = new ByteBuffer[blocks.length];
    for (int i = 0; i < blocks.length; i++) {
      views[i] = blocks[i].storage().duplicate().clear().limit(sizes[i]).slice();
    }
    run(kernel, stream, views);
  }

  private static void run(Kernel kernel, Stream stream, ByteBuffer[] views) throws Exception {
    Context context = new Context(stream, views);
    try {
      kernel.run(context);
    } finally {
      context.expire();
    }
  }

  /** Java work without a result, run on the device thread in stream order. */
  private static WorkItem.HostKernel host(String name, Action body) {
    return new WorkItem.HostKernel(
        name,
        () -> {
          body.run();
          return null;
        },
        null);
  }

  private static void checkSameDevice(String name, Stream stream, DeviceBuffer buffer) {
    if (!buffer.device().equals(stream.device())) {
      throw new IllegalArgumentException(
          "kernel '" + name + "' on " + stream + " cannot use " + buffer + " of another device");
    }
  }

  /** Java code without a result. */
  @FunctionalInterface
  private interface Action {
    void run() throws Exception;
  }

  /**
   * A kernel's view of its buffers; expires when the kernel returns. Confined to the device thread.
   */
  private static final class Context implements KernelContext {
    private final Stream stream;
    private final ByteBuffer[] views;
    private volatile boolean expired;

    Context(Stream stream, ByteBuffer[] views) {
      this.stream = stream;
      this.views = views;
    }

    @Override
    public ByteBuffer buffer(int i) {
      if (expired) {
        throw new IllegalStateException(
            "kernel context used after its kernel returned; buffer views are valid only inside it");
      }
      if (i < 0 || i >= views.length) {
        throw new IndexOutOfBoundsException(
            "buffer " + i + " requested, the kernel was launched with " + views.length);
      }
      return views[i];
    }

    @Override
    public Device device() {
      return stream.device();
    }

    @Override
    public Stream stream() {
      return stream;
    }

    /** Makes every view empty, so a view kept past the kernel fails on any access. */
    void expire() {
      expired = true;
      for (ByteBuffer view : views) {
        view.position(0).limit(0);
      }
    }
  }
}
