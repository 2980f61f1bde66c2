package dev.openaccel.cluster.sample;

import dev.openaccel.cluster.KernelRegistry;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The pipeline's kernels, registered under the same names on every node, and the per-stream
 * counters (kernels run, busy nanoseconds) of this node that the "stats" kernel reports.
 */
public final class PipelineKernels {
  /** Rounds of the transform: the compute load of the middle stage. */
  static final int ROUNDS = 24;

  private static final long MODULUS = 1_000_003;
  private final Map<Long, AtomicLongArray> perStream = new ConcurrentHashMap<>();

  public void registerOn(KernelRegistry kernels) {
    // args: the batch number; buffer 0: longs, filled deterministically from batch and position.
    kernels.register(
        "generate",
        (context, args) ->
            timed(
                context.stream().id(),
                () -> {
                  long batch = ByteBuffer.wrap(args).getLong();
                  ByteBuffer out = context.buffer(0);
                  for (int i = 0; i < out.limit() / 8; i++) {
                    out.putLong(8 * i, generate(batch, i));
                  }
                }));
    kernels.register(
        "transform",
        (context, args) ->
            timed(
                context.stream().id(),
                () -> {
                  ByteBuffer data = context.buffer(0);
                  for (int i = 0; i < data.limit() / 8; i++) {
                    data.putLong(8 * i, transform(data.getLong(8 * i)));
                  }
                }));
    // buffer 0: the batch's longs; buffer 1: one long, their sum.
    kernels.register(
        "reduce",
        (context, args) ->
            timed(
                context.stream().id(),
                () -> {
                  ByteBuffer data = context.buffer(0);
                  long sum = 0;
                  for (int i = 0; i < data.limit() / 8; i++) {
                    sum += data.getLong(8 * i);
                  }
                  context.buffer(1).putLong(0, sum);
                }));
    // buffer 0: two longs, this stream's kernel count and busy nanoseconds.
    kernels.register(
        "stats",
        (context, args) -> {
          AtomicLongArray counters = counters(context.stream().id());
          context.buffer(0).putLong(0, counters.get(0)).putLong(8, counters.get(1));
        });
  }

  static long generate(long batch, int i) {
    return (batch * 7919 + i * 104_729L) % MODULUS;
  }

  static long transform(long value) {
    long x = value;
    for (int r = 0; r < ROUNDS; r++) {
      x = (x * x + r) % MODULUS;
    }
    return x;
  }

  /** The sum the pipeline computes for {@code batch}, computed on the host. */
  static long expected(long batch, int longs) {
    long sum = 0;
    for (int i = 0; i < longs; i++) {
      sum += transform(generate(batch, i));
    }
    return sum;
  }

  private AtomicLongArray counters(long streamId) {
    return perStream.computeIfAbsent(streamId, id -> new AtomicLongArray(2));
  }

  private void timed(long streamId, Runnable body) {
    long start = System.nanoTime();
    body.run();
    AtomicLongArray counters = counters(streamId);
    counters.incrementAndGet(0);
    counters.addAndGet(1, System.nanoTime() - start);
  }
}
