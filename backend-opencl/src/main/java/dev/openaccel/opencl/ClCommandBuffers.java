package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_QUEUE_PROFILING_ENABLE;
import static org.lwjgl.opencl.CL30.CL_DEVICE_EXTENSIONS_WITH_VERSION;
import static org.lwjgl.opencl.KHRCommandBuffer.CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR;
import static org.lwjgl.opencl.KHRCommandBuffer.CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR;
import static org.lwjgl.opencl.KHRCommandBuffer.CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.spi.DeviceExecutor;
import dev.openaccel.runtime.spi.DeviceWork;
import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.lwjgl.opencl.CL;
import org.lwjgl.opencl.CL10;
import org.lwjgl.opencl.CLCapabilities;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.slf4j.LoggerFactory;

/**
 * Command buffers ({@code cl_khr_command_buffer}) for graph replays: which devices can run them,
 * and the fusion of a lane's run of device kernels and device-to-device copies into one {@link
 * ClFusedRun}. A device runs them when it reports the extension at a version from 0.9.0 to 0.9.4
 * (LWJGL 3.3.6's bindings follow those; 0.9.5 added a parameter to every recording call), the ICD
 * loader gives its functions, it requires no queue property that the backend's queues lack, and it
 * allows simultaneous use: back-to-back replays of one graph have one command buffer pending
 * several times, on one queue or several. Every other device replays per node, and the backend logs
 * why once. Host copies and checked kernels are never fused: a command buffer has no host copy, and
 * a checked kernel's error buffer is new per launch.
 *
 * <p>A graph has no close: a fused run's {@link ClRecording} (its command buffer and kernel copies)
 * is released once the run is unreachable, found through a reference queue whenever a graph is made
 * (no thread of its own), and at the latest when the backend closes.
 *
 * <p>Owns: the live recordings' references, a concurrent set that the thread making a graph adds to
 * and removes from, and that the backend's release at close empties; the reference queue, which the
 * garbage collector fills; and the count of native objects the recordings and their replays hold,
 * counted by whichever thread makes or releases one.
 */
final class ClCommandBuffers {
  private static final int FIRST = version(0, 9, 0);
  private static final int LAST = version(0, 9, 4);
  private static final int NAME_VERSION_BYTES = 4 + 64; // cl_name_version

  private final String[] unsupported; // by device index: why not, or null
  private final Set<Tracked> live = ConcurrentHashMap.newKeySet();
  private final ReferenceQueue<ClFusedRun> unreachable = new ReferenceQueue<>();
  private final AtomicLong objects = new AtomicLong();

  /** Probes every device of {@code context}, whose queues profile when {@code profiling}. */
  ClCommandBuffers(ClContext context, boolean profiling) {
    unsupported = new String[context.devices().size()];
    for (int i = 0; i < unsupported.length; i++) {
      ClDevice device = context.device(i);
      unsupported[i] = whyNot(device, profiling ? CL_QUEUE_PROFILING_ENABLE : 0);
      LoggerFactory.getLogger(ClCommandBuffers.class)
          .info(
              "opencl:{} ({}): graphs replay runs of device work {}",
              i,
              device.name(),
              unsupported[i] == null
                  ? "as command buffers (cl_khr_command_buffer)"
                  : "per node: " + unsupported[i]);
    }
  }

  /**
   * The fusion of the first of {@code templates} on {@code device}: as many as follow each other
   * from the first that are unchecked kernel launches or device-to-device copies, if two or more;
   * else, or if the device has no usable command buffers, null.
   */
  DeviceExecutor.Fusion fuse(Device device, List<DeviceWork> templates) {
    releaseUnreachable();
    if (unsupported[device.index()] != null) {
      return null;
    }
    List<ClWork> steps = new ArrayList<>();
    for (DeviceWork work : templates) {
      if (work instanceof ClCopy.Between || work instanceof ClLaunch l && !l.kernel().checked()) {
        steps.add((ClWork) work);
      } else {
        break;
      }
    }
    if (steps.size() < 2) {
      return null;
    }
    ClRecording recording = new ClRecording(this, steps);
    ClFusedRun run = new ClFusedRun(steps, recording);
    live.add(new Tracked(run, recording, unreachable));
    return new DeviceExecutor.Fusion(run, steps.size(), "one OpenCL command buffer");
  }

