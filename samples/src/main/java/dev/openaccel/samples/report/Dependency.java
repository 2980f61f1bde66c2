package dev.openaccel.samples.report;

/**
 * One record -> wait edge the trace bus reported: a stream waited for record {@code generation} of
 * event {@code eventId}, which another stream recorded.
 *
 * @param eventId the event
 * @param generation the record waited for
 * @param recordDevice the recording stream's device index
 * @param recordStream the recording stream's id
 * @param waitDevice the waiting stream's device index
 * @param waitStream the waiting stream's id
 */
public record Dependency(
    long eventId,
    long generation,
    int recordDevice,
    long recordStream,
    int waitDevice,
    long waitStream) {}
