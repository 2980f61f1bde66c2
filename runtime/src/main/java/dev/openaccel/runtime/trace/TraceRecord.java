package dev.openaccel.runtime.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A {@link TraceEvent} as a JDK Flight Recorder event, so JDK Mission Control shows the runtime's
 * work.
 */
@Name("dev.openaccel.Trace")
@Label("OpenAccel Trace")
@Category({"OpenAccel"})
@Description("Device, stream, event, kernel, memory and collective activity of OpenAccel")
@StackTrace(false)
final class TraceRecord extends Event {
  @Label("Kind")
  String kind;

  @Label("Device")
  String device;

  @Label("Details")
  String details;

  @Label("Device Clock (ns)")
  long deviceNanos;

  static boolean typeEnabled() {
    return EventType.getEventType(TraceRecord.class).isEnabled();
  }

  static void commit(TraceEvent event) {
    TraceRecord record = new TraceRecord();
    record.kind = event.getClass().getSimpleName();
    record.device = event.device().toString();
    record.details = event.toString();
    record.deviceNanos = event.atNanos();
    record.commit();
  }
}
