/**
 * OpenCL, a real device backend: put this module on the class path (with an OpenCL platform
 * installed) to get the {@code opencl} device type. See the module's README for what each runtime
 * operation does in OpenCL.
 *
 * <pre>
 *  user: Stream / Event / DeviceBuffer        OpenCl.compile -> DeviceProgram -> DeviceKernel.launch
 *          |                                                                        |
 *          v                                                                        v
 *  runtime engine: stream actor (order, generations, waits, failures)  &lt;-- Engine.enqueue(ClLaunch)
 *          |  submit / mark / waitFor                 ^ Completion (a message to the actor)
 *          v                                          |
 *  ClQueue: in-order cl_command_queue  --events-->  ClCallbacks (one static clSetEventCallback)
 *          |  clEnqueueNDRangeKernel, Read/Write/CopyBuffer, Marker, Barrier
 *          v
 *  ClContext: every selected device of one platform       ClDeviceMemory: cl_mem regions (ClRegion)
 * </pre>
 *
 * The public types are {@link dev.openaccel.opencl.OpenCl}, {@link
 * dev.openaccel.opencl.DeviceProgram}, {@link dev.openaccel.opencl.DeviceKernel}, {@link
 * dev.openaccel.opencl.LaunchShape}, {@link dev.openaccel.opencl.LocalMemory}, {@link
 * dev.openaccel.opencl.KernelParameter}, {@link dev.openaccel.opencl.ProgramOptions}, {@link
 * dev.openaccel.opencl.Sgemm}, {@link dev.openaccel.opencl.OpenClSettings}, {@link
 * dev.openaccel.opencl.OpenClException}, {@link dev.openaccel.opencl.KernelBoundsException} and the
 * provider; the {@code Cl*} classes and the rewriting of checked kernels ({@code CheckedSource},
 * {@code CheckedBody}, {@code KernelDeclaration}, {@code KernelChecks}) are internal.
 */
package dev.openaccel.opencl;
