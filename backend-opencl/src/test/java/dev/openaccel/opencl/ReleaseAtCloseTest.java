package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * {@code Accelerator.close()} returns once every {@code cl_mem} of the accelerator is freed: those
 * of buffers still open, those cached, and those named by work still queued behind a stream that
 * never reached it.
 */
@RequiresOpenCl
class ReleaseAtCloseTest {

  @Test
  void closeFreesEveryBufferOpenCachedOrNamedByWorkThatNeverRan() {
    Accelerator accelerator = OpenClTestSupport.start();
    OpenClBackend backend = OpenClSystem.of(accelerator.system()).backend();
    ClDeviceMemory memory = backend.memory();
    Device device = Device.of(OpenClProvider.TYPE, 0);
    Stream stream = accelerator.newStream(device);
    DeviceBuffer open = accelerator.allocate(device, 4096);
    accelerator.allocate(device, 1 << 20).close(); // cached
    DeviceKernel kernel = OpenCl.get(accelerator).compile(AfterCloseTest.SOURCE).kernel("k");

    stream.waitFor(new CompletableFuture<>()); // the stream never goes on
    kernel.launch(stream, LaunchShape.of(1), open);
    stream.copyToDevice(ByteBuffer.allocate(4096), open);
    stream.copyToHost(open, ByteBuffer.allocateDirect(4096));
    assertEquals(2, memory.liveBuffers(), "the open and the cached buffer");
    stream.launch("java kernel", ctx -> ctx.buffer(0).putInt(0, 1), open); // holds its region

    accelerator.close();
    assertEquals(0, memory.liveBuffers(), "cl_mems left after close");
  }

  @Test
  void aLaunchOnAnotherAcceleratorsStreamGivesItsBufferBackOnce() {
    Accelerator accelerator = OpenClTestSupport.start();
    Accelerator other = OpenClTestSupport.start();
    try {
      ClDeviceMemory memory = OpenClSystem.of(accelerator.system()).backend().memory();
      Device device = Device.of(OpenClProvider.TYPE, 0);
      DeviceBuffer buffer = accelerator.allocate(device, 4096);
      DeviceKernel kernel = OpenCl.get(accelerator).compile(AfterCloseTest.SOURCE).kernel("k");
      Stream foreign = other.newStream(device);
      assertThrows(
          IllegalArgumentException.class, () -> kernel.launch(foreign, LaunchShape.of(1), buffer));
      buffer.close();
      accelerator.close();
      assertEquals(0, memory.liveBuffers(), "the buffer's use was given back once");
    } finally {
      accelerator.close();
      other.close();
    }
  }
}
