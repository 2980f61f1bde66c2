package dev.openaccel.opencl;

import dev.openaccel.runtime.spi.ConfigChoice;
import java.util.Locale;

/**
 * How the end of a command reaches Java ({@code openaccel.opencl.completions}): every record's
 * completion, every synchronize and the caching allocator's reuse wait for it.
 *
 * <ul>
 *   <li>{@code callbacks}: {@code clSetEventCallback}; no thread of ours waits, and the latency is
 *       the platform's (PoCL: microseconds).
 *   <li>{@code waiting-threads}: a thread per watched command blocks in {@code clWaitForEvents},
 *       for platforms whose callbacks come late: on NVIDIA's (H100), a callback arrived 15.6-16.8
 *       ms after its command ended, whatever the command's length, while a blocking wait returned
 *       at once. A stream has a few commands watched at a time, so this costs a thread per stream
 *       with work in flight, and whatever CPU the platform's blocking wait spends: NVIDIA's spins,
 *       using 87-100% of a core for as long as the command runs.
 *   <li>{@code auto}: waiting threads on a platform whose name contains NVIDIA, else callbacks.
 * </ul>
 */
public enum Completions {
  /** {@code auto}: {@link #WAITING_THREADS} on NVIDIA's platform, {@link #CALLBACKS} elsewhere. */
  AUTO("auto"),
  /** {@code callbacks}: the platform calls back when a command ends. */
  CALLBACKS("callbacks"),
  /** {@code waiting-threads}: a thread blocks in {@code clWaitForEvents} per watched command. */
  WAITING_THREADS("waiting-threads");

  private final String configName;

  Completions(String configName) {
    this.configName = configName;
  }

  /** {@link #CALLBACKS} or {@link #WAITING_THREADS} for the platform named {@code platformName}. */
  public Completions on(String platformName) {
    if (this != AUTO) {
      return this;
    }
    return platformName.toUpperCase(Locale.ROOT).contains("NVIDIA") ? WAITING_THREADS : CALLBACKS;
  }

  /**
   * The mode named {@code value}.
   *
   * @throws IllegalArgumentException naming {@code key}, the value and the modes, for another value
   */
  public static Completions parse(String key, String value) {
    return ConfigChoice.parse(key, value, values());
  }

  @Override
  public String toString() {
    return configName;
  }
}
