package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.LaunchModel;
import dev.openaccel.runtime.trace.TraceEvent;
import dev.openaccel.runtime.trace.Tracer;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@link Kernels} does around each Java kernel of a stream: the launch delay before it, its
 * start and end on the trace bus, and the failure it becomes. Internal; immutable, used on the
 * stream's device thread.
 */
final class KernelHooks {
  private static final Logger log = LoggerFactory.getLogger(Kernels.class);
  private static final long SPIN_LIMIT_NANOS = 50_000;

  private final Stream stream;
  private final LaunchModel launchModel;
  private final Tracer tracer;

  KernelHooks(Stream stream, LaunchModel launchModel, Tracer tracer) {
    this.stream = stream;
    this.launchModel = launchModel;
    this.tracer = tracer;
  }

  DeviceExecutionException failed(String name, Throwable cause) {
    // Reported once, to the caller, at the sync point that covers it (or through the submit's
    // stage); the log only traces it for debugging.
    log.debug("kernel '{}' failed on {}", name, stream, cause);
    return new DeviceExecutionException(
        "kernel '" + name + "' failed on " + stream + ": " + cause, cause);
  }

  boolean started(String kernel) {
    if (!tracer.enabled()) {
      return false;
    }
    tracer.publish(
        new TraceEvent.KernelStarted(stream.device(), stream.id(), kernel, System.nanoTime()));
    return true;
  }

  /** Reports the end of a kernel whose start was reported, so a subscriber sees matched pairs. */
  void finished(boolean traced, String kernel, DeviceExecutionException failure) {
    if (traced) {
      tracer.publish(
          new TraceEvent.KernelFinished(
              stream.device(), stream.id(), kernel, failure != null, System.nanoTime()));
    }
  }

  void delay() {
    long nanos = launchModel.delayNanos(stream.deviceIndex());
    if (nanos <= 0) {
      return;
    }
    if (nanos > SPIN_LIMIT_NANOS) {
      LockSupport.parkNanos(nanos);
      return;
    }
    long until = System.nanoTime() + nanos;
    while (System.nanoTime() < until) {
      Thread.onSpinWait();
    }
  }
}
