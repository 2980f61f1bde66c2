package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceExecutionException;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.actor.EventSignal;
import dev.openaccel.runtime.trace.TraceEvent;
import java.time.Duration;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * An actor on another node can subscribe to an event or to the trace bus: what it receives crosses
 * the network serialized (an event signal by its own serializer, a failure's cause as a
 * description; trace events as Jackson CBOR). The subscriber's reference reaches the owner as
 * another node would send it, in its serialized form, so that messages to it really travel.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RemoteSubscriberTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private TestCluster cluster;

  @BeforeAll
  void start() {
    cluster = TestCluster.start(2);
  }

  @AfterAll
  void stop() {
    cluster.close();
  }

  /** {@code ref}, an actor of node 1, as node 0 knows it once node 1 sent it over. */
  private <T> ActorRef<T> asSeenByNode0(ActorRef<T> ref) {
    return ActorRefResolver.get(cluster.system(0))
        .resolveActorRef(ActorRefResolver.get(cluster.system(1)).toSerializationFormat(ref));
  }

  @Test
  void anEventSignalReachesASubscriberOnAnotherNode() {
    Accelerator owner = cluster.node(0).accelerator();
    Event event = owner.newEvent();
    event.record(owner.newStream(owner.currentDevice()));
    assertTrue(event.synchronize(WAIT));
    TestProbe<EventSignal> probe = TestProbe.create(cluster.system(1));
    event.subscribe(asSeenByNode0(probe.getRef()));
    EventSignal.Completed done = probe.expectMessageClass(EventSignal.Completed.class, WAIT);
    assertEquals(event.id(), done.eventId());
    assertEquals(1, done.generation());
  }

  @Test
  void aFailedRecordReachesASubscriberOnAnotherNodeWithItsCauseDescribed() {
    Accelerator owner = cluster.node(0).accelerator();
    Stream stream = owner.newStream(owner.currentDevice());
    stream.launch(
        "boom",
        () -> {
          throw new IllegalStateException("boom");
        });
    Event event = stream.recordEvent();
    TestProbe<EventSignal> probe = TestProbe.create(cluster.system(1));
    event.subscribe(asSeenByNode0(probe.getRef()));
    EventSignal.Failed failed = probe.expectMessageClass(EventSignal.Failed.class, WAIT);
    assertEquals(event.id(), failed.eventId());
    assertInstanceOf(DeviceExecutionException.class, failed.cause());
    String why = failed.cause().getMessage();
    assertTrue(why.contains("boom") && why.contains(cluster.node(0).selfNode()), why);
  }

  @Test
  void traceEventsReachASubscriberOnAnotherNode() {
    Accelerator owner = cluster.node(0).accelerator();
    TestProbe<TraceEvent> probe = TestProbe.create(cluster.system(1));
    ActorRef<TraceEvent> remote = asSeenByNode0(probe.getRef());
    owner.trace().subscribe(remote);
    try {
      Stream stream = owner.newStream(owner.currentDevice());
      TraceEvent.StreamCreated created =
          probe.expectMessageClass(TraceEvent.StreamCreated.class, WAIT);
      assertEquals(stream.id(), created.streamId());
      assertEquals(stream.device(), created.device());
    } finally {
      owner.trace().unsubscribe(remote);
    }
  }
}
