package dev.openaccel.openreg.guard;

import static dev.openaccel.openreg.testing.KernelLatches.D0;
import static dev.openaccel.openreg.testing.KernelLatches.D1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.openreg.testing.ForeignStreams;
import dev.openaccel.openreg.testing.KernelLatches;
import dev.openaccel.openreg.testing.SharedAcceleratorTest;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.MultiStreamGuard;
import dev.openaccel.runtime.Stream;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * {@link MultiStreamGuard}, as c10's {@code MultiStreamGuard} but restoring in reverse order (c10
 * restores in forward order, which leaves the wrong stream current when two streams of one device
 * are guarded). Only OpenReg is on the class path, so the mixed-type case uses an inert stream
 * value of another type.
 */
@SuppressWarnings("try") // guards are opened for their scope and often not referenced inside it
class MultiStreamGuardTest extends SharedAcceleratorTest {
  @Test
  void makesEveryStreamCurrentWithoutChangingTheCurrentDevice() {
    Stream onZero = acc.newStream(D0);
    Stream onOne = acc.newStream(D1);
    try (MultiStreamGuard guard = acc.multiStreamGuard(List.of(onOne, onZero))) {
      assertEquals(D0, acc.currentDevice());
      assertEquals(onZero, acc.currentStream());
      assertEquals(onOne, acc.currentStream(D1));
    }
    assertEquals(D0, acc.currentDevice());
    assertEquals(acc.defaultStream(D0), acc.currentStream(D0));
    assertEquals(acc.defaultStream(D1), acc.currentStream(D1));
  }

  @Test
  void restoresInReverseOrderWhenTwoStreamsShareADevice() {
    Stream previous = acc.newStream(D1);
    acc.setStream(previous);
    Stream first = acc.newStream(D1);
    Stream second = acc.newStream(D1);
    try (MultiStreamGuard guard = acc.multiStreamGuard(List.of(first, second))) {
      assertEquals(second, acc.currentStream(D1));
    }
    assertEquals(previous, acc.currentStream(D1));
  }

  @Test
  void restoresWhenTheBodyThrows() {
    Stream onZero = acc.newStream(D0);
    Stream onOne = acc.newStream(D1);
    assertThrows(
        UnsupportedOperationException.class,
        () -> {
          try (MultiStreamGuard guard = acc.multiStreamGuard(List.of(onZero, onOne))) {
            throw new UnsupportedOperationException("body failed");
          }
        });
    assertEquals(acc.defaultStream(D0), acc.currentStream(D0));
    assertEquals(acc.defaultStream(D1), acc.currentStream(D1));
  }

  @Test
  void nestedGuardsRestoreLayerByLayer() {
    Stream outerStream = acc.newStream(D0);
    Stream innerStream = acc.newStream(D0);
    try (MultiStreamGuard outer = acc.multiStreamGuard(List.of(outerStream))) {
      try (MultiStreamGuard inner = acc.multiStreamGuard(List.of(innerStream, outerStream))) {
        assertEquals(outerStream, acc.currentStream());
      }
      assertEquals(outerStream, acc.currentStream());
    }
    assertEquals(acc.defaultStream(D0), acc.currentStream());
  }

  @Test
  void emptyCollectionChangesNothing() {
    try (MultiStreamGuard guard = acc.multiStreamGuard(List.of())) {
      assertEquals(acc.defaultStream(D0), acc.currentStream());
    }
    assertEquals(D0, acc.currentDevice());
  }

  @Test
  void aStreamOfAnotherAcceleratorIsRejectedAndTheStreamsBeforeItAreRestored() {
    try (Accelerator other =
        Accelerator.start(
            ConfigFactory.parseString("openaccel.system-name = multi-stream-guard-other"))) {
      Stream mine = acc.newStream(D1);
      Stream foreign = other.newStream(D0);
      assertThrows(
          IllegalArgumentException.class, () -> acc.multiStreamGuard(List.of(mine, foreign)));
      assertEquals(acc.defaultStream(D1), acc.currentStream(D1), "the guard that failed left it");
    }
  }

  @Test
  void mixOfDeviceTypesIsRejectedAndChangesNothing() {
    Stream openreg = acc.newStream(D1);
    Stream foreign = ForeignStreams.of(Device.parse("nosuch:0"), 1);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> acc.multiStreamGuard(List.of(openreg, foreign)));
    assertTrue(e.getMessage().contains("mix of device types"), e.getMessage());
    assertEquals(acc.defaultStream(D1), acc.currentStream(D1));
  }

  @Test
  void closedOnAnotherThreadIsRejected() throws Exception {
    Stream onOne = acc.newStream(D1);
    try (MultiStreamGuard guard = acc.multiStreamGuard(List.of(onOne))) {
      CompletableFuture<Throwable> thrown = new CompletableFuture<>();
      new Thread(
              () -> {
                try {
                  guard.close();
                  thrown.complete(null);
                } catch (Throwable t) {
                  thrown.complete(t);
                }
              },
              "other-thread")
          .start();
      assertInstanceOf(IllegalStateException.class, KernelLatches.get(thrown));
      assertEquals(onOne, acc.currentStream(D1));
    }
    assertEquals(acc.defaultStream(D1), acc.currentStream(D1));
  }
}
