package dev.openaccel.opencl;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/** Starting accelerators for the OpenCL tests, and float buffers. */
final class OpenClTestSupport {
  private static final AtomicInteger SYSTEMS = new AtomicInteger();

  private OpenClTestSupport() {}

  /** An accelerator whose default device type is opencl, with extra HOCON {@code config}. */
  static Accelerator start(String config) {
    String name = "opencl-test-" + SYSTEMS.incrementAndGet();
    return Accelerator.start(
        ConfigFactory.parseString(config)
            .withFallback(
                ConfigFactory.parseString(
                    String.format(
                        Locale.ROOT,
                        "openaccel.system-name = %s%nopenaccel.default-device-type = opencl",
                        name)))
            .withFallback(ConfigFactory.parseResources("application-test.conf"))
            .withFallback(ConfigFactory.load()));
  }

  /**
   * {@code stream.synchronize()} bounded by 10 seconds; a failure of the stream's work is thrown as
   * itself.
   */
  static void synchronize(Stream stream) {
    try {
      stream.synchronizeAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw new AssertionError(e);
    } catch (InterruptedException | TimeoutException e) {
      throw new AssertionError("stream " + stream + " did not synchronize within 10 s", e);
    }
  }

  static Accelerator start() {
    return start("");
  }

  /** The platform and devices the default configuration selects (OpenCL must be there). */
  static ClPlatforms.Found platform() {
    return (ClPlatforms.Found) ClPlatforms.probe(OpenClSettings.from(ConfigFactory.load()));
  }

  /** The compute units of the first device the default configuration selects. */
  static int computeUnits() {
    return platform().devices().get(0).computeUnits();
  }

  /** A little-endian buffer of {@code values}, position 0. */
  static ByteBuffer floats(float... values) {
    ByteBuffer bytes = ByteBuffer.allocateDirect(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    bytes.asFloatBuffer().put(values);
    return bytes;
  }

  /** The floats of a little-endian buffer. */
  static float[] floatsOf(ByteBuffer bytes) {
    float[] values = new float[bytes.capacity() / 4];
    bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN).clear().asFloatBuffer().get(values);
    return values;
  }
}
