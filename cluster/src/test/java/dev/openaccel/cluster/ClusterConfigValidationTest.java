package dev.openaccel.cluster;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.conformance.BadConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every {@code openaccel.cluster.} key, given a bad value, fails the creation of the system's
 * extension with an {@link IllegalArgumentException} naming the key, the value and what is allowed.
 * ({@code openaccel.cluster.bulk-dispatcher} and {@code openaccel.cluster.collectives.dispatcher}
 * are Pekko dispatchers, whose keys Pekko checks.)
 */
class ClusterConfigValidationTest {
  private static final Map<String, String> BAD = new LinkedHashMap<>();

  static {
    BAD.put("openaccel.cluster.control-timeout", "never");
    BAD.put("openaccel.cluster.bulk.window", "1");
    BAD.put("openaccel.cluster.bulk.timeout", "0s");
    BAD.put("openaccel.cluster.collectives.join-timeout", "0s");
    BAD.put("openaccel.cluster.collectives.chunk", "1MiB");
    BAD.put("openaccel.cluster.collectives.op-timeout", "0s");
    BAD.put("openaccel.cluster.collectives.small-limit", "-1");
  }

  @TestFactory
  Stream<DynamicTest> aBadValueOfEachKeyFailsTheExtensionNamingKeyValueAndWhatIsAllowed() {
    return BadConfig.eachFails(
        BAD,
        config ->
            ClusterAccelerator.get(
                ActorSystem.create(
                    Behaviors.empty(),
                    "cluster-config",
                    config.withFallback(ConfigFactory.load()).resolve())));
  }
}
