package dev.openaccel.runtime.spi;

/**
 * How a device's idle threads wait for their next piece of work (a stream's wake-up, a resumed
 * wait, a device callback): the latency/CPU choice, as the LMAX Disruptor offers it. Chosen per
 * device through {@link EngineSpec.Builder#waitStrategy}.
 *
 * <table>
 *   <caption>The trade-off</caption>
 *   <tr><th>strategy</th><th>wake-up latency</th><th>idle CPU</th></tr>
 *   <tr><td>{@link #BLOCKING}</td><td>an OS wake-up (microseconds)</td><td>none</td></tr>
 *   <tr><td>{@link #YIELDING}</td><td>sub-microsecond for a bounded time after the device went
 *       idle, then as blocking</td><td>one thread per device polls, up to that bound per idle
 *       period, given up to any other runnable thread; the others park</td></tr>
 *   <tr><td>{@link #BUSY_SPIN}</td><td>lowest</td><td>every idle thread holds a whole core, always;
 *       only for cores dedicated to the device</td></tr>
 * </table>
 */
public enum WaitStrategy {
  /** Park until woken: no idle CPU. The default. */
  BLOCKING("blocking"),
  /**
   * One idle thread per device spins, then {@code Thread.yield}s for a bounded time, then parks.
   */
  YIELDING("yielding"),
  /** Spin forever; never parks. */
  BUSY_SPIN("busy-spin");

  private final String configName;

  WaitStrategy(String configName) {
    this.configName = configName;
  }

  /** The name used in configuration: {@code blocking}, {@code yielding} or {@code busy-spin}. */
  public String configName() {
    return configName;
  }

  /**
   * The strategy named {@code value} in configuration.
   *
   * @param key the configuration key the value came from, named in the error
   * @throws IllegalArgumentException naming {@code key}, {@code value} and the known names if
   *     {@code value} names none
   */
  public static WaitStrategy parse(String key, String value) {
    return ConfigChoice.parse(key, value, values());
  }

  @Override
  public String toString() {
    return configName;
  }
}
