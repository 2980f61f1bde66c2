package dev.openaccel.cluster;

import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.ReceiveBuilder;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;

/**
 * Serves this node's devices to the other members of the cluster: one per node, registered with the
 * Receptionist under {@link #KEY}. It turns each {@link GatewayProtocol} request into a call on
 * {@link LocalNode}, in arrival order (which is the requester's order, see {@link NodeLink}), and
 * answers requests when their stage completes. It never blocks. Internal.
 *
 * <p>Access: a command is served only if the node it comes from (the address of its {@code
 * replyTo}) is a member of the cluster ({@link Membership}); otherwise a request is answered with a
 * refusal and other commands are dropped with a warning. That address is the requester's own claim:
 * on an untrusted network, run Artery over TLS with mutual authentication.
 *
 * <p>Owns nothing but its registration; the state lives in {@link LocalNode}.
 */
final class NodeGateway extends AbstractBehavior<GatewayProtocol.Command> {

  /** The Receptionist key every node's gateway registers under. */
  static final ServiceKey<GatewayProtocol.Command> KEY =
      ServiceKey.create(GatewayProtocol.Command.class, "openaccel-gateway");

  /** The gateway's name under {@code /system}, for addressing it on a known node directly. */
  static final String NAME = "openaccel-gateway";

  static Behavior<GatewayProtocol.Command> create(LocalNode local, Bulk bulk, Membership members) {
    return Behaviors.<GatewayProtocol.Command>supervise(
            Behaviors.setup(context -> new NodeGateway(context, local, bulk, members)))
        .onFailure(RuntimeException.class, SupervisorStrategy.resume());
  }

  private final LocalNode local;
  private final Bulk bulk;
  private final Membership members;

  private NodeGateway(
      ActorContext<GatewayProtocol.Command> context,
      LocalNode local,
      Bulk bulk,
      Membership members) {
    super(context);
    this.local = local;
    this.bulk = bulk;
    this.members = members;
    context.getSystem().receptionist().tell(Receptionist.register(KEY, context.getSelf().narrow()));
  }

  @FunctionalInterface
  private interface Handler<T> {
    void handle(T message, String from);
  }

  @Override
  public Receive<GatewayProtocol.Command> createReceive() {
    ReceiveBuilder<GatewayProtocol.Command> builder = newReceiveBuilder();
    on(builder, GatewayProtocol.Describe.class, this::onDescribe);
    on(builder, GatewayProtocol.NewStream.class, this::onNewStream);
    on(builder, GatewayProtocol.Launch.class, this::onLaunch);
    on(builder, GatewayProtocol.Record.class, this::onRecord);
    on(builder, GatewayProtocol.Pin.class, this::onPin);
    on(builder, GatewayProtocol.AwaitPin.class, this::onAwaitPin);
    on(builder, GatewayProtocol.Wait.class, this::onWait);
    on(builder, GatewayProtocol.CloseEvent.class, this::onCloseEvent);
    on(builder, GatewayProtocol.Synchronize.class, this::onSynchronize);
    on(builder, GatewayProtocol.Allocate.class, this::onAllocate);
    on(builder, GatewayProtocol.Free.class, this::onFree);
    on(builder, GatewayProtocol.Write.class, this::onWrite);
    on(builder, GatewayProtocol.Read.class, this::onRead);
    on(builder, GatewayProtocol.Copy.class, this::onCopy);
    on(builder, GatewayProtocol.Fetch.class, this::onFetch);
    on(builder, GatewayProtocol.Store.class, this::onStore);
    on(
        builder,
        GatewayProtocol.Latest.class,
        (m, from) -> EventRelay.answer(local, getContext(), m));
    on(builder, GatewayProtocol.Fence.class, (m, from) -> Replies.done(m.requestId(), m.replyTo()));
    return builder.build();
  }

  /** Registers {@code handler} for {@code type}, behind the membership check. */
  private <T extends GatewayProtocol.Command> void on(
      ReceiveBuilder<GatewayProtocol.Command> builder, Class<T> type, Handler<T> handler) {
    builder.onMessage(
        type,
        message -> {
          String from = message.replyTo().path().address().toString();
          if (members.admits(from)) {
            handler.handle(message, from);
          } else {
            refuse(message, from);
          }
          return this;
        });
  }

