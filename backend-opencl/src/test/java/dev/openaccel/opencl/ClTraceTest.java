package dev.openaccel.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.lwjgl.opencl.CL10.CL_COMPLETE;
import static org.lwjgl.opencl.CL10.clReleaseEvent;
import static org.lwjgl.opencl.CL11.clCreateUserEvent;
import static org.lwjgl.opencl.CL11.clSetUserEventStatus;

import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.trace.TraceEvent;
import dev.openaccel.runtime.trace.Tracer;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;

/** Kernel spans published from event callbacks that run at the same time. */
@RequiresOpenCl
class ClTraceTest {
  private static final int SPANS = 20_000;

  /**
   * A queue's callbacks may run at once (OpenCL threads, and the stream's thread for an event
   * complete before its callback is set); each span must still reach a subscriber as a {@code
   * KernelStarted} directly followed by its {@code KernelFinished}, the pairing trace consumers
   * rely on.
   */
  @Test
  void concurrentCallbacksDoNotInterleaveTheirSpans() throws Exception {
    var found = OpenClTestSupport.platform();
    // without the accelerator extension, whose own tracer would hold the trace watcher's name
    ActorTestKit kit =
        ActorTestKit.create(
            ConfigFactory.parseString("pekko.actor.typed.library-extensions = []")
                .withFallback(ConfigFactory.load("application-test")));
    ExecutorService callbacks = Executors.newFixedThreadPool(2);
    try (ClContext context = new ClContext(found, Completions.CALLBACKS)) {
      Tracer tracer = new Tracer(kit.system());
      TestProbe<TraceEvent> probe = kit.createTestProbe();
      tracer.subscribe(probe.ref());
      Stream stream = stream(Device.of(DeviceType.of("opencl"), 0), 7);
      ClTrace trace = new ClTrace(stream, tracer);
      long event = completedUserEvent(context);
      try {
        CyclicBarrier start = new CyclicBarrier(2);
        List<Future<?>> threads = new ArrayList<>();
        for (String name : List.of("a", "b")) {
          threads.add(
              callbacks.submit(
                  () -> {
                    start.await(10, TimeUnit.SECONDS);
                    for (int i = 0; i < SPANS; i++) {
                      trace.ended(name, event, event, CL_COMPLETE);
                    }
                    return null;
                  }));
        }
        for (Future<?> thread : threads) {
          thread.get(60, TimeUnit.SECONDS);
        }
      } finally {
        clReleaseEvent(event);
      }
      for (int i = 0; i < 2 * SPANS; i++) {
        TraceEvent first = probe.receiveMessage(Duration.ofSeconds(10));
        TraceEvent second = probe.receiveMessage(Duration.ofSeconds(10));
        var started = assertInstanceOf(TraceEvent.KernelStarted.class, first, "span " + i);
        var finished = assertInstanceOf(TraceEvent.KernelFinished.class, second, "span " + i);
        assertEquals(started.kernel(), finished.kernel(), "span " + i);
        assertEquals(7, finished.streamId());
      }
      probe.expectNoMessage(Duration.ofMillis(100));
    } finally {
      callbacks.shutdownNow();
      kit.shutdownTestKit();
    }
  }

  private static long completedUserEvent(ClContext context) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      var rc = stack.mallocInt(1);
      long event = clCreateUserEvent(context.handle(), rc);
      ClErrors.check(rc.get(0), "clCreateUserEvent");
      ClErrors.check(clSetUserEventStatus(event, CL_COMPLETE), "clSetUserEventStatus");
      return event;
    }
  }

  /** A stream value whose operations are never called: the trace reads only its device and id. */
  static Stream stream(Device device, long id) {
    Stream.Ops ops =
        (Stream.Ops)
            Proxy.newProxyInstance(
                Stream.Ops.class.getClassLoader(),
                new Class<?>[] {Stream.Ops.class},
                (proxy, method, args) -> {
                  throw new UnsupportedOperationException(method.getName());
                });
    return Stream.wrap(device, id, 0, ops);
  }
}
