package dev.openaccel.cluster;

import dev.openaccel.cluster.GatewayProtocol.Reply;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.actor.EventSignal;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;

/**
 * Serves this node's devices to the other nodes: one per node, registered with the Receptionist
 * under {@link #KEY}. It turns each {@link GatewayProtocol} request into a call on {@link
 * LocalNode}, in arrival order (which is the requester's order, see {@link NodeLink}), and answers
 * requests when their stage completes. It never blocks. Internal.
 *
 * <p>Owns nothing but its registration; the state lives in {@link LocalNode}.
 */
final class NodeGateway extends AbstractBehavior<GatewayProtocol.Command> {

  /** The Receptionist key every node's gateway registers under. */
  static final ServiceKey<GatewayProtocol.Command> KEY =
      ServiceKey.create(GatewayProtocol.Command.class, "openaccel-gateway");

  /** The gateway's name under {@code /system}, for addressing it on a known node directly. */
  static final String NAME = "openaccel-gateway";

  static Behavior<GatewayProtocol.Command> create(LocalNode local) {
    return Behaviors.<GatewayProtocol.Command>supervise(
            Behaviors.setup(context -> new NodeGateway(context, local)))
        .onFailure(RuntimeException.class, SupervisorStrategy.resume());
  }

  private final LocalNode local;

  private NodeGateway(ActorContext<GatewayProtocol.Command> context, LocalNode local) {
    super(context);
    this.local = local;
    context.getSystem().receptionist().tell(Receptionist.register(KEY, context.getSelf().narrow()));
  }

