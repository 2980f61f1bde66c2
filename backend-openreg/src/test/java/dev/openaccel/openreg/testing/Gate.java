package dev.openaccel.openreg.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A kernel that holds its stream until the test opens the gate: orders device work against host
 * actions without sleeping. The kernel waits at most {@link #HOLD_SECONDS}; closing the gate object
 * opens it, so try-with-resources never leaves a device thread parked after a failed assertion.
 */
public final class Gate implements AutoCloseable {
  public static final long HOLD_SECONDS = 10;

  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch open = new CountDownLatch(1);
  private volatile boolean timedOut;

  /** The kernel body: signals that it started, then waits for {@link #open()}. */
  public void hold() {
    entered.countDown();
    try {
      if (!open.await(HOLD_SECONDS, TimeUnit.SECONDS)) {
        timedOut = true;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      timedOut = true;
    }
  }

  /** Asserts that the kernel started running within the bounded wait. */
  public void awaitEntered() throws InterruptedException {
    assertTrue(entered.await(HOLD_SECONDS, TimeUnit.SECONDS), "gate kernel did not start");
  }

  public void open() {
    open.countDown();
  }

  public boolean isOpen() {
    return open.getCount() == 0;
  }

  /** True unless the kernel gave up waiting: the gate was opened by the test, not by time. */
  public boolean openedInTime() {
    return !timedOut;
  }

  @Override
  public void close() {
    open();
  }
}
