package dev.openaccel.runtime.internal.engine;

import com.typesafe.config.Config;
import dev.openaccel.runtime.spi.DeviceThread;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.dispatch.DispatcherPrerequisites;
import org.apache.pekko.dispatch.ExecutorServiceConfigurator;
import org.apache.pekko.dispatch.ExecutorServiceFactory;

/**
 * The executor of a device dispatcher: a fixed pool of {@link DeviceThread}s, one per simulated
 * compute unit. Pekko instantiates it reflectively from the dispatcher config written by {@link
 * DeviceDispatchers}. Internal.
 */
public final class DeviceExecutorConfigurator extends ExecutorServiceConfigurator {
  static final String THREADS = "openaccel-threads";
  static final String NAME = "openaccel-thread-name";

  private final int threads;
  private final String name;

  public DeviceExecutorConfigurator(Config config, DispatcherPrerequisites prerequisites) {
    super(config, prerequisites);
    this.threads = config.getInt(THREADS);
    this.name = config.getString(NAME);
  }

  @Override
  public ExecutorServiceFactory createExecutorServiceFactory(String id, ThreadFactory ignored) {
    return () -> newPool(threads, name);
  }

  private static ExecutorService newPool(int threads, String name) {
    AtomicInteger counter = new AtomicInteger();
    ThreadFactory factory = body -> new DeviceThread(body, name + "-" + counter.incrementAndGet());
    return new ThreadPoolExecutor(
        threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), factory);
  }
}