  @Override
  public Receive<GatewayProtocol.Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(GatewayProtocol.Describe.class, this::onDescribe)
        .onMessage(GatewayProtocol.NewStream.class, this::onNewStream)
        .onMessage(GatewayProtocol.Launch.class, this::onLaunch)
        .onMessage(GatewayProtocol.Record.class, this::onRecord)
        .onMessage(GatewayProtocol.Wait.class, this::onWait)
        .onMessage(GatewayProtocol.CloseEvent.class, this::onCloseEvent)
        .onMessage(GatewayProtocol.Synchronize.class, this::onSynchronize)
        .onMessage(GatewayProtocol.Allocate.class, this::onAllocate)
        .onMessage(GatewayProtocol.Free.class, this::onFree)
        .onMessage(GatewayProtocol.Write.class, this::onWrite)
        .onMessage(GatewayProtocol.Read.class, this::onRead)
        .onMessage(GatewayProtocol.Copy.class, this::onCopy)
        .onMessage(GatewayProtocol.Fetch.class, this::onFetch)
        .onMessage(GatewayProtocol.Store.class, this::onStore)
        .onMessage(GatewayProtocol.Latest.class, this::onLatest)
        .build();
  }

  private Behavior<GatewayProtocol.Command> onDescribe(GatewayProtocol.Describe m) {
    answer(
        m.requestId(),
        m.replyTo(),
        () -> new GatewayProtocol.Described(m.requestId(), local.node(), local.devices()));
    return this;
  }

  private Behavior<GatewayProtocol.Command> onNewStream(GatewayProtocol.NewStream m) {
    answer(
        m.requestId(),
        m.replyTo(),
        () ->
            new GatewayProtocol.StreamCreated(
                m.requestId(), local.newStream(m.device(), m.priority())));
    return this;
  }

  private Behavior<GatewayProtocol.Command> onLaunch(GatewayProtocol.Launch m) {
    local.launch(m.device(), m.streamId(), m.kernel(), m.args(), m.buffers());
    return this;
  }

  private Behavior<GatewayProtocol.Command> onRecord(GatewayProtocol.Record m) {
    answer(
        m.requestId(),
        m.replyTo(),
        () ->
            new GatewayProtocol.Recorded(
                m.requestId(), local.record(m.device(), m.streamId(), m.eventId())));
    return this;
  }

  private Behavior<GatewayProtocol.Command> onWait(GatewayProtocol.Wait m) {
    local.waitEvent(m.device(), m.streamId(), m.handle());
    return this;
  }

  private Behavior<GatewayProtocol.Command> onCloseEvent(GatewayProtocol.CloseEvent m) {
    local.closeEvent(m.eventId());
    return this;
  }

  private Behavior<GatewayProtocol.Command> onSynchronize(GatewayProtocol.Synchronize m) {
    answerLater(
        m.requestId(),
        m.replyTo(),
        () -> local.synchronize(m.device(), m.streamId()),
        ok -> new GatewayProtocol.Done(m.requestId()));
    return this;
  }

  private Behavior<GatewayProtocol.Command> onAllocate(GatewayProtocol.Allocate m) {
    answer(
        m.requestId(),
        m.replyTo(),
        () -> new GatewayProtocol.Allocated(m.requestId(), local.allocate(m.device(), m.bytes())));
    return this;
  }

  private Behavior<GatewayProtocol.Command> onFree(GatewayProtocol.Free m) {
    local.free(m.bufferId());
    return this;
  }

  private Behavior<GatewayProtocol.Command> onWrite(GatewayProtocol.Write m) {
    local.write(m.device(), m.streamId(), m.bufferId(), m.offset(), m.bytes());
    return this;
  }

  private Behavior<GatewayProtocol.Command> onRead(GatewayProtocol.Read m) {
    answerLater(
        m.requestId(),
        m.replyTo(),
        () -> local.read(m.device(), m.streamId(), m.bufferId(), m.offset(), m.length()),
        bytes -> new GatewayProtocol.Bytes(m.requestId(), bytes));
    return this;
  }

  private Behavior<GatewayProtocol.Command> onCopy(GatewayProtocol.Copy m) {
    local.copy(m.device(), m.streamId(), m.src(), m.dst());
    return this;
  }

  private Behavior<GatewayProtocol.Command> onFetch(GatewayProtocol.Fetch m) {
    answerLater(
        m.requestId(),
        m.replyTo(),
        () -> local.fetch(m.bufferId(), m.offset(), m.length()),
        bytes -> new GatewayProtocol.Bytes(m.requestId(), bytes));
    return this;
  }

  private Behavior<GatewayProtocol.Command> onStore(GatewayProtocol.Store m) {
    answerLater(
        m.requestId(),
        m.replyTo(),
        () -> local.store(m.bufferId(), m.offset(), m.bytes()),
        ok -> new GatewayProtocol.Done(m.requestId()));
    return this;
  }

  /**
   * Answers about the event's latest record as of now: the requester sent this after everything it
   * had received from us, so a record we made before telling it anything is already the latest or
   * older than it. With {@code await}, a one-shot relay subscribes and answers on completion.
   */
  private Behavior<GatewayProtocol.Command> onLatest(GatewayProtocol.Latest m) {
    Event view;
    try {
      view = local.openLocal(m.handle());
      if (!m.await()) {
        m.replyTo()
            .tell(
                new GatewayProtocol.EventState(
                    m.requestId(), m.handle().eventId(), 0, view.query(), 0, null));
        return this;
      }
    } catch (RuntimeException e) {
      m.replyTo().tell(Failures.reply(m.requestId(), e));
      return this;
    }
    view.subscribe(getContext().spawnAnonymous(relay(m.requestId(), m.replyTo())));
    return this;
  }

  /** Forwards the one signal of a subscription as an answer, then stops. */
  private static Behavior<EventSignal> relay(long requestId, ActorRef<Reply> replyTo) {
    return Behaviors.receive(EventSignal.class)
        .onMessage(
            EventSignal.Completed.class,
            done -> {
              replyTo.tell(
                  new GatewayProtocol.EventState(
                      requestId,
                      done.eventId(),
                      done.generation(),
                      true,
                      done.completedAtNanos(),
                      null));
              return Behaviors.stopped();
            })
        .onMessage(
            EventSignal.Failed.class,
            failed -> {
              replyTo.tell(
                  new GatewayProtocol.EventState(
                      requestId,
                      failed.eventId(),
                      failed.generation(),
                      true,
                      0,
                      String.valueOf(failed.cause().getMessage())));
              return Behaviors.stopped();
            })
        .build();
  }

  private static void answer(long requestId, ActorRef<Reply> replyTo, Supplier<Reply> body) {
    Reply reply;
    try {
      reply = body.get();
    } catch (RuntimeException e) {
      reply = Failures.reply(requestId, e);
    }
    replyTo.tell(reply);
  }

  private static <T> void answerLater(
      long requestId,
      ActorRef<Reply> replyTo,
      Supplier<CompletionStage<T>> body,
      Function<T, Reply> onSuccess) {
    CompletionStage<T> stage;
    try {
      stage = body.get();
    } catch (RuntimeException e) {
      replyTo.tell(Failures.reply(requestId, e));
      return;
    }
    stage.whenComplete(
        (value, failure) ->
            replyTo.tell(
                failure == null ? onSuccess.apply(value) : Failures.reply(requestId, failure)));
  }
}
