package dev.openaccel.testkit;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.remote.RARP;
import org.apache.pekko.remote.transport.ThrottlerTransportAdapter;
import scala.jdk.javaapi.FutureConverters;

/**
 * Artery's test-mode blackhole between two nodes of this JVM, the one Pekko's multi-node testkit
 * uses: a node told to blackhole another drops every message to and from it at its own outbound and
 * inbound stages, until told to let them pass. Internal to the testkit: {@link NodeFaults} is its
 * user.
 *
 * <p>Owns: nothing; the blackholes live in each node's Artery transport.
 */
final class ArteryBlackhole {
  private static final String ARTERY = "pekko.remote.artery.enabled";
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);

  private ArteryBlackhole() {}

  /**
   * Drops ({@code blackhole}) or passes again every message between {@code a} and {@code b}, both
   * ways; each of the two is told about the other. Checks both nodes before telling either.
   *
   * @throws IllegalStateException naming {@value NodeFaults#TEST_MODE} if one of them runs without
   *     Artery's test mode
   */
  static void set(ActorSystem<?> a, ActorSystem<?> b, boolean blackhole) {
    requireTestMode(a);
    requireTestMode(b);
    throttle(a, b, blackhole);
    throttle(b, a, blackhole);
  }

  /** Checks that {@code node} runs Artery with its test mode, which the blackhole needs. */
  private static void requireTestMode(ActorSystem<?> node) {
    if (!node.settings().config().getBoolean(ARTERY)) {
      throw new IllegalStateException(
          "cutting the network needs Artery, but "
              + node.address()
              + " runs classic remoting: set "
              + ARTERY
              + " = on and "
              + NodeFaults.TEST_MODE
              + " = on in the configuration of every node");
    }
    if (!node.settings().config().getBoolean(NodeFaults.TEST_MODE)) {
      throw new IllegalStateException(
          "cutting the network needs Artery's test mode, but "
              + node.address()
              + " runs without it: set "
              + NodeFaults.TEST_MODE
              + " = on in the configuration of every node");
    }
  }

  /**
   * Has {@code from} drop ({@code blackhole}) or pass again the traffic between it and {@code to},
   * both directions.
   */
  // Artery's management command still takes the classic throttler's SetThrottle (Pekko's
  // multi-node testkit sends the same): that class is deprecated with classic remoting, but Artery
  // has no other way in to its test-mode blackhole.
  @SuppressWarnings("deprecation")
  private static void throttle(ActorSystem<?> from, ActorSystem<?> to, boolean blackhole) {
    Object command =
        new ThrottlerTransportAdapter.SetThrottle(
            to.address(),
            ThrottlerTransportAdapter.bothDirection(),
            blackhole
                ? ThrottlerTransportAdapter.blackholeThrottleMode()
                : ThrottlerTransportAdapter.unthrottledThrottleMode());
    String what = (blackhole ? "the cut" : "the heal") + " towards " + to.address();
    RARP remote = (RARP) RARP.get(from);
    try {
      Object applied =
          FutureConverters.asJava(remote.provider().transport().managementCommand(command))
              .toCompletableFuture()
              .get(COMMAND_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
      if (!Boolean.TRUE.equals(applied)) {
        throw new IllegalStateException(from.address() + " did not apply " + what);
      }
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(from.address() + " did not apply " + what, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(
          "interrupted while " + from.address() + " applied " + what, e);
    }
  }
}
