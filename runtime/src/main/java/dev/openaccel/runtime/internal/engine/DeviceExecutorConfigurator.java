package dev.openaccel.runtime.internal.engine;

import com.typesafe.config.Config;
import dev.openaccel.runtime.spi.DeviceThread;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.dispatch.DispatcherPrerequisites;
import org.apache.pekko.dispatch.ExecutorServiceConfigurator;
import org.apache.pekko.dispatch.ExecutorServiceFactory;

/**
 * The executor of a device dispatcher: a fixed pool of {@link DeviceThread}s, one per simulated
 * compute unit, whose idle threads wait for work as the device's {@link IdleWait} says. Built by
 * {@link DeviceDispatchers} from the dispatcher config it writes. Internal.
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
    AtomicInteger counter = new AtomicInteger();
    DeviceTaskQueue tasks = new DeviceTaskQueue(idleWait);
    ThreadFactory factory =
        body -> new DeviceThread(tasks.bind(body), name + "-" + counter.incrementAndGet());
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, tasks, factory);
    pool.prestartAllCoreThreads(); // every thread waits in the strategy from the start
    return pool;
  }
}