  /** Counts a native object made for a recording or a replay (+1) or released (-1). */
  void counted(int change) {
    objects.addAndGet(change);
  }

  /** The native objects fused runs hold now: command buffers, kernel copies, replay events. */
  long liveObjects() {
    return objects.get();
  }

  /** Releases every recording; called once, before the context is released. */
  void release() {
    live.forEach(tracked -> tracked.recording.release());
    live.clear();
  }

  /** Releases the recordings of fused runs that became unreachable (their graphs are gone). */
  private void releaseUnreachable() {
    for (var gone = unreachable.poll(); gone != null; gone = unreachable.poll()) {
      Tracked tracked = (Tracked) gone;
      live.remove(tracked);
      tracked.recording.release();
    }
  }

  /** A fused run's recording, queued once the run is unreachable. */
  private static final class Tracked extends PhantomReference<ClFusedRun> {
    final ClRecording recording;

    Tracked(ClFusedRun run, ClRecording recording, ReferenceQueue<ClFusedRun> queue) {
      super(run, queue);
      this.recording = recording;
    }
  }

  /** Why {@code device} cannot run graph replays as command buffers, or null if it can. */
  private static String whyNot(ClDevice device, long queueProperties) {
    int version = extensionVersion(device.id());
    if (version < 0) {
      return "the device does not report cl_khr_command_buffer (" + device.version() + ")";
    }
    if (version < FIRST || version > LAST) {
      return "cl_khr_command_buffer "
          + describe(version)
          + " is not one of 0.9.0 to 0.9.4, the versions LWJGL's bindings call";
    }
    CLCapabilities icd = CL.getICD();
    if (icd.clCreateCommandBufferKHR == 0
        || icd.clEnqueueCommandBufferKHR == 0
        || icd.clCommandNDRangeKernelKHR == 0
        || icd.clCommandCopyBufferKHR == 0) {
      return "the OpenCL loader gives no cl_khr_command_buffer functions";
    }
    long required =
        ClInfo.deviceLong(device.id(), CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR);
    if ((required & ~queueProperties) != 0) {
      return "command buffers need queue properties 0x" + Long.toHexString(required);
    }
    long capabilities = ClInfo.deviceLong(device.id(), CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR);
    if ((capabilities & CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR) == 0) {
      return "command buffers without simultaneous use (overlapping replays need it)";
    }
    return null;
  }

  /**
   * The version of {@code cl_khr_command_buffer} {@code device} reports ({@code
   * CL_DEVICE_EXTENSIONS_WITH_VERSION}, OpenCL 3.0), or -1 without it or the query.
   */
  private static int extensionVersion(long device) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var size = stack.mallocPointer(1);
      if (CL10.clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, (ByteBuffer) null, size)
          != 0) {
        return -1;
      }
      ByteBuffer list = MemoryUtil.memAlloc((int) size.get(0)).order(ByteOrder.nativeOrder());
      try {
        ClErrors.check(
            CL10.clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, list, null),
            "clGetDeviceInfo(CL_DEVICE_EXTENSIONS_WITH_VERSION)");
        for (int at = 0; at + NAME_VERSION_BYTES <= list.limit(); at += NAME_VERSION_BYTES) {
          String name = ClInfo.decode(list.slice(at + 4, NAME_VERSION_BYTES - 4));
          if (name.equals("cl_khr_command_buffer")) {
            return list.getInt(at);
          }
        }
        return -1;
      } finally {
        MemoryUtil.memFree(list);
      }
    }
  }

  private static int version(int major, int minor, int patch) {
    return major << 22 | minor << 12 | patch;
  }

  private static String describe(int version) {
    return (version >>> 22) + "." + (version >>> 12 & 0x3FF) + "." + (version & 0xFFF);
  }
}
