package dev.openaccel.runtime.internal.engine;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.dispatch.DispatcherConfigurator;
import org.apache.pekko.dispatch.Dispatchers;

/**
 * Registers one Pekko dispatcher per device, each on its own pool of {@link DeviceThread}s, so that
 * a device's actors and kernels never run on Pekko's default dispatcher or on a caller's thread.
 * Internal.
 */
public final class DeviceDispatchers {
  private DeviceDispatchers() {}

  /**
   * Registers (once per system and id) a dispatcher with {@code threads} threads and returns its
   * selector.
   *
   * @param throughput messages an actor handles before the thread moves on to another actor
   */
  public static DispatcherSelector register(
      ActorSystem<?> system, String id, int threads, int throughput) {
    Dispatchers dispatchers = system.classicSystem().dispatchers();
    Config config =
        ConfigFactory.parseMap(
                Map.of(
                    "id",
                    id,
                    "type",
                    "Dispatcher",
                    "executor",
                    DeviceExecutorConfigurator.class.getName(),
                    "throughput",
                    throughput,
                    DeviceExecutorConfigurator.THREADS,
                    threads,
                    DeviceExecutorConfigurator.NAME,
                    system.name() + "-" + id.replace('.', '-')))
            .withFallback(system.settings().config().getConfig("pekko.actor.default-dispatcher"));
    dispatchers.registerConfigurator(
        id, new DispatcherConfigurator(config, dispatchers.prerequisites()));
    return DispatcherSelector.fromConfig(id);
  }
}
