package dev.openaccel.cluster;

import dev.openaccel.cluster.GatewayProtocol.Reply;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * How the {@link NodeGateway} answers a request: with the reply its body builds, or with the
 * failure the body throws or its stage completes with, so that every request is answered exactly
 * once. Internal.
 *
 * <p>Owns nothing.
 */
final class Replies {
  private Replies() {}

  static void done(long requestId, ActorRef<Reply> replyTo) {
    replyTo.tell(new GatewayProtocol.Done(requestId));
  }

  /** Answers with what {@code body} returns, or the failure it throws. */
  static void answer(long requestId, ActorRef<Reply> replyTo, Supplier<Reply> body) {
    Reply reply;
    try {
      reply = body.get();
    } catch (RuntimeException e) {
      reply = Failures.reply(requestId, e);
    }
    replyTo.tell(reply);
  }

  /** Like {@link #answer}, once the stage {@code body} returns completes. */
  static <T> void answerLater(
      long requestId,
      ActorRef<Reply> replyTo,
      Supplier<? extends CompletionStage<T>> body,
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

  /** Like {@link #answerLater}, answering {@link GatewayProtocol.Done} on success. */
  static <T> void doneLater(
      long requestId, ActorRef<Reply> replyTo, Supplier<? extends CompletionStage<T>> body) {
    answerLater(requestId, replyTo, body, ok -> new GatewayProtocol.Done(requestId));
  }
}
