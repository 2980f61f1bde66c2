package dev.openaccel.runtime.internal;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.LaunchModel;
import dev.openaccel.runtime.trace.TraceEvent;
import dev.openaccel.runtime.trace.Tracer;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one stream's kernels on the device thread: applies the launch delay, catches the kernel's
 * failure and records it as the stream's unreported failure. Internal; confined to the stream's
 * actor.
 */
final class KernelRunner {
  private static final long SPIN_LIMIT_NANOS = 50_000;

  private final StreamCore core;
  private final LaunchModel launchModel;
  private final int deviceIndex;
  private final Tracer tracer;

  KernelRunner(StreamCore core, LaunchModel launchModel) {
    this.core = core;
    this.launchModel = launchModel;
    this.deviceIndex = core.stream().deviceIndex();
    this.tracer = core.engine().tracer();
  }

  void launch(WorkItem.Launch launch) {
    run(launch.name(), launch.body());
    core.itemCompleted();
  }

  void submit(WorkItem.Submit submit) {
    Object[] value = new Object[1];
    DeviceExecutionException failure = run(submit.name(), () -> value[0] = submit.body().call());
    core.itemCompleted(); // before the caller's stage completes, so query() agrees with it
    if (failure == null) {
      submit.result().complete(value[0]);
    } else {
      submit.result().completeExceptionally(failure);
    }
  }

  /** Runs one kernel with its launch delay and trace hooks; returns its failure, or null. */
  private DeviceExecutionException run(String name, WorkItem.Body body) {
    delay();
    boolean traced = started(name);
    DeviceExecutionException failure = null;
    try {
      body.run();
    } catch (StackOverflowError t) {
      failure = failed(name, t); // the kernel's own recursion, not the JVM's health
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable t) {
      failure = failed(name, t);
    }
    finished(traced, name, failure);
    return failure;
  }

  private boolean started(String kernel) {
    if (!tracer.enabled()) {
      return false;
    }
    Stream stream = core.stream();
    tracer.publish(
        new TraceEvent.KernelStarted(stream.device(), stream.id(), kernel, System.nanoTime()));
    return true;
  }

  /** Reports the end of a kernel whose start was reported, so a subscriber sees matched pairs. */
  private void finished(boolean traced, String kernel, DeviceExecutionException failure) {
    if (traced) {
      Stream stream = core.stream();
      tracer.publish(
          new TraceEvent.KernelFinished(
              stream.device(), stream.id(), kernel, failure != null, System.nanoTime()));
    }
  }

  private DeviceExecutionException failed(String kernel, Throwable cause) {
    DeviceExecutionException failure =
        new DeviceExecutionException(
            "kernel '" + kernel + "' failed on " + core.stream() + ": " + cause, cause);
    DeviceExecutionException earlier = core.unreported();
    if (earlier == null) {
      core.setUnreported(failure);
    } else {
      // A copy: events recorded after the first failure already hold that exception object.
      DeviceExecutionException both = DeviceEngine.reported(earlier);
      both.addSuppressed(failure);
      core.setUnreported(both);
    }
    return failure;
  }

  private void delay() {
    long nanos = launchModel.delayNanos(deviceIndex);
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
