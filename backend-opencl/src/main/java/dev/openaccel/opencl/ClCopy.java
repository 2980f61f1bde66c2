package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.nclEnqueueCopyBuffer;
import static org.lwjgl.opencl.CL10.nclEnqueueReadBuffer;
import static org.lwjgl.opencl.CL10.nclEnqueueWriteBuffer;

import java.nio.ByteBuffer;
import org.lwjgl.system.MemoryUtil;

/**
 * The three copies as non-blocking OpenCL commands. A direct host buffer is used in place; a heap
 * buffer goes through native staging memory ({@code malloc}, no garbage-collected direct buffer):
 * filled when the command is enqueued (for {@code copyToDevice}) or emptied into the heap buffer
 * when it ends (for {@code copyToHost}), and freed then. Each copy is one command, used once; a
 * captured one is a graph's template, whose {@link #replica} is a copy of the same bytes with uses
 * of its own, which reads or writes the host buffer when the replay runs.
 */
abstract sealed class ClCopy implements ClWork {
  private final String call;
  private final String name;
  final ClRegion[] regions;
  final long[] mems;

  /** Takes a use of each region; {@code uses} says what for, in the closed-buffer error. */
  private ClCopy(String call, String name, String[] uses, ClRegion... regions) {
    this.call = call;
    this.name = name;
    this.regions = regions;
    this.mems = new long[regions.length];
    int taken = 0;
    try {
      for (; taken < regions.length; taken++) {
        mems[taken] = regions[taken].acquire(uses[taken]);
      }
    } catch (RuntimeException e) {
      for (int i = 0; i < taken; i++) {
        regions[i].enqueued();
      }
      throw e;
    }
  }

  @Override
  public void enqueued() {
    for (ClRegion region : regions) {
      region.enqueued();
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String toString() {
    return call;
  }

  /** Host to device: {@code src}'s remaining bytes into {@code dst}. */
  static final class ToDevice extends ClCopy {
    private final ByteBuffer src;
    private final int from;
    private final int length;
    private ByteBuffer staged;

    ToDevice(ByteBuffer src, ClRegion dst) {
      this(src, src.position(), src.remaining(), dst);
    }

    private ToDevice(ByteBuffer src, int from, int length, ClRegion dst) {
      super("clEnqueueWriteBuffer", "copyToDevice", new String[] {"copy into"}, dst);
      this.src = src;
      this.from = from;
      this.length = length;
    }

    @Override
    public ToDevice replica() {
      return new ToDevice(src, from, length, regions[0]);
    }

    @Override
    public int enqueue(long queue, long eventAddress) {
      ByteBuffer bytes = src;
      if (!src.isDirect()) {
        staged = MemoryUtil.memAlloc(length).put(0, src, from, length);
        bytes = staged;
      }
      long address = MemoryUtil.memAddress0(bytes) + (bytes == src ? from : 0);
      return nclEnqueueWriteBuffer(queue, mems[0], 0, 0, length, address, 0, 0, eventAddress);
    }

    @Override
    public void ended(boolean completed) {
      MemoryUtil.memFree(staged);
    }
  }

  /** Device to host: {@code src} into {@code dst} from its position. */
  static final class ToHost extends ClCopy {
    private final ByteBuffer dst;
    private final int to;
    private final int length;
    private ByteBuffer staged;

    ToHost(ClRegion src, ByteBuffer dst) {
      this(src, dst, dst.position(), dst.remaining());
    }

    private ToHost(ClRegion src, ByteBuffer dst, int to, int length) {
      super("clEnqueueReadBuffer", "copyToHost", new String[] {"copy from"}, src);
      this.dst = dst;
      this.to = to;
      this.length = length;
    }

    @Override
    public ToHost replica() {
      return new ToHost(regions[0], dst, to, length);
    }

    @Override
    public int enqueue(long queue, long eventAddress) {
      ByteBuffer bytes = dst;
      if (!dst.isDirect()) {
        staged = MemoryUtil.memAlloc(length);
        bytes = staged;
      }
      long address = MemoryUtil.memAddress0(bytes) + (bytes == dst ? to : 0);
      return nclEnqueueReadBuffer(queue, mems[0], 0, 0, length, address, 0, 0, eventAddress);
    }

    @Override
    public void ended(boolean completed) {
      if (staged != null) {
        if (completed) {
          dst.put(to, staged, 0, length);
        }
        MemoryUtil.memFree(staged);
      }
    }
  }

  /** Device to device, same size; the buffers may be on two devices of the context. */
  static final class Between extends ClCopy {
    private final long length;

    Between(ClRegion src, ClRegion dst, long length) {
      super("clEnqueueCopyBuffer", "copy", new String[] {"copy from", "copy into"}, src, dst);
      this.length = length;
    }

    @Override
    public Between replica() {
      return new Between(regions[0], regions[1], length);
    }

    /** The bytes copied, from the start of the source to the start of the target. */
    long length() {
      return length;
    }

    @Override
    public int enqueue(long queue, long eventAddress) {
      return nclEnqueueCopyBuffer(queue, mems[0], mems[1], 0, 0, length, 0, 0, eventAddress);
    }
  }
}
