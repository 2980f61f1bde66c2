package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_MEM_COPY_HOST_PTR;
import static org.lwjgl.opencl.CL10.CL_MEM_READ_WRITE;
import static org.lwjgl.opencl.CL10.clReleaseEvent;
import static org.lwjgl.opencl.CL10.clReleaseMemObject;
import static org.lwjgl.opencl.CL10.nclCreateBuffer;
import static org.lwjgl.opencl.CL10.nclEnqueueReadBuffer;

import java.nio.ByteBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

/**
 * The bounds check of one launch of a checked kernel ({@link CheckedSource}): a fresh zeroed error
 * buffer for the kernel's hidden argument, the kernel's own event, and a non-blocking read of the
 * buffer's header behind the kernel on the same queue. The launch's command is reported once that
 * read has ended, and then {@link #failure} says what the kernel recorded.
 *
 * <p>The error buffer, as {@code uint} words: 0 set to 1 by the first out-of-bounds access, which
 * then writes 1 its argument index, 2 its kind ({@link #READ} or {@link #WRITE}), 4-5 its index and
 * 6-7 the argument's element count (low word first); 8-9 count every such access. Bytes {@value
 * #ZERO_AREA} to {@value #SINK} stay zero for out-of-bounds reads, and writes go to the {@value
 * #AREA} bytes from {@value #SINK} (both aligned for any OpenCL C type).
 *
 * <p>Owns: the error buffer's {@code cl_mem}, the kernel's event and the host memory that the read
 * fills, made at the launch call, enqueued by the stream's actor and read and released once the
 * command has ended ({@link #release}, exactly once, by whichever thread ends the command).
 */
final class ClBoundsCheck {
  /** The kind of an access that reads. */
  static final int READ = 0;

  /** The kind of an access that writes (or may: an atomic, a read-modify-write). */
  static final int WRITE = 1;

  /** Bytes of scratch per area: element types larger than this fail the checked build. */
  static final int AREA = 1024;

  /** Where the scratch that out-of-bounds reads read begins; it stays zero. */
  static final int ZERO_AREA = 256;

  /** Where the scratch that out-of-bounds writes write begins. */
  static final int SINK = ZERO_AREA + AREA;

  private static final int HEADER = 64;
  private static final int BYTES = SINK + AREA;
  private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(BYTES); // only ever read

  private final long errors;
  private final long host; // HEADER bytes the read fills, then the kernel's cl_event

  private ClBoundsCheck(long errors) {
    this.errors = errors;
    this.host = MemoryUtil.nmemCallocChecked(1, HEADER + Long.BYTES);
  }

  /**
   * A check with a new error buffer in {@code context}.
   *
   * @throws IllegalStateException if the backend was closed
   * @throws OpenClException if OpenCL cannot make the buffer
   */
  static ClBoundsCheck create(ClContext context) {
    long errors =
        context.whileOpen(
            "launch a checked kernel",
            () -> {
              try (MemoryStack stack = MemoryStack.stackPush()) {
                var rc = stack.mallocInt(1);
                long mem =
                    nclCreateBuffer(
                        context.handle(),
                        CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                        BYTES,
                        MemoryUtil.memAddress(ZEROS),
                        MemoryUtil.memAddress(rc));
                ClErrors.check(rc.get(0), "clCreateBuffer(the error buffer of a checked kernel)");
                return mem;
              }
            });
    return new ClBoundsCheck(errors);
  }

  /** The error buffer, the kernel's hidden last argument. */
  long errorBuffer() {
    return errors;
  }

  /** Where {@code clEnqueueNDRangeKernel} stores the kernel's event. */
  long kernelEventAddress() {
    return host + HEADER;
  }

  /**
   * Enqueues the read of the error buffer's header behind the kernel, storing its event at {@code
   * eventAddress} (none when 0): the launch's command ends with it.
   *
   * @return the OpenCL error code, 0 on success
   */
  int readBack(long queue, long eventAddress) {
    return nclEnqueueReadBuffer(queue, errors, 0, 0, HEADER, host, 0, 0, eventAddress);
  }

  /** The event whose start begins the launch's trace span: the kernel's, or {@code event}. */
  long spanStart(long event) {
    long kernel = MemoryUtil.memGetAddress(kernelEventAddress());
    return kernel != 0 ? kernel : event;
  }

  /**
   * What the kernel recorded, once the read has ended: the first out-of-bounds access of {@code
   * kernel}'s launch {@code launchName} as an exception, or null if every access was in bounds.
   */
  KernelBoundsException failure(DeviceKernel kernel, String launchName) {
    if (word(0) == 0) {
      return null;
    }
    return new KernelBoundsException(
        kernel.name(),
        launchName,
        kernel.parameters().get(word(1)),
        word(2) == WRITE,
        doubleWord(4),
        doubleWord(6),
        doubleWord(8));
  }

  private int word(int i) {
    return MemoryUtil.memGetInt(host + 4L * i);
  }

  private long doubleWord(int i) {
    return (word(i) & 0xFFFF_FFFFL) | ((long) word(i + 1) << 32);
  }

  /** Releases the error buffer, the kernel's event and the host memory; once the command ended. */
  void release() {
    long kernel = MemoryUtil.memGetAddress(kernelEventAddress());
    if (kernel != 0) {
      clReleaseEvent(kernel);
    }
    clReleaseMemObject(errors);
    MemoryUtil.nmemFree(host);
  }
}
