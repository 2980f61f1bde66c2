package dev.openaccel.runtime.internal.engine;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.dispatch.DispatcherConfigurator;
import org.apache.pekko.dispatch.Dispatchers;
import org.apache.pekko.dispatch.ExecutorServiceConfigurator;

/**
 * Registers one Pekko dispatcher per device, each on its own pool of {@link
 * dev.openaccel.runtime.spi.DeviceThread}s, so that a device's actors and kernels never run on
 * Pekko's default dispatcher or on a caller's thread. Internal.
 */
final class DeviceDispatchers {
  private DeviceDispatchers() {}

  /**
   * Registers (once per system and id) a dispatcher with {@code threads} threads that wait for work
   * as {@code idleWait} says, and returns its selector.
   *
   * @param throughput messages an actor handles before the thread moves on to another actor
   */
  static DispatcherSelector register(
      ActorSystem<?> system, String id, int threads, int throughput, IdleWait idleWait) {
    Dispatchers dispatchers = system.classicSystem().dispatchers();
    Config config =
        ConfigFactory.parseMap(
                Map.of(
                    "id",
                    id,
                    "type",
                    "Dispatcher",
                    "throughput",
                    throughput,
                    DeviceExecutorConfigurator.THREADS,
                    threads,
                    DeviceExecutorConfigurator.NAME,
                    system.name() + "-" + id.replace('.', '-')))
            .withFallback(system.settings().config().getConfig("pekko.actor.default-dispatcher"));
    // The superclass constructor builds the executor through configureExecutor(); javac stores the
    // captured idleWait before that call, so the override sees it.
    dispatchers.registerConfigurator(
        id,
        new DispatcherConfigurator(config, dispatchers.prerequisites()) {
          @Override
          public ExecutorServiceConfigurator configureExecutor() {
            return new DeviceExecutorConfigurator(config(), prerequisites(), idleWait);
          }
        });
    return DispatcherSelector.fromConfig(id);
  }
}
