package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.KernelContext;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;

/**
 * A kernel's view of its buffers; expires when the kernel returns. Confined to the device thread.
 */
final class BufferContext implements KernelContext {
  private final Stream stream;
  private final ByteBuffer[] views;
  private volatile boolean expired;

  BufferContext(Stream stream, ByteBuffer[] views) {
    this.stream = stream;
    this.views = views;
  }

  @Override
  public ByteBuffer buffer(int i) {
    if (expired) {
      throw new IllegalStateException(
          "kernel context used after its kernel returned; buffer views are valid only inside it");
    }
    if (i < 0 || i >= views.length) {
      throw new IndexOutOfBoundsException(
          "buffer " + i + " requested, the kernel was launched with " + views.length);
    }
    return views[i];
  }

  @Override
  public Device device() {
    return stream.device();
  }

  @Override
  public Stream stream() {
    return stream;
  }

  /** Makes every view empty, so a view kept past the kernel fails on any access. */
  void expire() {
    expired = true;
    for (ByteBuffer view : views) {
      view.position(0).limit(0);
    }
  }
}
