package dev.openaccel.openreg.sanitizer;

import static dev.openaccel.openreg.sanitizer.SanitizerFixture.assertRace;
import static dev.openaccel.openreg.sanitizer.SanitizerFixture.kernel;
import static dev.openaccel.openreg.sanitizer.SanitizerFixture.read;
import static dev.openaccel.openreg.sanitizer.SanitizerFixture.write;
import static dev.openaccel.openreg.testing.KernelLatches.D0;
import static dev.openaccel.openreg.testing.KernelLatches.get;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.UnsynchronizedAccessException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The stream sanitizer in {@code throw} mode on OpenReg: a catalogue of racy programs, each refused
 * at its racing call with an {@link UnsynchronizedAccessException} naming both accesses, the buffer
 * and the missing wait; and of correct programs with tricky synchronization, none of them flagged.
 */
class SanitizerCatalogueTest {
  private static Accelerator acc;
  private SanitizerFixture fixture;

  @BeforeAll
  static void start() {
    acc =
        Accelerator.start(
            ConfigFactory.parseString(
                "openaccel.system-name = sanitizer-throw\nopenaccel.sanitizer = throw"));
  }

  @AfterAll
  static void stop() {
    acc.close();
  }

  @AfterEach
  void closeBuffers() {
    fixture().closeAll();
  }

  private SanitizerFixture fixture() {
    if (fixture == null) {
      fixture = new SanitizerFixture(acc);
    }
    return fixture;
  }

  private DeviceBuffer buffer() {
    return fixture().buffer();
  }

  // ---- racy programs ----

