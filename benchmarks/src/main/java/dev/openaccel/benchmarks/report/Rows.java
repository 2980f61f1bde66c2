package dev.openaccel.benchmarks.report;

import static dev.openaccel.benchmarks.report.Measure.bandwidth;
import static dev.openaccel.benchmarks.report.Measure.maxOfIterations;
import static dev.openaccel.benchmarks.report.Measure.meanOfSamples;
import static dev.openaccel.benchmarks.report.Measure.perItem;
import static dev.openaccel.benchmarks.report.Measure.perIteration;
import static dev.openaccel.benchmarks.report.Measure.rate;
import static dev.openaccel.benchmarks.report.Measure.time;
import static dev.openaccel.benchmarks.report.Target.advantageAtLeast;
import static dev.openaccel.benchmarks.report.Target.atLeast;
import static dev.openaccel.benchmarks.report.Target.atMost;
import static dev.openaccel.benchmarks.report.Target.completes;
import static dev.openaccel.benchmarks.report.Target.none;

import dev.openaccel.benchmarks.memory.RoundTrip;
import java.util.ArrayList;
import java.util.List;

/** The results table: one row per comparison, with the project's performance targets. */
final class Rows {
  private static final String GIB_HEAP = "fits in a 1 GiB heap";

  private Rows() {}

  static List<Row> all() {
    List<Row> rows = new ArrayList<>();
    rows.add(
        new Row(
            "empty kernels, one stream (vs Pekko tell to one actor)",
            rate("EmptyKernels.streamLaunch"),
            rate("EmptyKernels.pekkoTell"),
            atLeast(12e6, ">= 12 M/s").and(advantageAtLeast(0.7, ">= 0.7x tell"))));
    rows.add(
        new Row(
            "empty kernels, one stream (vs Pekko tell, 64 messages per turn)",
            rate("EmptyKernels.streamLaunch"),
            rate("EmptyKernels.pekkoTellThroughput64"),
            none()));
    rows.add(
        new Row(
            "empty kernels, one stream, queue bound not reached (vs no bound)",
            rate("QueueBoundCost.boundNotReached"),
            rate("QueueBoundCost.noBound"),
            advantageAtLeast(0.95, ">= 0.95x no bound")));
    rows.add(
        new Row(
            "graph replay: a chain of 100 empty kernels, per kernel (vs launched one by one)",
            rate("GraphReplay.chainReplayed"),
            rate("GraphReplay.chainLaunched"),
            advantageAtLeast(3, ">= 3x launched")));
    rows.add(
        new Row(
            "graph replay: one-kernel graph, launch to end (vs launch + synchronize)",
            time("GraphReplay.singleReplayed"),
            time("GraphReplay.singleLaunched"),
            none()));
    rows.add(
        new Row(
            "sanitizer on: buffer hand-off across streams by events (vs sanitizer off)",
            rate("SanitizerCost.handOff").with("sanitizer", "throw"),
            rate("SanitizerCost.handOff").with("sanitizer", "off"),
            advantageAtLeast(1.0 / 3, ">= 1/3x off")));
    rows.add(
        new Row(
            "sanitizer on: empty kernels, one stream (vs sanitizer off)",
            rate("SanitizerCost.emptyKernels").with("sanitizer", "throw"),
            rate("SanitizerCost.emptyKernels").with("sanitizer", "off"),
            advantageAtLeast(1.0 / 3, ">= 1/3x off")));
    rows.add(
        new Row(
            "empty kernels, one stream (vs single-thread executor)",
            rate("EmptyKernels.streamLaunch"),
            rate("EmptyKernels.singleThreadExecutor"),
            advantageAtLeast(2, ">= 2x executor")));
    rows.add(
        new Row(
            "Event.query(), completed (vs AtomicLong.get)",
            time("CompletedEvent.eventQuery"),
            time("CompletedEvent.atomicLongRead"),
            atMost(2, "<= 2 ns").and(advantageAtLeast(0.5, "<= 2x volatile read"))));
    rows.add(
        new Row(
            "Event.synchronize(), completed (vs completed CompletableFuture.join)",
            time("CompletedEvent.eventSynchronize"),
            time("CompletedEvent.completedFutureJoin"),
            atMost(20, "<= 20 ns")));
    rows.add(
        new Row(
            "Event.synchronize(), completed (vs AtomicLong.get)",
            time("CompletedEvent.eventSynchronize"),
            time("CompletedEvent.atomicLongRead"),
            advantageAtLeast(0.5, "<= 2x volatile read")));
    rows.add(
        new Row(
            "fan-out 1 -> 8 -> 1, per iteration (vs CompletableFuture graph)",
            time("FanOutFanIn.streams"),
            time("FanOutFanIn.futures"),
            none()));
    WaitStrategyRows.add(rows);
    addScaleRows(rows);
    addTimingRows(rows);
    addLifecycleRows(rows);
    addMemoryRows(rows);
    OpenClRows.addTo(rows);
    return rows;
  }

