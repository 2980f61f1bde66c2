package dev.openaccel.cluster;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A concurrent bulk transfer for measurements under load: a thread pushes {@code size} bytes from
 * device 1 of node 0 to device 1 of node 1 with {@code RemoteStream.copy}, over and over, until
 * closed. Device 1 on both sides, so its kernels do not queue with the measured streams' on device
 * 0; the bytes share the network path with everything else between the two nodes.
 *
 * <p>Owns: the thread, the byte count and the first failure.
 */
final class BulkLoad implements AutoCloseable {
  private static final Duration LONG = Duration.ofSeconds(120);

  private final Thread thread;
  private final AtomicLong bytes = new AtomicLong();
  private volatile boolean running = true;
  private volatile RuntimeException failure;
  private final long started = System.nanoTime();

  BulkLoad(TestCluster cluster, long size) {
    ClusterAccelerator a = cluster.node(0);
    RemoteStream stream = a.newStream(cluster.device(0, 1));
    RemoteBuffer source = a.allocate(cluster.device(0, 1), size);
    RemoteBuffer target = a.allocate(cluster.device(1, 1), size);
    thread =
        new Thread(
            () -> {
              try {
                while (running) {
                  stream.copy(source, target);
                  if (!stream.synchronize(LONG)) {
                    throw new IllegalStateException("a load copy took longer than " + LONG);
                  }
                  bytes.addAndGet(size);
                }
              } catch (RuntimeException e) {
                failure = e;
              } finally {
                a.free(source);
                a.free(target);
              }
            },
            "bulk-load");
    thread.setDaemon(true);
    thread.start();
  }

  /** MB/s (10^6 bytes) moved so far. */
  double rate() {
    return bytes.get() / ((System.nanoTime() - started) / 1e9) / 1e6;
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.join(TimeUnit.SECONDS.toMillis(LONG.toSeconds() + 10));
    if (thread.isAlive()) {
      throw new IllegalStateException("the load thread did not stop within " + LONG);
    }
    if (failure != null) {
      throw new IllegalStateException("the load transfer failed", failure);
    }
  }
}
