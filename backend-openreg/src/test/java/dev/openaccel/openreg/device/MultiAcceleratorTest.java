package dev.openaccel.openreg.device;

import static dev.openaccel.openreg.testing.KernelLatches.D0;
import static dev.openaccel.openreg.testing.KernelLatches.D1;
import static dev.openaccel.openreg.testing.KernelLatches.OPENREG;
import static dev.openaccel.openreg.testing.KernelLatches.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.testing.KernelLatches;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two accelerators on two actor systems in one JVM are independent: their own device counts, their
 * own device contexts (even on one thread), and streams of one are rejected by the other.
 */
class MultiAcceleratorTest {
  private static final Device D2 = Device.of(OPENREG, 2);
  private static Accelerator two;
  private static Accelerator three;

  @BeforeAll
  static void start() {
    two =
        Accelerator.start(
            ConfigFactory.parseString("openaccel.system-name = \"multi-accelerator-two\""));
    three =
        Accelerator.start(
            ConfigFactory.parseString(
                "openaccel.system-name = \"multi-accelerator-three\"\n"
                    + "openaccel.openreg.device-count = 3"));
  }

  @AfterAll
  static void stop() {
    two.close();
    three.close();
  }

  @AfterEach
  void resetContext() {
    KernelLatches.resetContext(two);
    KernelLatches.resetContext(three);
  }

  @Test
  void eachAcceleratorHasItsOwnSystemAndDeviceCount() {
    assertNotSame(two.system(), three.system());
    assertSame(two, Accelerator.get(two.system()));
    assertSame(three, Accelerator.get(three.system()));
    assertEquals(2, two.deviceCount());
    assertEquals(3, three.deviceCount());
    assertEquals(D2, three.newStream(D2).device());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> two.newStream(D2));
    assertTrue(e.getMessage().contains("device index is out of range"), e.getMessage());
  }

  @Test
  void deviceContextIsPerAcceleratorEvenOnOneThread() {
    three.setDeviceIndex(2);
    assertEquals(0, two.currentDeviceIndex());
    two.setDeviceIndex(1);
    assertEquals(2, three.currentDeviceIndex());
    assertEquals(1, two.currentDeviceIndex());

    Stream mine = two.newStream(D1);
    two.setStream(mine);
    assertEquals(mine, two.currentStream());
    assertEquals(0, three.currentStream(D1).id());
  }

  @Test
  void eventOfOneAcceleratorCannotBeRecordedOnTheOthersStream() {
    Stream foreign = three.newStream(D0);
    Event event = two.newEvent();
    assertThrows(IllegalArgumentException.class, () -> event.record(foreign));
    assertFalse(event.wasRecorded());
  }

  @Test
  void eventOfOneAcceleratorCannotBlockTheOthersStream() {
    Event event = two.newStream(D0).recordEvent();
    Stream foreign = three.newStream(D0);
    assertThrows(IllegalArgumentException.class, () -> event.block(foreign));
  }

  @Test
  void streamOfOneAcceleratorCannotBecomeCurrentInTheOther() {
    Stream foreign = three.newStream(D1);
    assertThrows(IllegalArgumentException.class, () -> two.setStream(foreign));
    assertThrows(IllegalArgumentException.class, () -> two.streamGuard(foreign));
    assertThrows(IllegalArgumentException.class, () -> two.multiStreamGuard(List.of(foreign)));
    assertEquals(D0, two.currentDevice());
    assertEquals(two.defaultStream(D1), two.currentStream(D1));
  }

  @Test
  void streamsOfDifferentAcceleratorsCannotWaitOnEachOther() {
    Stream mine = two.newStream(D0);
    Stream foreign = three.newStream(D0);
    assertThrows(IllegalArgumentException.class, () -> mine.waitStream(foreign));
    assertThrows(IllegalArgumentException.class, () -> foreign.waitStream(mine));
  }

  @Test
  void closingOneAcceleratorLeavesTheOtherWorking() throws Exception {
    Accelerator extra =
        Accelerator.start(
            ConfigFactory.parseString("openaccel.system-name = \"multi-accelerator-extra\""));
    Stream doomed = extra.newStream(D1);
    assertEquals(1, get(doomed.submit("before-close", () -> 1)));
    extra.close();
    extra.close(); // idempotent
    assertEquals(2, get(two.newStream(D1).submit("still-alive", () -> 2)));
    assertEquals(3, get(three.newStream(D2).submit("still-alive", () -> 3)));
  }
}
