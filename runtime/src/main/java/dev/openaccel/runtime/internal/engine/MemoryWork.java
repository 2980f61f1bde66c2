package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Kernel;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.CopyChecks;
import dev.openaccel.runtime.spi.DeviceMemory;
import dev.openaccel.runtime.spi.DeviceWork;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the work items of copies, buffer kernels and the backend's device work: arguments are
 * checked at the call, bytes move when the stream runs the item, on the device thread. Internal.
 */
final class MemoryWork {
  private MemoryWork() {}

  // ---- the stream's entry points: checked here, then simulated or the backend's DeviceMemory ----

  static WorkItem copyToDevice(
      ActorEngine engine, Stream stream, ByteBuffer src, DeviceBuffer dst) {
    Buffer buffer = engine.bufferOf(dst);
    int length = CopyChecks.toDevice(src, buffer);
    Block block = buffer.block("copy into");
    if (capturing(engine, stream, buffer) == null && engine.sanitizer() != null) {
      engine.sanitizer().access(stream, "copyToDevice", List.of(), List.of(buffer));
    }
    DeviceMemory memory = engine.spec().memory();
    if (memory != null) {
      return new WorkItem.DeviceCommand(
          "copyToDevice", memory.copyToDevice(src, block.region()), !src.isDirect(), false);
    }
    int from = src.position();
    return host("copyToDevice", () -> block.storage().put(0, src, from, length));
  }

  static WorkItem copyToHost(ActorEngine engine, Stream stream, DeviceBuffer src, ByteBuffer dst) {
    Buffer buffer = engine.bufferOf(src);
    int length = CopyChecks.toHost(buffer, dst);
    Block block = buffer.block("copy from");
    if (capturing(engine, stream, buffer) == null && engine.sanitizer() != null) {
      engine.sanitizer().access(stream, "copyToHost", List.of(buffer), List.of());
    }
    DeviceMemory memory = engine.spec().memory();
    if (memory != null) {
      return new WorkItem.DeviceCommand(
          "copyToHost", memory.copyToHost(block.region(), dst), false, !dst.isDirect());
    }
    int to = dst.position();
    return host("copyToHost", () -> dst.put(to, block.storage(), 0, length));
  }

  static WorkItem copy(ActorEngine engine, Stream stream, DeviceBuffer src, DeviceBuffer dst) {
    Buffer source = engine.bufferOf(src);
    Buffer target = engine.bufferOf(dst);
    CopyChecks.between(source, target);
    long length = source.size();
    Block from = source.block("copy from");
    Block to = target.block("copy into");
    if (capturing(engine, stream, source, target) == null && engine.sanitizer() != null) {
      engine.sanitizer().access(stream, "copy", List.of(source), List.of(target));
    }
    DeviceMemory memory = engine.spec().memory();
    if (memory != null) {
      return new WorkItem.DeviceCommand("copy", memory.copy(from.region(), to.region(), length));
    }
    return host("copy", () -> to.storage().put(0, from.storage(), 0, (int) length));
  }

  static WorkItem kernel(
      ActorEngine engine, String name, Kernel kernel, Stream stream, DeviceBuffer[] buffers) {
    Block[] blocks = new Block[buffers.length];
    int[] sizes = new int[buffers.length];
    Sanitizer sanitizer = engine.sanitizer();
    Buffer[] used = new Buffer[buffers.length];
    for (int i = 0; i < buffers.length; i++) {
      Buffer buffer = engine.bufferOf(buffers[i]);
      checkSameDevice(name, stream, buffer);
      blocks[i] = buffer.block("launch a kernel on");
      sizes[i] = (int) buffer.size();
      used[i] = buffer;
    }
    Capture capture = capturing(engine, stream, used);
    if (sanitizer != null && capture == null) { // a Java kernel may read and write its buffers
      sanitizer.access(stream, "kernel '" + name + "'", List.of(), List.of(used));
    }
    DeviceMemory memory = engine.spec().memory();
    if (capture != null) { // a graph's buffers stay open while its replays run: nothing to hold
      return new WorkItem.HostKernel(
          name, new CapturedKernel(kernel, stream, buffers.clone(), blocks, sizes, memory), null);
    }
    if (memory == null) {
      return host(name, () -> run(kernel, stream, blocks, sizes));
    }

    hold(memory, blocks);
    return new WorkItem.MappedKernel(
        name,
        () -> {
          try {
            runMapped(kernel, stream, memory, blocks, sizes);
          } finally {
            unhold(memory, blocks, blocks.length);
          }
          return null;
        },
        () -> unhold(memory, blocks, blocks.length));
  }