  private static void addScaleRows(List<Row> rows) {
    for (int n : new int[] {10_000, 100_000, 1_000_000}) {
      String count = count(n);
      rows.add(
          new Row(
              "create + record " + count + " events, per event (vs completed futures)",
              perItem("EventScale.recordedEvents", n),
              perItem("EventScale.completedFutures", n),
              advantageAtLeast(1 / 1.5, "<= 1.5x future")));
      rows.add(
          new Row(
              "heap per live recorded event, " + count + " (vs completed future)",
              retained("EventScale.recordedEvents", n),
              retained("EventScale.completedFutures", n),
              n == 1_000_000
                  ? atMost(64, "<= 64 B").and(completes(GIB_HEAP))
                  : atMost(64, "<= 64 B")));
    }
    for (int n : new int[] {10_000, 100_000}) {
      String count = count(n);
      rows.add(
          new Row(
              "create " + count + " streams, per stream (vs Pekko actor spawn)",
              perItem("StreamScale.newStreams", n),
              perItem("StreamScale.actorSpawns", n),
              atMost(2_000, "<= 2 µs")));
      rows.add(
          new Row(
              "↳ of which the newStream calls alone (vs the tells)",
              perIteration("StreamScale.newStreams", n, "callNanosPerItem", Quantity.TIME),
              perIteration("StreamScale.actorSpawns", n, "callNanosPerItem", Quantity.TIME),
              none()));
      Target perStream = atMost(2_000, "<= 2 kB");
      rows.add(
          new Row(
              "heap per live idle stream, " + count + " (vs idle Pekko actor)",
              retained("StreamScale.newStreams", n),
              retained("StreamScale.actorSpawns", n),
              n == 100_000 ? perStream.and(completes(GIB_HEAP)) : perStream));
    }
  }

  private static void addTimingRows(List<Row> rows) {
    String both = "ElapsedTimeAccuracy.eventElapsedTimeAndNanoTimeAroundTask";
    rows.add(
        new Row(
            "elapsedTime mean error vs 1 ms, 1 ms kernel (vs nanoTime tasks around it, interleaved)",
            meanOfSamples(both, "errorNanosSum"),
            meanOfSamples(both, "baselineErrorNanosSum"),
            atMost(1_000, "<= 1 µs")));
    rows.add(
        new Row(
            "elapsedTime max error vs 1 ms (vs nanoTime tasks around it)",
            maxOfIterations(both, "errorNanosMax"),
            maxOfIterations(both, "baselineErrorNanosMax"),
            atMost(20_000, "<= 20 µs")));
    rows.add(
        new Row(
            "↳ mean error vs the kernel's own clock",
            meanOfSamples(both, "kernelClockErrorNanosSum"),
            meanOfSamples(both, "baselineKernelClockErrorNanosSum"),
            advantageAtLeast(1, ">= 1x baseline")));
    rows.add(
        new Row(
            "↳ max error vs the kernel's own clock",
            maxOfIterations(both, "kernelClockErrorNanosMax"),
            maxOfIterations(both, "baselineKernelClockErrorNanosMax"),
            none()));
  }

  private static void addLifecycleRows(List<Row> rows) {
    rows.add(
        new Row(
            "event create + close, never recorded (vs new CompletableFuture)",
            time("EventLifecycle.createClose"),
            time("EventLifecycle.newFuture"),
            atMost(20, "<= 20 ns")));
    rows.add(
        new Row(
            "event create + record + close, per event (vs re-recording one event)",
            time("EventLifecycle.createRecordClose"),
            time("EventLifecycle.reRecord"),
            atMost(100, "<= 100 ns")));
    rows.add(
        new Row(
            "fresh stream, newStream, 10 k (vs streamFromPool)",
            perItem("StreamScale.newStreams", 10_000),
            time("StreamLifecycle.streamFromPool"),
            none()));
  }

  private static void addMemoryRows(List<Row> rows) {
    for (int bytes : new int[] {4096, 1 << 20}) {
      String size = bytes == 4096 ? "4 KiB" : "1 MiB";
      rows.add(
          new Row(
              "cached allocate + close, " + size + " (vs ByteBuffer.allocate)",
              time("CachedAllocation.allocateClose").with("bytes", bytes),
              time("CachedAllocation.byteBufferAllocate").with("bytes", bytes),
              none()));
    }
    long moved = 2L * RoundTrip.BYTES;
    rows.add(
        new Row(
            "host -> device -> host, 64 MiB each way (vs 2x System.arraycopy)",
            bandwidth("RoundTrip.hostDeviceHost", moved),
            bandwidth("RoundTrip.arraycopy", moved),
            none()));
  }

  private static Measure retained(String name, int items) {
    return perIteration(name, items, "retainedBytesPerItem", Quantity.BYTES);
  }

  private static String count(int n) {
    return n >= 1_000_000 ? n / 1_000_000 + " M" : n / 1_000 + " k";
  }

  /** Every benchmark the table reads, as {@code Class.method}. */
  static List<String> benchmarkNames() {
    List<String> names = new ArrayList<>();
    for (Row row : all()) {
      for (Measure measure : new Measure[] {row.ours(), row.baseline()}) {
        if (measure != null && !names.contains(measure.name())) {
          names.add(measure.name());
        }
      }
    }
    return names;
  }
}
