package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A counter handed back and forth between two devices: each round, one stream per device waits for
 * the other's latest record, increments its copy with a device kernel, copies it to the other
 * device and records again. Every increment must survive: after {@code rounds} rounds the counter
 * is {@code 2 * rounds}. Runs for {@code openaccel.test.ping-pong-seconds} (default 2) in rounds of
 * 200, so that a rare loss shows up in a longer run.
 */
@RequiresOpenCl
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrossDevicePingPongTest {
  private static final String SOURCE = "__kernel void inc(__global int* x) { x[0] += 1; }";
  private static final int ROUNDS = 200;

  private Accelerator accelerator;

  /** Extra configuration of the accelerator (the completions mode, in a subclass). */
  String config() {
    return "";
  }

  @BeforeAll
  void start() {
    accelerator = OpenClTestSupport.start(config());
  }

  @AfterAll
  void close() {
    accelerator.close();
  }

  @Test
  void everyIncrementSurvivesTheHandOversBetweenTwoDevices() {
    assumeTrue(accelerator.deviceCount() >= 2, "needs two OpenCL devices");
    long seconds = Long.getLong("openaccel.test.ping-pong-seconds", 2);
    long until = System.nanoTime() + seconds * 1_000_000_000L;
    DeviceKernel inc = OpenCl.get(accelerator).compile(SOURCE).kernel("inc");
    int runs = 0;
    do {
      assertEquals(2 * ROUNDS, pingPong(inc), "the counter after run " + runs);
      runs++;
    } while (System.nanoTime() < until);
  }

  private int pingPong(DeviceKernel inc) {
    Device d0 = Device.of(OpenClProvider.TYPE, 0);
    Device d1 = Device.of(OpenClProvider.TYPE, 1);
    Stream s0 = accelerator.newStream(d0);
    Stream s1 = accelerator.newStream(d1);
    ByteBuffer zero = ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder()).putInt(0, 0);
    try (DeviceBuffer b0 = accelerator.allocate(d0, 4);
        DeviceBuffer b1 = accelerator.allocate(d1, 4);
        Event e0 = accelerator.newEvent();
        Event e1 = accelerator.newEvent()) {
      s0.copyToDevice(zero, b0);
      OpenClTestSupport.synchronize(s0);
      for (int i = 0; i < ROUNDS; i++) {
        if (i > 0) {
          s0.waitEvent(e1);
        }
        inc.launch(s0, LaunchShape.of(1), b0);
        s0.copy(b0, b1);
        e0.record(s0);
        s1.waitEvent(e0);
        inc.launch(s1, LaunchShape.of(1), b1);
        s1.copy(b1, b0);
        e1.record(s1);
      }
      s0.waitEvent(e1);
      ByteBuffer back = ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder());
      s0.copyToHost(b0, back);
      OpenClTestSupport.synchronize(s0);
      OpenClTestSupport.synchronize(s1);
      return back.getInt(0);
    }
  }
}
