/**
 * The flagship sample: C = A x B on float32 matrices, tiled, split over the OpenReg devices.
 *
 * <p>Output tile C[i,j] is the sum over k of A[i,k] x B[k,j]; each term is one step. Output tiles
 * go round-robin to devices and, within a device, to its compute streams. Every device runs:
 *
 * <pre>
 *   copy-in   --A,B(k)--&gt;ready   --A,B(k+1)--&gt;ready   ...     (waits: free of the slot it refills)
 *                    \                   \
 *   compute c         wait ready -&gt; gemm k -&gt; free    wait ready -&gt; gemm k+1 -&gt; free ...
 *                                                                   \ (last k) out-ready
 *   copy-out                                          wait out-ready -&gt; C tile to host -&gt; out-free
 * </pre>
 *
 * <p>Two input slots (A and B tiles) and two C buffers per compute stream make the double
 * buffering: the copy of step k+1 runs while step k multiplies, and the copy-out of one output tile
 * runs while the next one starts. Events order every reuse; no host thread waits until the end.
 * Timing events bracket each device's work ({@code Event.elapsedTime}), and the trace bus feeds the
 * per-stream report, the Perfetto trace and the SVG timeline ({@code report} package).
 */
package dev.openaccel.samples.pipeline;
