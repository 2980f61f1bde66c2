package dev.openaccel.cluster;

import com.typesafe.config.Config;
import dev.openaccel.runtime.spi.ConfigValues;
import java.time.Duration;

/**
 * The {@code openaccel.cluster.collectives} settings, checked once when the extension starts.
 * Internal.
 *
 * @param joinTimeout how long creating a process group waits for every member to join
 * @param chunk the size of the pieces the collectives cut their transfers into
 * @param opTimeout how long an operation may run on a member, once its stream reached it
 * @param smallLimit the largest all-reduce, in bytes, that runs as a direct exchange instead of the
 *     ring (0: none does)
 */
record CollectiveSettings(Duration joinTimeout, int chunk, Duration opTimeout, long smallLimit) {
  static final String JOIN_TIMEOUT = "openaccel.cluster.collectives.join-timeout";
  static final String OP_TIMEOUT = "openaccel.cluster.collectives.op-timeout";
  static final String CHUNK = "openaccel.cluster.collectives.chunk";
  static final String SMALL_LIMIT = "openaccel.cluster.collectives.small-limit";
  static final int MIN_CHUNK = 1024;

  static CollectiveSettings from(Config config) {
    Duration join = ConfigValues.durationAtLeast(config, JOIN_TIMEOUT, Duration.ofMillis(1));
    Duration op = ConfigValues.durationAtLeast(config, OP_TIMEOUT, Duration.ofMillis(1));
    long chunk = ConfigValues.bytesAtLeast(config, CHUNK, MIN_CHUNK);
    if (chunk > NodeCopy.CHUNK || chunk % 8 != 0) {
      throw ConfigValues.invalid(
          config,
          CHUNK,
          "a multiple of 8 bytes from "
              + MIN_CHUNK
              + " to the bulk lane's chunk of "
              + NodeCopy.CHUNK
              + " bytes");
    }
    long smallLimit = ConfigValues.bytesAtLeast(config, SMALL_LIMIT, 0);
    return new CollectiveSettings(join, (int) chunk, op, smallLimit);
  }

  /** These settings with {@code smallLimit} instead: measurements force one algorithm or other. */
  CollectiveSettings withSmallLimit(long smallLimit) {
    return new CollectiveSettings(joinTimeout, chunk, opTimeout, smallLimit);
  }
}
