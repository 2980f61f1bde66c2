package dev.openaccel.benchmarks.report;

import static dev.openaccel.benchmarks.report.Measure.flops;
import static dev.openaccel.benchmarks.report.Measure.meanOfSamples;
import static dev.openaccel.benchmarks.report.Measure.rate;
import static dev.openaccel.benchmarks.report.Measure.time;
import static dev.openaccel.benchmarks.report.Target.advantageAtLeast;
import static dev.openaccel.benchmarks.report.Target.none;

import java.util.List;

/** The OpenCL backend's rows, each beside its raw-LWJGL (or Java) baseline from the same run. */
final class OpenClRows {
  private static final double SGEMM_1024_FLOP = 2.0 * 1024 * 1024 * 1024;

  private OpenClRows() {}

  static void addTo(List<Row> rows) {
    rows.add(
        new Row(
            "opencl: empty device kernels, one stream (vs raw clEnqueueNDRangeKernel)",
            rate("EnqueueRate.streamLaunch"),
            rate("EnqueueRate.rawEnqueue"),
            advantageAtLeast(0.95, ">= 0.95x raw")));
    rows.add(
        new Row(
            "opencl: empty device kernels, one stream (vs raw, an event asked for per kernel)",
            rate("EnqueueRate.streamLaunch"),
            rate("EnqueueRate.rawEnqueueEventEach"),
            none()));
    rows.add(
        new Row(
            "opencl: graph replay, a chain of 100 empty device kernels, per kernel (vs launched one"
                + " by one)",
            rate("GraphReplayCl.chainReplayed"),
            rate("GraphReplayCl.chainLaunched"),
            advantageAtLeast(3, ">= 3x launched")));
    rows.add(
        new Row(
            "opencl: graph replay, one-kernel graph, launch to end (vs launch + synchronize)",
            time("GraphReplayCl.singleReplayed"),
            time("GraphReplayCl.singleLaunched"),
            none()));
    rows.add(
        new Row(
            "opencl: record + block + record, host round trip (vs raw marker/barrier/marker)",
            time("EventHop.recordBlockRecord"),
            time("EventHop.rawMarkerBarrierMarker"),
            advantageAtLeast(1 / 1.2, "<= 1.2x raw")));
    rows.add(
        new Row(
            "opencl: record + block hop on the device clock (vs raw marker/barrier/marker)",
            meanOfSamples("EventHop.recordBlockRecord", "deviceHopNanosSum"),
            meanOfSamples("EventHop.rawMarkerBarrierMarker", "deviceHopNanosSum"),
            advantageAtLeast(1 / 1.5, "<= 1.5x raw")));
    rows.add(
        new Row(
            "opencl: record + block hop on the device clock (vs raw, plus a completion callback on"
                + " A's marker)",
            meanOfSamples("EventHop.recordBlockRecord", "deviceHopNanosSum"),
            meanOfSamples("EventHop.rawMarkerCallbackBarrierMarker", "deviceHopNanosSum"),
            none()));
    rows.add(
        new Row(
            "opencl: record, completion() delivered (vs raw marker + clSetEventCallback)",
            time("EventCallback.recordThenCompletion"),
            time("EventCallback.rawMarkerCallback"),
            none()));
    rows.add(
        new Row(
            "opencl: empty kernel + record, completion() delivered (vs raw kernel + marker +"
                + " clSetEventCallback)",
            time("EventCallback.kernelRecordThenCompletion"),
            time("EventCallback.rawKernelMarkerCallback"),
            advantageAtLeast(1 / 1.2, "<= 1.2x raw")));
    rows.add(
        new Row(
            "opencl: SGEMM 1024 (vs blocked single-thread Java)",
            flops("SgemmGflops.openAccelSgemm", SGEMM_1024_FLOP),
            flops("SgemmGflops.javaBlocked", SGEMM_1024_FLOP),
            advantageAtLeast(1.5, ">= 1.5x Java")));
    rows.add(
        new Row(
            "opencl: SGEMM 1024 (vs the same kernel on a raw queue)",
            flops("SgemmGflops.openAccelSgemm", SGEMM_1024_FLOP),
            flops("SgemmGflops.rawSgemm", SGEMM_1024_FLOP),
            advantageAtLeast(0.95, ">= 0.95x raw")));
    for (int n : new int[] {4096, 1048576}) {
      rows.add(
          new Row(
              "opencl: SAXPY of " + n + " floats + synchronize, checked kernel (vs unchecked)",
              rate("CheckedSaxpy.checkedSaxpy").with("n", n),
              rate("CheckedSaxpy.uncheckedSaxpy").with("n", n),
              none()));
    }
  }
}
