package dev.openaccel.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.DeviceExecutionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The sender alone, against a probe as its receiver: the credit window, batched credits, reads as
 * room appears (a bounded read-ahead whatever the transfer's size), and failures.
 */
class BulkSenderTest {
  private static final int CHUNK = NodeCopy.CHUNK;
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final ActorTestKit kit = ActorTestKit.create();

  @AfterAll
  static void stop() {
    kit.shutdownTestKit();
  }

  @Test
  void theWindowBoundsTheChunksInFlightAndOneCreditCoversABurst() throws Exception {
    TestProbe<BulkMessage> receiver = kit.createTestProbe(BulkMessage.class);
    ActorRef<BulkSender.Command> sender = spawn(receiver, 4L * CHUNK, new AtomicLong());
    byte[] bytes = new byte[10 * CHUNK + 5];
    bytes[9 * CHUNK] = 42;
    CompletableFuture<Void> sent = new CompletableFuture<>();
    sender.tell(new BulkSender.Send(7, 100, BulkSource.of(bytes), sent));

    List<BulkProtocol.Chunk> first = chunks(receiver, 4);
    receiver.expectNoMessage(Duration.ofMillis(200)); // the window is full
    assertEquals(List.of(false, false, false, true), acks(first), "one credit asked per burst");
    first.get(3).replyTo().tell(new BulkProtocol.Credit(first.get(3).seq()));
    List<BulkProtocol.Chunk> second = chunks(receiver, 4);
    assertFalse(sent.isDone());
    second.get(3).replyTo().tell(new BulkProtocol.Credit(second.get(3).seq()));
    List<BulkProtocol.Chunk> last = chunks(receiver, 3);
    sent.get(10, TimeUnit.SECONDS);

    List<BulkProtocol.Chunk> all = new ArrayList<>(first);
    all.addAll(second);
    all.addAll(last);
    for (int i = 0; i < all.size(); i++) {
      assertEquals(7, all.get(i).transferId());
      assertEquals(100 + (long) i * CHUNK, all.get(i).offset());
      assertEquals(i + 1, all.get(i).seq());
    }
    assertEquals(5, last.get(2).length());
    assertEquals(42, last.get(1).bytes()[0]);
    assertTrue(last.get(2).ack(), "the last chunk asks for credit");
  }

  @Test
  void aSmallTransferBehindALargeOneLeavesWithoutWaitingForIt() throws Exception {
    TestProbe<BulkMessage> receiver = kit.createTestProbe(BulkMessage.class);
    ActorRef<BulkSender.Command> sender = spawn(receiver, 8L * CHUNK, new AtomicLong());
    CompletableFuture<Void> large = new CompletableFuture<>();
    CompletableFuture<Void> small = new CompletableFuture<>();
    sender.tell(new BulkSender.Send(1, 0, new Zeros(64L * CHUNK), large)); // 24 MiB
    sender.tell(new BulkSender.Send(2, 0, BulkSource.of(new byte[2 * CHUNK]), small));
    List<Long> order = new ArrayList<>();
    while (order.stream().filter(id -> id == 2).count() < 2) {
      assertTrue(order.size() < 24, "the small transfer still waits after " + order);
      creditBurst(receiver, order);
    }
    small.get(10, TimeUnit.SECONDS);
    assertFalse(large.isDone(), "the large transfer was still under way");
    while (order.size() < 66) {
      creditBurst(receiver, order);
    }
    assertEquals(64, order.stream().filter(id -> id == 1).count(), "every chunk of it once");
    large.get(10, TimeUnit.SECONDS);
  }

  @Test
  void theReadAheadStaysBoundedWhateverTheTransferSize() throws Exception {
    TestProbe<BulkMessage> receiver = kit.createTestProbe(BulkMessage.class);
    AtomicLong peak = new AtomicLong();
    long window = 16L * CHUNK;
    ActorRef<BulkSender.Command> sender = spawn(receiver, window, peak);
    int chunks = 256; // 96 MiB, never held at once
    CompletableFuture<Void> sent = new CompletableFuture<>();
    sender.tell(new BulkSender.Send(-3, 0, new Zeros((long) chunks * CHUNK), sent));
    int acks = 0;
    for (int i = 0; i < chunks; i++) {
      BulkProtocol.Chunk chunk = chunks(receiver, 1).get(0);
      assertEquals((long) i * CHUNK, chunk.offset());
      if (chunk.ack()) {
        acks++;
        chunk.replyTo().tell(new BulkProtocol.Credit(chunk.seq()));
      }
    }
    sent.get(10, TimeUnit.SECONDS);
    long bound = Math.max(BulkSender.READ, window / 2);
    assertTrue(peak.get() > 0 && peak.get() <= bound, "read ahead " + peak + " > " + bound);
    assertTrue(acks <= chunks / 2, acks + " credits for " + chunks + " chunks");
  }

  @Test
  void aSourceThatCannotBeReadAbortsTheRestOfItsTransfer() {
    TestProbe<BulkMessage> receiver = kit.createTestProbe(BulkMessage.class);
    ActorRef<BulkSender.Command> sender = spawn(receiver, 64L * CHUNK, new AtomicLong());
    long size = 20L * CHUNK;
    BulkSource failing =
        new Zeros(size) {
          @Override
          public CompletionStage<List<Slice>> read(long from, int length) {
            if (from > 0) {
              return CompletableFuture.failedStage(new IllegalStateException("buffer 9 freed"));
            }
            return super.read(from, length);
          }
        };
    CompletableFuture<Void> sent = new CompletableFuture<>();
    sender.tell(new BulkSender.Send(5, 0, failing, sent));
    chunks(receiver, NodeCopy.BATCH);
    BulkProtocol.Abort abort = receiver.expectMessageClass(BulkProtocol.Abort.class, TIMEOUT);
    assertEquals(5, abort.transferId());
    assertEquals((long) NodeCopy.BATCH * CHUNK, abort.offset());
    assertEquals(20 - NodeCopy.BATCH, abort.chunks());
    assertEquals("buffer 9 freed", abort.reason());
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> sent.get(10, TimeUnit.SECONDS));
    assertInstanceOf(IllegalStateException.class, e.getCause());
  }

  @Test
  void aNodeThatLeftFailsWhatIsQueuedNamingIt() {
    TestProbe<BulkMessage> receiver = kit.createTestProbe(BulkMessage.class);
    ActorRef<BulkSender.Command> sender = spawn(receiver, CHUNK, new AtomicLong());
    CompletableFuture<Void> sent = new CompletableFuture<>();
    sender.tell(new BulkSender.Send(1, 0, BulkSource.of(new byte[3 * CHUNK]), sent));
    chunks(receiver, 1);
    sender.tell(new BulkSender.Stop("it was downed"));
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> sent.get(10, TimeUnit.SECONDS));
    assertInstanceOf(DeviceExecutionException.class, e.getCause());
    assertTrue(e.getCause().getMessage().contains("node-x left the cluster: it was downed"));
  }

  private static ActorRef<BulkSender.Command> spawn(
      TestProbe<BulkMessage> receiver, long window, AtomicLong peak) {
    return kit.spawn(BulkSender.create("node-x", receiver.getRef(), window, TIMEOUT, peak));
  }

  private static List<BulkProtocol.Chunk> chunks(TestProbe<BulkMessage> receiver, int count) {
    List<BulkProtocol.Chunk> chunks = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      chunks.add(receiver.expectMessageClass(BulkProtocol.Chunk.class, TIMEOUT));
    }
    return chunks;
  }

  /** Receives chunks up to one that asks for credit, noting their transfers, and credits them. */
  private static void creditBurst(TestProbe<BulkMessage> receiver, List<Long> transfers) {
    BulkProtocol.Chunk chunk;
    do {
      chunk = receiver.expectMessageClass(BulkProtocol.Chunk.class, TIMEOUT);
      transfers.add(chunk.transferId());
    } while (!chunk.ack());
    chunk.replyTo().tell(new BulkProtocol.Credit(chunk.seq()));
  }

  private static List<Boolean> acks(List<BulkProtocol.Chunk> chunks) {
    return chunks.stream().map(BulkProtocol.Chunk::ack).toList();
  }

  /** A source of zero bytes that reads slices of one shared array: no heap per transfer. */
  private static class Zeros implements BulkSource {
    private static final byte[] ZERO = new byte[CHUNK];
    private final long length;

    Zeros(long length) {
      this.length = length;
    }

    @Override
    public long length() {
      return length;
    }

    @Override
    public CompletionStage<List<Slice>> read(long from, int size) {
      List<Slice> slices = new ArrayList<>();
      for (int at = 0; at < size; at += CHUNK) {
        slices.add(new Slice(ZERO, 0, Math.min(CHUNK, size - at), false));
      }
      return CompletableFuture.completedStage(slices);
    }
  }
}
