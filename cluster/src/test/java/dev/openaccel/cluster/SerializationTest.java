package dev.openaccel.cluster;

import static dev.openaccel.cluster.TestKernels.intArg;
import static dev.openaccel.cluster.TestKernels.intAt;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventHandle;
import dev.openaccel.runtime.trace.TraceEvent;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.Serializers;
import org.apache.pekko.serialization.jackson.JacksonCborSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Messages between nodes are Jackson CBOR through the {@link ClusterMessage} marker (trace events
 * through their own binding), Java serialization is off, and everything runs with {@code
 * serialize-messages = on}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SerializationTest {
  private static final Device DEVICE = Device.of(DeviceType.of("openreg"), 1);
  private TestCluster cluster;
  private Serialization serialization;
  private ActorRef<GatewayProtocol.Reply> replyTo;

  @BeforeAll
  void start() {
    cluster = TestCluster.start(2, "pekko.actor.serialize-messages = on");
    serialization = SerializationExtension.get(Adapter.toClassic(cluster.system(0)));
    replyTo = TestProbe.<GatewayProtocol.Reply>create(cluster.system(0)).getRef();
  }

  @AfterAll
  void stop() {
    cluster.close();
  }

  private Object roundTrip(Object message) {
    Serializer serializer = serialization.findSerializerFor(message);
    assertInstanceOf(JacksonCborSerializer.class, serializer, message.getClass().getName());
    byte[] bytes = serialization.serialize(message).get();
    String manifest = Serializers.manifestFor(serializer, message);
    return serialization.deserialize(bytes, serializer.identifier(), manifest).get();
  }

  @Test
  void requestsAndRepliesRoundTripAsJacksonCbor() {
    String node = cluster.node(1).selfNode();
    EventHandle handle = new EventHandle(DEVICE.type(), 1, 42, node);
    RemoteBuffer buffer = new RemoteBuffer(node, DEVICE, 7, 64);
    List<Object> messages =
        List.of(
            new GatewayProtocol.Describe(1, replyTo),
            new GatewayProtocol.NewStream(2, DEVICE, 1, replyTo),
            new GatewayProtocol.Record(3, DEVICE, 65, 0, replyTo),
            new GatewayProtocol.Pin(3, handle, 5, node, replyTo),
            new GatewayProtocol.AwaitPin(3, node, 5, replyTo),
            new GatewayProtocol.Wait(DEVICE, 65, handle, node, 5, replyTo),
            new GatewayProtocol.CloseEvent(3, 42, replyTo),
            new GatewayProtocol.Synchronize(4, DEVICE, 65, replyTo),
            new GatewayProtocol.Allocate(5, DEVICE, 64, replyTo),
            new GatewayProtocol.Free(5, 7, replyTo),
            new GatewayProtocol.Write(DEVICE, 65, 7, 11, 64, replyTo),
            new GatewayProtocol.Read(6, DEVICE, 65, 7, 0, 64, -12, replyTo),
            new GatewayProtocol.Copy(DEVICE, 65, buffer, buffer, replyTo),
            new GatewayProtocol.Fetch(8, 7, 0, 64, -13, replyTo),
            new GatewayProtocol.Store(8, 7, 14, 64, replyTo),
            new GatewayProtocol.Latest(9, handle, true, replyTo),
            new GatewayProtocol.Fence(9, replyTo),
            handle,
            buffer,
            new RemoteDevice(node, DEVICE),
            DEVICE,
            DEVICE.type(),
            new GatewayProtocol.Described(1, node, List.of(DEVICE)),
            new GatewayProtocol.StreamCreated(2, 65),
            new GatewayProtocol.Recorded(3, handle),
            new GatewayProtocol.Done(4),
            new GatewayProtocol.Allocated(5, 7),
            new GatewayProtocol.EventState(9, 42, 3, true, 123_456_789L, null),
            new GatewayProtocol.EventState(9, 42, 3, true, 0, "kernel failed"),
            new GatewayProtocol.Failed(10, "argument", "device index is out of range"));
    for (Object message : messages) {
      assertEquals(message, roundTrip(message), message.getClass().getSimpleName());
    }
  }

  @Test
  void theTraceEventsOfCollectivesRoundTripForSubscribersOnOtherNodes() {
    List<TraceEvent> events =
        List.of(
            new TraceEvent.CollectiveStep(DEVICE, 65, "grads", "allReduce", 4, 2, 1, 4096, 10, 20),
            new TraceEvent.CollectiveFinished(
                DEVICE, 65, "grads", "allReduce", 4, 1 << 20, true, 10, 30));
    for (TraceEvent event : events) {
      assertEquals(event, roundTrip(event), event.getClass().getSimpleName());
    }
  }

  @Test
  void messagesWithBytesRoundTripTheirBytes() {
    byte[] bytes = {1, 2, 3, -1};
    var launch =
        (GatewayProtocol.Launch)
            roundTrip(
                new GatewayProtocol.Launch(DEVICE, 65, "add", bytes, List.of(7L, 8L), replyTo));
    assertArrayEquals(bytes, launch.args());
    assertEquals(List.of(7L, 8L), launch.buffers());
  }

  @Test
  void bulkChunksRoundTripOnlyTheirSliceAsRawBytes() {
    byte[] data = {9, 1, 2, 3, -1, 9};
    ActorRef<BulkProtocol.Credit> credits =
        TestProbe.<BulkProtocol.Credit>create(cluster.system(0)).getRef();
    var chunk = new BulkProtocol.Chunk(-5, 1 << 20, data, 1, 4, credits, false, 77, true);
    Serializer serializer = serialization.findSerializerFor(chunk);
    assertInstanceOf(BulkSerializer.class, serializer);
    byte[] wire = serialization.serialize(chunk).get();
    var back =
        (BulkProtocol.Chunk)
            serialization
                .deserialize(
                    wire, serializer.identifier(), Serializers.manifestFor(serializer, chunk))
                .get();
    assertArrayEquals(new byte[] {1, 2, 3, -1}, back.bytes());
    assertEquals(-5, back.transferId());
    assertEquals(1 << 20, back.offset());
    assertEquals(credits, back.replyTo());
    assertEquals(77, back.seq());
    assertTrue(back.ack());
    var credit = new BulkProtocol.Credit(77);
    assertEquals(credit, roundTripBulk(serializer, credit));
    var abort = new BulkProtocol.Abort(-5, 1 << 20, 3, "buffer 4 was freed", credits);
    assertEquals(abort, roundTripBulk(serializer, abort));
  }

  private Object roundTripBulk(Serializer serializer, Object message) {
    return serialization
        .deserialize(
            serialization.serialize(message).get(),
            serializer.identifier(),
            Serializers.manifestFor(serializer, message))
        .get();
  }

  /** A class that only Java serialization could write. */
  static final class OnlyJava implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  @Test
  void javaSerializationIsOff() {
    assertThrows(Exception.class, () -> serialization.serialize(new OnlyJava()).get());
  }

  @Test
  void remoteWorkAndEventsRunWithSerializeMessagesOn() throws Exception {
    ClusterAccelerator zero = cluster.node(0);
    RemoteStream stream = zero.newStream(cluster.device(1, 0));
    RemoteBuffer buffer = zero.allocate(cluster.device(1, 0), 16);
    stream.launch("fill", intArg(20), buffer);
    stream.launch("add", intArg(1), buffer);
    EventHandle handle = stream.recordEvent();
    Event opened = zero.openEvent(handle);
    assertTrue(opened.synchronize(Duration.ofSeconds(10)));
    byte[] bytes = stream.read(buffer).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(21, intAt(bytes, 3));
    assertTrue(stream.synchronize(Duration.ofSeconds(10)));
  }
}
