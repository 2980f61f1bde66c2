package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.spi.DeviceMemory;
import dev.openaccel.runtime.spi.DeviceWork;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Device memory for {@link QueueDevice}, written only against the SPI: regions are host bytes; a
 * copy is {@link QueueDevice.Work} that moves them on the queue's thread, except that a copy from a
 * heap buffer reads its source as it is submitted, as OpenCL's backend stages it when it enqueues
 * the copy. Counts what it reserved, released, staged and discarded.
 */
final class QueueMemory implements DeviceMemory {
  record Region(Device device, long size, ByteBuffer bytes) implements DeviceMemory.Region {}

  final List<DeviceMemory.Region> reserved = new CopyOnWriteArrayList<>();
  final List<DeviceMemory.Region> released = new CopyOnWriteArrayList<>();

  /** The heap sources of copies submitted so far, in submission order. */
  final List<ByteBuffer> staged = new CopyOnWriteArrayList<>();

  final AtomicInteger discarded = new AtomicInteger();

  @Override
  public long capacity(Device device) {
    return 1 << 30;
  }

  @Override
  public DeviceMemory.Region reserve(Device device, long bytes) {
    Region region = new Region(device, bytes, ByteBuffer.allocate((int) bytes));
    reserved.add(region);
    return region;
  }

  @Override
  public void release(DeviceMemory.Region region) {
    released.add(region);
  }

  /** Work that runs {@code body} on the queue's thread; it counts a discard. */
  DeviceWork work(Runnable body) {
    return new QueueDevice.Work(() -> {}, body, discarded::incrementAndGet);
  }

  @Override
  public DeviceWork copyToDevice(ByteBuffer src, DeviceMemory.Region dst) {
    ByteBuffer to = ((Region) dst).bytes();
    int from = src.position();
    int length = src.remaining();
    if (src.isDirect()) {
      return work(() -> to.put(0, src, from, length));
    }
    ByteBuffer[] staging = new ByteBuffer[1];
    return new QueueDevice.Work(
        () -> {
          staging[0] = ByteBuffer.allocate(length).put(0, src, from, length);
          staged.add(src);
        },
        () -> to.put(0, staging[0], 0, length),
        discarded::incrementAndGet);
  }

  @Override
  public DeviceWork copyToHost(DeviceMemory.Region src, ByteBuffer dst) {
    ByteBuffer from = ((Region) src).bytes();
    int to = dst.position();
    int length = dst.remaining();
    return work(() -> dst.put(to, from, 0, length));
  }

  @Override
  public DeviceWork copy(DeviceMemory.Region src, DeviceMemory.Region dst, long bytes) {
    ByteBuffer from = ((Region) src).bytes();
    ByteBuffer to = ((Region) dst).bytes();
    return work(() -> to.put(0, from, 0, (int) bytes));
  }

  @Override
  public ByteBuffer map(DeviceMemory.Region region, long bytes) {
    return ((Region) region).bytes().slice(0, (int) bytes);
  }

  @Override
  public void unmap(DeviceMemory.Region region, ByteBuffer view) {}
}
