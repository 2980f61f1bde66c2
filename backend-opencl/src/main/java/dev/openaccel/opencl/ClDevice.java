package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_DEVICE_GLOBAL_MEM_SIZE;
import static org.lwjgl.opencl.CL10.CL_DEVICE_LOCAL_MEM_SIZE;
import static org.lwjgl.opencl.CL10.CL_DEVICE_MAX_COMPUTE_UNITS;
import static org.lwjgl.opencl.CL10.CL_DEVICE_MAX_MEM_ALLOC_SIZE;
import static org.lwjgl.opencl.CL10.CL_DEVICE_NAME;
import static org.lwjgl.opencl.CL10.CL_DEVICE_PROFILING_TIMER_RESOLUTION;
import static org.lwjgl.opencl.CL10.CL_DEVICE_TYPE;
import static org.lwjgl.opencl.CL10.CL_DEVICE_TYPE_GPU;
import static org.lwjgl.opencl.CL10.CL_DEVICE_VERSION;

/**
 * One OpenCL device as the backend sees it: its handle and the facts the runtime needs.
 *
 * @param id the {@code cl_device_id}
 * @param name {@code CL_DEVICE_NAME}
 * @param version {@code CL_DEVICE_VERSION}
 * @param globalMemory {@code CL_DEVICE_GLOBAL_MEM_SIZE} in bytes
 * @param maxAllocation {@code CL_DEVICE_MAX_MEM_ALLOC_SIZE} in bytes
 * @param computeUnits {@code CL_DEVICE_MAX_COMPUTE_UNITS}
 * @param timerResolution {@code CL_DEVICE_PROFILING_TIMER_RESOLUTION} in ns
 * @param gpu whether {@code CL_DEVICE_TYPE} says GPU
 * @param localMemory {@code CL_DEVICE_LOCAL_MEM_SIZE} in bytes
 */
record ClDevice(
    long id,
    String name,
    String version,
    long globalMemory,
    long maxAllocation,
    int computeUnits,
    long timerResolution,
    boolean gpu,
    long localMemory) {

  static ClDevice query(long id) {
    return new ClDevice(
        id,
        ClInfo.deviceString(id, CL_DEVICE_NAME),
        ClInfo.deviceString(id, CL_DEVICE_VERSION),
        ClInfo.deviceLong(id, CL_DEVICE_GLOBAL_MEM_SIZE),
        ClInfo.deviceLong(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE),
        ClInfo.deviceInt(id, CL_DEVICE_MAX_COMPUTE_UNITS),
        ClInfo.deviceLong(id, CL_DEVICE_PROFILING_TIMER_RESOLUTION),
        (ClInfo.deviceLong(id, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_GPU) != 0,
        ClInfo.deviceLong(id, CL_DEVICE_LOCAL_MEM_SIZE));
  }
}
