package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceExecutionException;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * This node's single channel to one other node's {@link NodeGateway}. Internal.
 *
 * <p>Ordering point: every request this node sends to that node passes through this one actor. Its
 * mailbox orders the callers' requests (a caller's own requests stay in its call order), and Pekko
 * keeps the order of messages between one sender and one receiver, so the gateway handles them in
 * that order too. That is what keeps the commands for one remote stream in order.
 *
 * <p>Flow control: Artery drops messages when its send queue overflows, so this link never has more
 * than {@link #FENCE_EVERY} times {@link #FENCES} commands unconfirmed. After every {@link
 * #FENCE_EVERY} commands it sends a {@link GatewayProtocol.Fence}, answered by the gateway as it
 * reaches it; while {@link #FENCES} fences are unanswered, further commands wait here, in order.
 *
 * <p>Replies: an {@link Ask}'s answer comes back to this actor, which completes its future; a
 * stream waiting for it (a pin's record) is then resumed by the engine's own message.
 *
 * <p>Owns: the pending requests (id to future), the commands held back by flow control, the fence
 * count and whether the node is gone. It watches the gateway: when the node leaves the cluster or
 * is downed (or the gateway stops), every pending request fails with a {@link
 * dev.openaccel.runtime.DeviceExecutionException} naming the node, and later requests fail at once.
 * It stays alive in that state, so late callers never hang.
 */
final class NodeLink extends AbstractBehavior<NodeLink.Command> {

  sealed interface Command extends NoSerializationVerificationNeeded {}

  /** Builds the request to send, given the id and reply address this link chose for it. */
  @FunctionalInterface
  interface Request {
    GatewayProtocol.Command build(long requestId, ActorRef<GatewayProtocol.Reply> replyTo);
  }

  /** Sends a request; {@code reply} completes with the answer, or fails if the node is gone. */
  record Ask(Request request, CompletableFuture<GatewayProtocol.Reply> reply) implements Command {}

  /** Sends a command that has no answer (the request id it is given is unused). */
  record Tell(Request command) implements Command {}

  /** The node is gone for a reason learned elsewhere (it was downed): fail everything now. */
  record Gone(String why) implements Command {}

  private record Replied(GatewayProtocol.Reply reply) implements Command {}

  /** Commands between two fences. */
  static final int FENCE_EVERY = 256;

  /** Fences that may be unanswered at once. */
  static final int FENCES = 4;

  static Behavior<Command> create(
      String node, ActorRef<GatewayProtocol.Command> gateway, Consumer<String> onLeft) {
    return Behaviors.setup(context -> new NodeLink(context, node, gateway, onLeft));
  }

  private final String node;
  private final ActorRef<GatewayProtocol.Command> gateway;
  private final Consumer<String> onLeft;
  private final ActorRef<GatewayProtocol.Reply> replies;
  private final Map<Long, CompletableFuture<GatewayProtocol.Reply>> pending =
      new ConcurrentHashMap<>();
  private final ArrayDeque<Command> held = new ArrayDeque<>();
  private final Set<Long> fences = new HashSet<>();
  private long nextId;
  private int sinceFence;
  private int fencesOut;
  private String gone;

  private NodeLink(
      ActorContext<Command> context,
      String node,
      ActorRef<GatewayProtocol.Command> gateway,
      Consumer<String> onLeft) {
    super(context);
    this.node = node;
    this.gateway = gateway;
    this.onLeft = onLeft;
    this.replies = context.messageAdapter(GatewayProtocol.Reply.class, Replied::new);
    context.watch(gateway);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Ask.class, this::onAsk)
        .onMessage(Tell.class, this::onTell)
        .onMessage(Replied.class, this::onReplied)
        .onMessage(Gone.class, gone -> onGone(gone.why()))
        .onSignal(
            Terminated.class,
            signal -> onGone("it was removed (left or downed) or its OpenAccel gateway stopped"))
        .onSignal(PostStop.class, signal -> onStopped())
        .build();
  }

  private Behavior<Command> onAsk(Ask ask) {
    if (gone != null) {
      ask.reply().completeExceptionally(Failures.nodeLeft(node, gone));
    } else if (fencesOut >= FENCES) {
      held.add(ask);
    } else {
      long id = ++nextId;
      pending.put(id, ask.reply());
      send(ask.request().build(id, replies));
    }
    return this;
  }

  private Behavior<Command> onTell(Tell tell) {
    if (gone == null && fencesOut >= FENCES) {
      held.add(tell);
    } else if (gone == null) {
      send(tell.command().build(0, replies));
    }
    return this;
  }

  private void send(GatewayProtocol.Command command) {
    gateway.tell(command);
    if (++sinceFence >= FENCE_EVERY) {
      sinceFence = 0;
      fencesOut++;
      long id = ++nextId;
      fences.add(id);
      gateway.tell(new GatewayProtocol.Fence(id, replies));
    }
  }

  private Behavior<Command> onReplied(Replied replied) {
    long id = replied.reply().requestId();
    CompletableFuture<GatewayProtocol.Reply> waiting = pending.remove(id);
    if (waiting != null) {
      waiting.complete(replied.reply());
    }
    if (fences.remove(id)) {
      fencesOut--;
      while (!held.isEmpty() && fencesOut < FENCES) {
        Command next = held.poll();
        if (next instanceof Ask ask) {
          onAsk(ask);
        } else {
          onTell((Tell) next);
        }
      }
    }
    return this;
  }

  private Behavior<Command> onGone(String why) {
    if (gone != null) {
      return this;
    }
    gone = why;
    getContext()
        .getLog()
        .info("node {} is gone; failing {} pending requests", node, pending.size());
    failAll(Failures.nodeLeft(node, gone));
    onLeft.accept(node);
    return this;
  }

  private Behavior<Command> onStopped() {
    failAll(
        new DeviceExecutionException(
            "the link to node "
                + node
                + " stopped with its actor system "
                + getContext().getSystem().address()));
    return this;
  }

  private void failAll(RuntimeException failure) {
    for (Long id : pending.keySet()) {
      CompletableFuture<GatewayProtocol.Reply> waiting = pending.remove(id);
      if (waiting != null) {
        waiting.completeExceptionally(failure);
      }
    }
    for (Command command : held) {
      if (command instanceof Ask ask) {
        ask.reply().completeExceptionally(failure);
      }
    }
    held.clear();
  }
}
