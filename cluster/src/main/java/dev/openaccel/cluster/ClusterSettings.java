package dev.openaccel.cluster;

import com.typesafe.config.Config;
import dev.openaccel.runtime.spi.ConfigValues;
import java.time.Duration;

/**
 * The {@code openaccel.cluster} settings, checked once when the extension starts. Internal.
 *
 * @param controlTimeout how long a control request (describe, new stream, record, allocate, free,
 *     pin) may take
 * @param window the bytes of bulk data one node may have in flight to another, unacknowledged
 * @param bulkTimeout how long an announced chunk may be missing while nothing else arrives from its
 *     node before the transfer fails as lost
 */
record ClusterSettings(Duration controlTimeout, long window, Duration bulkTimeout) {
  private static final Duration MIN_TIMEOUT = Duration.ofMillis(1);

  static ClusterSettings from(Config config) {
    long window = ConfigValues.bytesAtLeast(config, "openaccel.cluster.bulk.window", 1);
    int queue = config.getInt("pekko.remote.artery.advanced.outbound-large-message-queue-size");
    long frame = config.getBytes("pekko.remote.artery.advanced.maximum-large-frame-size");
    // The sender sends while less than a window is in flight: up to its chunks, rounded up.
    if (window < NodeCopy.CHUNK || NodeCopy.chunksIn(window) > queue / 2) {
      throw new IllegalArgumentException(
          "openaccel.cluster.bulk.window must hold at least one chunk of "
              + NodeCopy.CHUNK
              + " bytes and at most half of "
              + "pekko.remote.artery.advanced.outbound-large-message-queue-size = "
              + queue
              + " chunks, so that bulk data never overflows Artery's queue, got '"
              + config.getValue("openaccel.cluster.bulk.window").unwrapped()
              + "' ("
              + window
              + " bytes)");
    }
    if (frame < NodeCopy.CHUNK + 4096) {
      throw new IllegalArgumentException(
          "pekko.remote.artery.advanced.maximum-large-frame-size = "
              + frame
              + " bytes cannot carry a chunk of "
              + NodeCopy.CHUNK
              + " bytes");
    }
    return new ClusterSettings(
        ConfigValues.durationAtLeast(config, "openaccel.cluster.control-timeout", MIN_TIMEOUT),
        window,
        ConfigValues.durationAtLeast(config, "openaccel.cluster.bulk.timeout", MIN_TIMEOUT));
  }
}
