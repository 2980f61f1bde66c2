package dev.openaccel.runtime.internal.engine;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.spi.WaitStrategy;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the idle threads of one device burned while waiting for work: the cost side of its {@link
 * WaitStrategy}, reported as the periodic JFR event {@code dev.openaccel.IdleWait}. Internal.
 *
 * <p>Owns: three counters, added to by the device's threads (thread-safe adders) and read by the
 * JFR hook, which reports the difference since its last reading ({@code reported*}, written only by
 * that hook, under this object's monitor).
 */
final class IdleMeter {
  private final Device device;
  private final WaitStrategy strategy;
  private final LongAdder spunNanos = new LongAdder();
  private final LongAdder spinWakeUps = new LongAdder();
  private final LongAdder parks = new LongAdder();
  private long reportedNanos; // guarded by this
  private long reportedWakeUps; // guarded by this
  private long reportedParks; // guarded by this

  IdleMeter(Device device, WaitStrategy strategy) {
    this.device = device;
    this.strategy = strategy;
  }

  WaitStrategy strategy() {
    return strategy;
  }

  /** A thread polled for {@code nanos} without parking; {@code found}: a task ended the spin. */
  void spun(long nanos, boolean found) {
    spunNanos.add(nanos);
    if (found) {
      spinWakeUps.increment();
    }
  }

  /** A thread parks: its next task needs an OS wake-up. */
  void parked() {
    parks.increment();
  }

  /** Nanoseconds of CPU the device's threads have spent polling for work so far. */
  long spunNanos() {
    return spunNanos.sum();
  }

  /** Commits the counts since the last call as one JFR event. */
  synchronized void report() {
    long nanos = spunNanos.sum();
    long wakeUps = spinWakeUps.sum();
    long parked = parks.sum();
    IdleWaitRecord record = new IdleWaitRecord();
    record.device = device.toString();
    record.strategy = strategy.configName();
    record.spunNanos = nanos - reportedNanos;
    record.spinWakeUps = wakeUps - reportedWakeUps;
    record.parks = parked - reportedParks;
    record.commit();
    reportedNanos = nanos;
    reportedWakeUps = wakeUps;
    reportedParks = parked;
  }
}
