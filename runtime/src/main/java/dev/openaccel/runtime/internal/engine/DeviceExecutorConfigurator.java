package dev.openaccel.runtime.internal.engine;

import com.typesafe.config.Config;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import org.apache.pekko.dispatch.DispatcherPrerequisites;
import org.apache.pekko.dispatch.ExecutorServiceConfigurator;
import org.apache.pekko.dispatch.ExecutorServiceFactory;

/**
 * Builds the executor of a device dispatcher, a {@link DevicePool} whose idle threads wait for work
 * as the device's {@link IdleWait} says, from the dispatcher config {@link DeviceDispatchers}
 * writes. Internal.
 */
final class DeviceExecutorConfigurator extends ExecutorServiceConfigurator {
  static final String THREADS = "openaccel-threads";
  static final String NAME = "openaccel-thread-name";

  private final int threads;
  private final String name;
  private final IdleWait idleWait;

  DeviceExecutorConfigurator(
      Config config, DispatcherPrerequisites prerequisites, IdleWait idleWait) {
    super(config, prerequisites);
    this.threads = config.getInt(THREADS);
    this.name = config.getString(NAME);
    this.idleWait = idleWait;
  }

  @Override
  public ExecutorServiceFactory createExecutorServiceFactory(String id, ThreadFactory ignored) {
    return this::newPool;
  }

  private ExecutorService newPool() {
    return new DevicePool(name, threads, idleWait);
  }
}
