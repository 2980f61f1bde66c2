package dev.openaccel.openreg;

import dev.openaccel.runtime.spi.LaunchModel;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * OpenReg's simulated kernel launch latency: none by default, or a fixed delay plus uniform jitter,
 * so that tests can shake out ordering bugs that only show when kernels take varying time.
 */
final class LatencyModel {
  private LatencyModel() {}

  /** The model for {@code settings}: {@link LaunchModel#immediate()} when both delays are zero. */
  static LaunchModel of(OpenRegSettings settings) {
    long fixed = settings.launchLatency().toNanos();
    long jitter = settings.launchJitter().toNanos();
    if (fixed == 0 && jitter == 0) {
      return LaunchModel.immediate();
    }
    return jitter == 0 ? deviceIndex -> fixed : new Jittered(fixed, jitter, settings.seed());
  }

  /**
   * A fixed delay plus uniform jitter; one random source per device thread, seeded from the
   * settings.
   */
  private static final class Jittered implements LaunchModel {
    private final long fixed;
    private final long jitter;
    private final AtomicLong streams;
    private final ThreadLocal<SplittableRandom> random;

    Jittered(long fixed, long jitter, long seed) {
      this.fixed = fixed;
      this.jitter = jitter;
      this.streams = new AtomicLong(seed);
      this.random = ThreadLocal.withInitial(() -> new SplittableRandom(streams.getAndIncrement()));
    }

    @Override
    public long delayNanos(int deviceIndex) {
      return fixed + random.get().nextLong(jitter + 1);
    }

    @Override
    public String toString() {
      return "Jittered(" + Duration.ofNanos(fixed) + " + U[0, " + Duration.ofNanos(jitter) + "])";
    }
  }
}
