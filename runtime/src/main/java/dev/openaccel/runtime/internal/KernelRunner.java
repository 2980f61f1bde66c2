package dev.openaccel.runtime.internal;

import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.spi.LaunchModel;
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

  KernelRunner(StreamCore core, LaunchModel launchModel) {
    this.core = core;
    this.launchModel = launchModel;
    this.deviceIndex = core.stream().deviceIndex();
  }

  void launch(WorkItem.Launch launch) {
    try {
      delay();
      launch.body().run();
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable t) {
      failed(launch.name(), t);
    }
    core.itemCompleted();
  }

  void submit(WorkItem.Submit submit) {
    Object value = null;
    DeviceExecutionException failure = null;
    try {
      delay();
      value = submit.body().call();
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable t) {
      failure = failed(submit.name(), t);
    }
    core.itemCompleted();
    if (failure == null) {
      submit.result().complete(value);
    } else {
      submit.result().completeExceptionally(failure);
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
      earlier.addSuppressed(failure);
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
