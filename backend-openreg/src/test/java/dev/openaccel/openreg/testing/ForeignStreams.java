package dev.openaccel.openreg.testing;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Kernel;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;

/**
 * Streams of a device type that has no backend in the accelerator under test. Only OpenReg is on
 * the test class path, so mixed-type and unknown-type misuse is shown with these inert values: any
 * operation on them throws.
 */
public final class ForeignStreams {
  private ForeignStreams() {}

  /** A stream value of {@code device} whose operations all throw. */
  public static Stream of(Device device, long id) {
    return Stream.wrap(device, id, 0, new Inert(device));
  }

  private record Inert(Device device) implements Stream.Ops {
    private UnsupportedOperationException refused() {
      return new UnsupportedOperationException(device + " has no backend in this test");
    }

    @Override
    public Event newEvent(EventOptions options) {
      throw refused();
    }

    @Override
    public boolean query() {
      throw refused();
    }

    @Override
    public CompletionStage<Void> launchAsync(String name, Runnable kernel) {
      throw refused();
    }

    @Override
    public void close() {
      throw refused();
    }

    @Override
    public long pendingWork() {
      throw refused();
    }

    @Override
    public void synchronize() {
      throw refused();
    }

    @Override
    public CompletionStage<Void> synchronizeAsync() {
      throw refused();
    }

    @Override
    public void launch(String name, Runnable kernel) {
      throw refused();
    }

    @Override
    public <T> CompletionStage<T> submit(String name, Callable<T> kernel) {
      throw refused();
    }

    @Override
    public void copyToDevice(ByteBuffer src, DeviceBuffer dst) {
      throw refused();
    }

    @Override
    public void copyToHost(DeviceBuffer src, ByteBuffer dst) {
      throw refused();
    }

    @Override
    public void copy(DeviceBuffer src, DeviceBuffer dst) {
      throw refused();
    }

    @Override
    public void launch(String name, Kernel kernel, DeviceBuffer... buffers) {
      throw refused();
    }

    @Override
    public void waitFor(Stream other) {
      throw refused();
    }

    @Override
    public void waitFor(java.util.concurrent.CompletionStage<?> signal) {
      throw refused();
    }
  }
}
