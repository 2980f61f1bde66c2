package dev.openaccel.runtime.internal.engine;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** {@link IdleMeter}'s counts as a periodic JDK Flight Recorder event, one per device. Internal. */
@Name("dev.openaccel.IdleWait")
@Label("OpenAccel Idle Wait")
@Category({"OpenAccel"})
@Description("CPU a device's idle threads burned polling for work, by wait strategy, per period")
@StackTrace(false)
@Period("1 s")
final class IdleWaitRecord extends Event {
  @Label("Device")
  String device;

  @Label("Wait Strategy")
  String strategy;

  @Label("Idle CPU Spent Polling")
  @Timespan(Timespan.NANOSECONDS)
  long spunNanos;

  @Label("Tasks Found While Polling")
  long spinWakeUps;

  @Label("Parks")
  long parks;
}