  /**
   * The backend's own device work (a compiled kernel's launch): checked first, when the sanitizer
   * runs, against the buffers it declares, as {@code kernel 'name'}; work refused here is
   * discarded.
   *
   * @throws IllegalArgumentException if a declared buffer is not this engine's
   */
  static WorkItem device(ActorEngine engine, Stream stream, String name, DeviceWork work) {
    Sanitizer sanitizer = engine.sanitizer();
    if (engine.handleOf(stream).capture() != null) { // the graph's node: its buffers, no check
      List<Buffer> used = new ArrayList<>(owned(engine, work.reads()));
      used.addAll(owned(engine, work.writes()));
      capturing(engine, stream, used.toArray(Buffer[]::new));
    } else if (sanitizer != null) {
      try {
        sanitizer.access(
            stream,
            "kernel '" + name + "'",
            owned(engine, work.reads()),
            owned(engine, work.writes()));
      } catch (RuntimeException e) {
        work.discard(); // never reaches the queue
        throw e;
      }
    }
    return new WorkItem.DeviceCommand(name, work);
  }

  private static List<Buffer> owned(ActorEngine engine, List<DeviceBuffer> buffers) {
    return buffers.stream().map(engine::bufferOf).toList();
  }

  /**
   * Holds every block's region for a Java kernel until it has run (or never will), so that memory
   * released meanwhile (its buffer closed, the allocator's cache emptied) stays valid for it.
   */
  private static void hold(DeviceMemory memory, Block[] blocks) {
    for (int i = 0; i < blocks.length; i++) {
      try {
        memory.hold(blocks[i].region());
      } catch (RuntimeException e) {
        unhold(memory, blocks, i);
        throw e;
      }
    }
  }

  private static void unhold(DeviceMemory memory, Block[] blocks, int count) {
    for (int i = 0; i < count; i++) {
      memory.unhold(blocks[i].region());
    }
  }

  // ---- Java kernels over device memory ----

  /**
   * Runs {@code kernel} over regions of the backend's own {@link DeviceMemory}: each is mapped for
   * the kernel's run and unmapped after it, on the device thread.
   */
  static void runMapped(
      Kernel kernel, Stream stream, DeviceMemory memory, Block[] blocks, int[] sizes)
      throws Exception {
    ByteBuffer[] views = new ByteBuffer[blocks.length];
    try {
      for (int i = 0; i < blocks.length; i++) {
        views[i] = memory.map(blocks[i].region(), sizes[i]);
      }
      run(kernel, stream, views);
    } finally {
      unmapAll(memory, blocks, views);
    }
  }

  /** Unmaps every view made, each even if another's unmap fails; rethrows the first failure. */
  private static void unmapAll(DeviceMemory memory, Block[] blocks, ByteBuffer[] views) {
    RuntimeException failed = null;
    for (int i = 0; i < blocks.length; i++) {
      if (views[i] == null) {
        continue;
      }
      try {
        memory.unmap(blocks[i].region(), views[i]);
      } catch (RuntimeException e) {
        if (failed == null) {
          failed = e;
        } else {
          failed.addSuppressed(e);
        }
      }
    }
    if (failed != null) {
      throw failed;
    }
  }

  static void run(Kernel kernel, Stream stream, Block[] blocks, int[] sizes) throws Exception {
    ByteBuffer[] views = new ByteBuffer[blocks.length];
    for (int i = 0; i < blocks.length; i++) {
      views[i] = blocks[i].storage().duplicate().clear().limit(sizes[i]).slice();
    }
    run(kernel, stream, views);
  }

  private static void run(Kernel kernel, Stream stream, ByteBuffer[] views) throws Exception {
    BufferContext context = new BufferContext(stream, views);
    try {
      kernel.run(context);
    } finally {
      context.expire();
    }
  }

  /** The capture {@code stream} is in, which then keeps {@code buffers} as the graph's; or null. */
  private static Capture capturing(ActorEngine engine, Stream stream, Buffer... buffers) {
    StreamQueue queue = engine.handleOf(stream);
    Capture capture = queue.capture();
    if (capture != null) {
      capture.uses(queue, buffers);
    }
    return capture;
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
}