  private void refuse(GatewayProtocol.Command message, String from) {
    IllegalStateException refusal = members.refusal(from, message.getClass().getSimpleName());
    getContext().getLog().warn(refusal.getMessage());
    if (message instanceof GatewayProtocol.Request request) {
      message.replyTo().tell(Failures.reply(request.requestId(), refusal));
    }
  }

  private void onDescribe(GatewayProtocol.Describe m, String from) {
    Replies.answer(
        m.requestId(),
        m.replyTo(),
        () -> new GatewayProtocol.Described(m.requestId(), local.node(), local.devices()));
  }

  private void onNewStream(GatewayProtocol.NewStream m, String from) {
    Replies.answer(
        m.requestId(),
        m.replyTo(),
        () ->
            new GatewayProtocol.StreamCreated(
                m.requestId(), local.newStream(m.device(), m.priority())));
  }

  private void onLaunch(GatewayProtocol.Launch m, String from) {
    local.launch(m.device(), m.streamId(), m.kernel(), m.args(), m.buffers());
  }

  private void onRecord(GatewayProtocol.Record m, String from) {
    Replies.answer(
        m.requestId(),
        m.replyTo(),
        () ->
            new GatewayProtocol.Recorded(
                m.requestId(), local.record(from, m.device(), m.streamId(), m.eventId())));
  }

  private void onPin(GatewayProtocol.Pin m, String from) {
    Replies.answer(
        m.requestId(),
        m.replyTo(),
        () -> {
          local.pin(from, m.handle(), m.pinId(), m.awaiter());
          return new GatewayProtocol.Done(m.requestId());
        });
  }

  private void onAwaitPin(GatewayProtocol.AwaitPin m, String from) {
    Replies.doneLater(m.requestId(), m.replyTo(), () -> local.awaitPin(m.pinner(), m.pinId()));
  }

  private void onWait(GatewayProtocol.Wait m, String from) {
    local.waitEvent(m.device(), m.streamId(), m.handle(), m.pinner(), m.pinId());
  }

  private void onCloseEvent(GatewayProtocol.CloseEvent m, String from) {
    Replies.answer(
        m.requestId(),
        m.replyTo(),
        () -> {
          local.closeEvent(from, m.eventId());
          return new GatewayProtocol.Done(m.requestId());
        });
  }

  private void onSynchronize(GatewayProtocol.Synchronize m, String from) {
    Replies.doneLater(
        m.requestId(), m.replyTo(), () -> local.synchronize(m.device(), m.streamId()));
  }

  private void onAllocate(GatewayProtocol.Allocate m, String from) {
    Replies.answer(
        m.requestId(),
        m.replyTo(),
        () ->
            new GatewayProtocol.Allocated(
                m.requestId(), local.allocate(from, m.device(), m.bytes())));
  }

  private void onFree(GatewayProtocol.Free m, String from) {
    Replies.answer(
        m.requestId(),
        m.replyTo(),
        () -> {
          local.free(from, m.bufferId());
          return new GatewayProtocol.Done(m.requestId());
        });
  }

  private void onWrite(GatewayProtocol.Write m, String from) {
    local
        .transfers()
        .writeFrom(from, m.device(), m.streamId(), m.bufferId(), m.transferId(), m.length());
  }

  /** Reads in stream order, then sends the bytes and answers once they are on their way. */
  private void onRead(GatewayProtocol.Read m, String from) {
    Replies.doneLater(
        m.requestId(),
        m.replyTo(),
        () ->
            local
                .transfers()
                .read(m.device(), m.streamId(), m.bufferId(), m.offset(), m.length())
                .thenCompose(
                    bytes -> bulk.send(from, m.transferId(), m.offset(), BulkSource.of(bytes))));
  }

  private void onCopy(GatewayProtocol.Copy m, String from) {
    local.transfers().copy(m.device(), m.streamId(), m.src(), m.dst());
  }

  /**
   * Streams the range to the requester through the bulk sender, read as the credit window allows,
   * and answers once the last chunk is on its way (or the read failed).
   */
  private void onFetch(GatewayProtocol.Fetch m, String from) {
    Replies.doneLater(
        m.requestId(),
        m.replyTo(),
        () ->
            bulk.send(
                from,
                m.transferId(),
                m.offset(),
                local.transfers().source(m.bufferId(), m.offset(), m.length())));
  }

  private void onStore(GatewayProtocol.Store m, String from) {
    Replies.doneLater(
        m.requestId(),
        m.replyTo(),
        () -> local.transfers().storeFrom(from, m.bufferId(), m.transferId(), m.length()));
  }
}
