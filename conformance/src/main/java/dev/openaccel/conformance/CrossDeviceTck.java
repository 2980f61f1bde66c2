package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Conformance across devices of one type: devices run independently, an event is bound to one
 * device, and {@link Capability#CROSS_DEVICE_WAIT} decides whether a stream may wait on another
 * device's work (declared: it waits correctly; undeclared: unsupported, for events and streams
 * alike). A backend that declares it must have at least two devices for the suite to prove it.
 */
public abstract class CrossDeviceTck extends BackendTck {

  @Test
  void aDeclaredCrossDeviceWaitHasASecondDeviceToProveIt() {
    if (deviceCount() >= 2) {
      assertEquals(device(1), accelerator().defaultStream(device(1)).device());
    } else {
      assertFalse(
          declares(Capability.CROSS_DEVICE_WAIT),
          about("declares CROSS_DEVICE_WAIT: configure at least two devices for the suite"));
      assertThrowsWith(
          IllegalArgumentException.class,
          "device index is out of range",
          () -> accelerator().defaultStream(device(1)));
    }
  }

  @Test
  void streamsOfDifferentDevicesRunConcurrently() throws Exception {
    assumeDevices(2);
    CountDownLatch secondStarted = new CountDownLatch(1);
    Stream first = newStream(0);
    Stream second = newStream(1);
    // the first device's kernel can only finish once the second device's kernel has run
    CompletionStage<Boolean> waited =
        first.submit(
            "waits for device 1",
            () -> secondStarted.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
    second.launch("runs meanwhile", secondStarted::countDown);
    assertTrue(await(waited), about("device 1 did not run while device 0 was busy"));
  }

  @Test
  void synchronizingOneDeviceDoesNotWaitForAnother() throws Exception {
    assumeDevices(2);
    CountDownLatch gate = gate();
    hold(newStream(0), gate);
    AtomicBoolean ran = new AtomicBoolean();
    newStream(1).launch("mark", () -> ran.set(true));
    await(accelerator().synchronizeAsync(device(1)));
    accelerator().synchronize(device(1));
    assertTrue(ran.get());
    assertFalse(accelerator().synchronizeAsync(device(0)).toCompletableFuture().isDone());
    gate.countDown();
    await(accelerator().synchronizeAsync(device(0)));
  }

  @Test
  void recordOnAnotherDeviceIsRejected() {
    assumeDeclared(Capability.EVENTS);
    assumeDevices(2);
    try (Event event = newEvent()) {
      event.record(newStream(0));
      assertThrowsWith(
          IllegalArgumentException.class,
          "does not match recording stream's device",
          () -> event.record(newStream(1)));
      assertEquals(0, event.deviceIndex());
      assertTrue(event.synchronize(WAIT));
    }
  }

  @Test
  void aStreamWaitsForAnEventOfAnotherDevice() throws Exception {
    assumeDeclared(Capability.CROSS_DEVICE_WAIT);
    assumeDevices(2);
    CountDownLatch gate = gate();
    Stream producer = newStream(0);
    Stream consumer = newStream(1);
    AtomicBoolean produced = new AtomicBoolean();
    hold(producer, gate);
    producer.launch("produce", () -> produced.set(true));
    try (Event event = producer.recordEvent()) {
      event.block(consumer);
      CompletionStage<Boolean> seen = consumer.submit("consume", produced::get);
      assertFalse(consumer.query());
      gate.countDown();
      assertTrue(await(seen), about("device 1 ran before the event of device 0 completed"));
    }
  }

  @Test
  void aStreamWaitsForAStreamOfAnotherDevice() throws Exception {
    assumeDeclared(Capability.CROSS_DEVICE_WAIT);
    assumeDevices(2);
    CountDownLatch gate = gate();
    Stream producer = newStream(0);
    Stream consumer = newStream(1);
    AtomicBoolean produced = new AtomicBoolean();
    hold(producer, gate);
    producer.launch("produce", () -> produced.set(true));
    consumer.waitStream(producer);
    CompletionStage<Boolean> seen = consumer.submit("consume", produced::get);
    gate.countDown();
    assertTrue(await(seen), about("device 1 ran before the stream of device 0 got there"));
  }

  @Test
  void waitingOnAnEventOfAnotherDeviceIsUnsupportedWhenUndeclared() throws Exception {
    assumeDeclared(Capability.EVENTS);
    assumeUndeclared(Capability.CROSS_DEVICE_WAIT);
    assumeDevices(2);
    Stream consumer = newStream(1);
    try (Event event = newStream(0).recordEvent()) {
      assertUnsupported(() -> event.block(consumer));
      assertUnsupported(() -> consumer.waitEvent(event));
    }
    assertEquals(1, await(consumer.submit("still usable", () -> 1)));
  }

  @Test
  void waitingOnAStreamOfAnotherDeviceIsUnsupportedWhenUndeclared() throws Exception {
    assumeUndeclared(Capability.CROSS_DEVICE_WAIT);
    assumeDevices(2);
    Stream producer = newStream(0);
    Stream consumer = newStream(1);
    assertUnsupported(() -> consumer.waitStream(producer));
    assertEquals(1, await(consumer.submit("still usable", () -> 1)));
    assertTrue(producer.query(), about("a rejected wait left work on the other stream"));
  }
}
