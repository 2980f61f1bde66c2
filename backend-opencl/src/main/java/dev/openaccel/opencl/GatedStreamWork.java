package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_MEM_READ_WRITE;
import static org.lwjgl.opencl.CL10.CL_MEM_USE_HOST_PTR;
import static org.lwjgl.opencl.CL10.clCreateBuffer;
import static org.lwjgl.opencl.CL10.clReleaseMemObject;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.KernelContext;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

/**
 * Runs each OpenCL command as a Java kernel of its stream, on the runtime's synchronous engine: the
 * kernel stages its buffers into {@code cl_mem} (zero-copy on host-memory devices), enqueues the
 * command on the stream's queue, waits for its end, and copies the buffers back. Correct on any
 * platform, but the device thread waits for each command; see the README's "Execution" section.
 *
 * <p>Owns nothing: staged {@code cl_mem}s live only inside one kernel run. Thread-safe.
 */
final class GatedStreamWork implements StreamWork {
  private final ClContext context;
  private final StreamQueues queues;

  GatedStreamWork(ClContext context, StreamQueues queues) {
    this.context = context;
    this.queues = queues;
  }

  @Override
  public void enqueue(Stream stream, ClWork work) {
    if (!stream.deviceType().equals(OpenClProvider.TYPE)) {
      throw new IllegalArgumentException(
          "OpenCL work " + work.name() + " needs an opencl stream, got " + stream);
    }
    List<DeviceBuffer> buffers = List.copyOf(new LinkedHashSet<>(work.buffers()));
    stream.launch(
        work.name(),
        kernel -> run(kernel, queues.of(stream), work, buffers),
        buffers.toArray(DeviceBuffer[]::new));
  }

  private void run(KernelContext kernel, ClQueue queue, ClWork work, List<DeviceBuffer> buffers)
      throws Exception {
    Map<DeviceBuffer, Long> staged = new IdentityHashMap<>();
    List<ByteBuffer> hosts = new ArrayList<>();
    try {
      for (int i = 0; i < buffers.size(); i++) {
        ByteBuffer view = kernel.buffer(i);
        ByteBuffer host = MemoryUtil.memAlloc(view.capacity());
        hosts.add(host);
        host.put(0, view, 0, view.capacity());
        staged.put(buffers.get(i), stage(host));
      }
      CompletableFuture<Long> done = new CompletableFuture<>();
      queue.submit(work, buffer -> staged.get(buffer), completion(done));
      await(done);
      for (int i = 0; i < buffers.size(); i++) {
        kernel.buffer(i).put(0, hosts.get(i), 0, hosts.get(i).capacity());
      }
    } finally {
      staged.values().forEach(mem -> clReleaseMemObject(mem));
      hosts.forEach(MemoryUtil::memFree);
    }
  }

  private long stage(ByteBuffer host) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var rc = stack.mallocInt(1);
      long mem =
          clCreateBuffer(context.handle(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, host, rc);
      ClErrors.check(rc.get(0), "clCreateBuffer(" + host.capacity() + " bytes)");
      return mem;
    }
  }

  static ClCompletion completion(CompletableFuture<Long> done) {
    return new ClCompletion() {
      @Override
      public void complete(long deviceTimestampNanos) {
        done.complete(deviceTimestampNanos);
      }

      @Override
      public void fail(Throwable cause) {
        done.completeExceptionally(cause);
      }
    };
  }

  private static void await(CompletableFuture<Long> done) throws Exception {
    try {
      done.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }
}