  @Test
  void kernelAfterACopyOfAnotherStreamRacesAndIsNotEnqueued() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    write(a, buf);
    AtomicBoolean ran = new AtomicBoolean();
    assertRace(
        () -> b.launch("scale", context -> ran.set(true), buf),
        b,
        "kernel 'scale'",
        a,
        "copyToDevice",
        buf);
    b.synchronize();
    assertFalse(ran.get(), "the racing kernel was enqueued");
    b.waitStream(a); // the stream stays usable: with the wait, the same kernel passes
    b.launch("scale", context -> ran.set(true), buf);
    b.synchronize();
    assertTrue(ran.get());
  }

  @Test
  void readingOnAnotherStreamWhatACopyWroteRaces() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    write(a, buf);
    assertRace(() -> read(b, buf), b, "copyToHost", a, "copyToDevice", buf);
  }

  @Test
  void copyingFromWhatAKernelOfAnotherStreamWritesRaces() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer src = buffer();
    DeviceBuffer dst = buffer();
    kernel(a, "fill", src);
    assertRace(() -> b.copy(src, dst), b, "copy", a, "kernel 'fill'", src);
  }

  @Test
  void overwritingWhatAnotherStreamStillReadsRaces() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    read(a, buf);
    assertRace(() -> write(b, buf), b, "copyToDevice", a, "copyToHost", buf);
  }

  @Test
  void aKernelOnTheTargetOfAnotherStreamsCopyRaces() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer src = buffer();
    DeviceBuffer dst = buffer();
    a.copy(src, dst);
    assertRace(() -> kernel(b, "use", dst), b, "kernel 'use'", a, "copy", dst);
  }

  @Test
  void twoKernelsWritingOneBufferOnTwoStreamsRace() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    kernel(a, "left", buf);
    assertRace(() -> kernel(b, "right", buf), b, "kernel 'right'", a, "kernel 'left'", buf);
  }

  @Test
  void anEventRecordedBeforeTheWriteOrdersNothingAfterIt() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    Event early = a.recordEvent();
    write(a, buf);
    b.waitEvent(early);
    assertRace(() -> read(b, buf), b, "copyToHost", a, "copyToDevice", buf);
  }

  @Test
  void aWaitCapturesTheRecordOfItsCallNotALaterReRecord() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    write(a, buf);
    Event e = a.recordEvent();
    b.waitEvent(e);
    kernel(a, "second", buf);
    e.record(a); // too late: b waits for the first record only
    assertRace(() -> read(b, buf), b, "copyToHost", a, "kernel 'second'", buf);
  }

  @Test
  void waitStreamTheWrongWayRoundOrdersNothing() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    write(a, buf);
    a.waitStream(b);
    assertRace(() -> read(b, buf), b, "copyToHost", a, "copyToDevice", buf);
  }

  @Test
  void waitStreamBeforeTheWriteOrdersNothingAfterIt() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    b.waitStream(a);
    write(a, buf);
    assertRace(() -> kernel(b, "late", buf), b, "kernel 'late'", a, "copyToDevice", buf);
  }

  @Test
  void synchronizingAnUnrelatedStreamOrdersNothing() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    Stream c = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    write(a, buf);
    c.synchronize();
    assertRace(() -> read(b, buf), b, "copyToHost", a, "copyToDevice", buf);
  }

  @Test
  void synchronizingAnEventRecordedBeforeTheWriteOrdersNothingAfterIt() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    Event early = a.recordEvent();
    kernel(a, "produce", buf);
    early.synchronize();
    assertRace(() -> read(b, buf), b, "copyToHost", a, "kernel 'produce'", buf);
  }

  @Test
  void aWriterOrderedAfterTheFirstWriterButNotAfterAReaderRaces() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    Stream c = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    write(a, buf);
    Event written = a.recordEvent();
    b.waitEvent(written);
    read(b, buf);
    c.waitEvent(written); // after the write, not after b's read
    assertRace(() -> write(c, buf), c, "copyToDevice", b, "copyToHost", buf);
  }

  @Test
  void theRacingBufferOfAKernelIsTheOneNamed() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer clean = buffer();
    DeviceBuffer shared = buffer();
    write(a, shared);
    UnsynchronizedAccessException e =
        assertRace(
            () -> kernel(b, "pair", clean, shared), b, "kernel 'pair'", a, "copyToDevice", shared);
    assertFalse(e.getMessage().contains(clean.toString()), e.getMessage());
  }

  @Test
  void aPooledStreamAndANewStreamRaceLikeAnyTwo() {
    Stream pooled = acc.streamFromPool(D0, false);
    Stream fresh = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    kernel(fresh, "init", buf);
    assertRace(() -> read(pooled, buf), pooled, "copyToHost", fresh, "kernel 'init'", buf);
  }

  @Test
  void theDefaultStreamIsNotOrderedWithOtherStreams() {
    Stream main = acc.defaultStream(D0);
    Stream side = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    write(side, buf);
    assertRace(
        () -> kernel(main, "consume", buf), main, "kernel 'consume'", side, "copyToDevice", buf);
  }

  @Test
  void closingABufferAnotherStreamMayStillUseWithoutRecordStreamIsRefused() {
    Stream a = acc.newStream(D0);
    DeviceBuffer buf = acc.allocate(D0, SanitizerFixture.SIZE); // on the default stream
    kernel(a, "use", buf);
    UnsynchronizedAccessException e = assertThrows(UnsynchronizedAccessException.class, buf::close);
    String message = e.getMessage();
    assertTrue(message.startsWith("unsynchronized close of " + buf), message);
    assertTrue(message.contains("allocated on " + acc.defaultStream(D0)), message);
    assertTrue(message.contains("kernel 'use' (write) at position 1 of " + a), message);
    assertTrue(message.contains("call recordStream(" + a + ") on the buffer"), message);
    buf.recordStream(a); // the buffer stayed open
    buf.close();
  }

  // ---- correct programs ----

  @Test
  void copiesAndKernelsChainedOnOneStreamAreOrdered() {
    Stream a = acc.newStream(D0);
    DeviceBuffer src = buffer();
    DeviceBuffer dst = buffer();
    assertDoesNotThrow(
        () -> {
          write(a, src);
          kernel(a, "scale", src);
          a.copy(src, dst);
          kernel(a, "both", src, dst);
          read(a, dst);
          a.synchronize();
        });
  }

  @Test
  void anEventRecordedAfterTheWriteOrdersAnotherStreamsRead() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    write(a, buf);
    b.waitEvent(a.recordEvent());
    assertDoesNotThrow(() -> read(b, buf));
  }

  @Test
  void aReRecordedEventOrdersAfterItsLatestRecord() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    write(a, buf);
    Event e = a.recordEvent();
    kernel(a, "again", buf);
    e.record(a);
    b.waitEvent(e);
    assertDoesNotThrow(() -> kernel(b, "after", buf));
  }

  @Test
  void aWaitOnAnOldRecordStillCoversWhatCameBeforeIt() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    DeviceBuffer other = buffer();
    write(a, buf);
    Event e = a.recordEvent();
    b.waitEvent(e);
    write(a, other);
    e.record(a); // b keeps waiting for the first record, which covers buf
    assertDoesNotThrow(() -> read(b, buf));
  }

  @Test
  void waitStreamOrdersEverythingEnqueuedBeforeIt() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    kernel(a, "produce", buf);
    b.waitStream(a);
    assertDoesNotThrow(() -> write(b, buf));
  }

  @Test
  void recordStreamThenCloseIsAccepted() {
    Stream a = acc.newStream(D0);
    DeviceBuffer buf = acc.allocate(D0, SanitizerFixture.SIZE);
    kernel(a, "use", buf);
    buf.recordStream(a);
    assertDoesNotThrow(buf::close);
  }

  @Test
  void closeAfterTheAllocationStreamWaitedForTheUserIsAccepted() {
    Stream a = acc.newStream(D0);
    DeviceBuffer buf = acc.allocate(D0, SanitizerFixture.SIZE);
    kernel(a, "use", buf);
    acc.defaultStream(D0).waitStream(a);
    assertDoesNotThrow(buf::close);
  }

  @Test
  void closeAfterTheHostSynchronizedTheUserIsAccepted() {
    Stream a = acc.newStream(D0);
    DeviceBuffer buf = acc.allocate(D0, SanitizerFixture.SIZE);
    read(a, buf);
    a.synchronize();
    assertDoesNotThrow(buf::close);
  }

  @Test
  void aStreamSynchronizeOrdersLaterWorkOfEveryStream() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    write(a, buf);
    a.synchronize();
    assertDoesNotThrow(() -> kernel(b, "after-sync", buf));
  }

  @Test
  void aDeviceSynchronizeOrdersStreamsCreatedAfterIt() {
    Stream a = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    kernel(a, "before", buf);
    acc.synchronize(D0);
    Stream later = acc.newStream(D0);
    assertDoesNotThrow(() -> write(later, buf));
  }

  @Test
  void anEventSynchronizeOrdersWhatItsRecordCovers() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    write(a, buf);
    a.recordEvent().synchronize();
    assertDoesNotThrow(() -> read(b, buf));
  }

  @Test
  void aRecordOnAnIdleStreamStillCarriesItsOrder() throws Exception {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    write(a, buf);
    get(a.submit("drain", () -> Boolean.TRUE)); // a is idle: its next record completes at once
    Event e = a.recordEvent();
    b.waitEvent(e);
    assertDoesNotThrow(() -> read(b, buf));
  }

  @Test
  void orderIsTransitiveAcrossThreeStreams() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    Stream c = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    write(a, buf);
    b.waitEvent(a.recordEvent());
    read(b, buf);
    c.waitEvent(b.recordEvent());
    assertDoesNotThrow(() -> write(c, buf));
  }

  @Test
  void readersOnManyStreamsDoNotConflictAndAWriterWaitingForAllIsOrdered() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    Stream c = acc.newStream(D0);
    Stream d = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    write(a, buf);
    Event written = a.recordEvent();
    b.waitEvent(written);
    c.waitEvent(written);
    assertDoesNotThrow(
        () -> {
          read(b, buf);
          read(c, buf);
        });
    d.waitStream(b);
    d.waitEvent(c.recordEvent());
    assertDoesNotThrow(() -> kernel(d, "rewrite", buf));
  }

  @Test
  void differentBuffersOnDifferentStreamsNeedNoSynchronization() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer left = buffer();
    DeviceBuffer right = buffer();
    assertDoesNotThrow(
        () -> {
          kernel(a, "left", left);
          kernel(b, "right", right);
          write(a, left);
          read(b, right);
        });
  }

  @Test
  void aCopyChainHandedBackAndForthBetweenStreamsIsOrdered() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    DeviceBuffer first = buffer();
    DeviceBuffer second = buffer();
    ByteBuffer result = ByteBuffer.allocate(SanitizerFixture.SIZE);
    assertDoesNotThrow(
        () -> {
          write(a, first);
          b.waitStream(a);
          b.copy(first, second);
          a.waitStream(b);
          a.copyToHost(second, result);
          kernel(a, "reuse", first);
        });
  }

  @Test
  void theHostOrderSurvivesLaterWaitsAndRecords() {
    Stream a = acc.newStream(D0);
    Stream b = acc.newStream(D0);
    Stream c = acc.newStream(D0);
    DeviceBuffer buf = buffer();
    write(a, buf);
    acc.synchronize(D0);
    b.waitStream(c); // unrelated waits keep what the host made b ordered after
    c.waitEvent(b.recordEvent());
    assertDoesNotThrow(() -> kernel(c, "after-device-sync", buf));
  }
}
