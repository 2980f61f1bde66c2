package dev.openaccel.conformance;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.Event;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.Stream;
import dev.openaccel.runtime.spi.Capability;
import dev.openaccel.runtime.spi.VirtualGuardImpl;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.function.Executable;

/**
 * The base of the backend conformance suite (TCK). A backend proves it conforms by extending {@link
 * BackendConformance}, which runs every {@code *Tck} class of this package, and naming its
 * configuration and device type:
 *
 * <pre>{@code
 * @BackendUnderTest(deviceType = "my")
 * class MyConformanceTest extends BackendConformance {}
 * }</pre>
 *
 * <p>A single area runs the same way as a nested class: {@code @Nested class Streams extends
 * StreamTck {}} inside a class annotated with {@link BackendUnderTest}.
 *
 * <p>One {@link Accelerator} is started per test class from {@link #backendConfig()} and closed
 * after it. For each {@link Capability}, a backend that declares it must make it work, and one that
 * does not must throw {@link UnsupportedOperationException} whose message contains "&lt;device
 * type&gt; doesn't support". Assumptions only choose between those two branches; every suite class
 * asserts something whatever a backend declares.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class BackendTck {
  /** The bound of every wait in the suite. */
  protected static final Duration WAIT = Gates.WAIT;

  private final List<CountDownLatch> gates = new CopyOnWriteArrayList<>();
  private Accelerator accelerator;
  private Object suite; // the instance whose class names the backend, when not an enclosing one

  /**
   * Runs this area for {@code suite}, whose class (or an enclosing one) carries the {@link
   * BackendUnderTest}: for areas declared once in a base class such as {@link BackendConformance}.
   */
  protected final void runFor(Object suite) {
    this.suite = suite;
  }

  /**
   * The configuration the accelerator under test starts with: by default the {@link
   * BackendUnderTest} configuration, an {@code openaccel.system-name} of this suite class's own,
   * and the test configuration. An override should also give each test class its own system name.
   */
  protected Config backendConfig() {
    String name = "tck-" + backendUnderTest().deviceType() + "-" + getClass().getSimpleName();
    return ConfigFactory.parseString(backendUnderTest().config())
        .withFallback(
            ConfigFactory.parseString(
                "openaccel.system-name = \"" + name.toLowerCase(Locale.ROOT) + "\""))
        .withFallback(ConfigFactory.parseResources("application-test.conf"));
  }

  /** The device type of the backend under test: by default the {@link BackendUnderTest} one. */
  protected DeviceType deviceType() {
    return DeviceType.of(backendUnderTest().deviceType());
  }

  private BackendUnderTest backendUnderTest() {
    for (Class<?> c = suite != null ? suite.getClass() : getClass();
        c != null;
        c = c.getEnclosingClass()) {
      BackendUnderTest found = c.getAnnotation(BackendUnderTest.class);
      if (found != null) {
        return found;
      }
    }
    throw new IllegalStateException(
        getClass().getName()
            + " names no backend: annotate it (or its enclosing class) with @BackendUnderTest, or"
            + " override deviceType() and backendConfig()");
  }

  @BeforeAll
  final void startAccelerator() {
    accelerator = Accelerator.start(backendConfig());
    assertTrue(
        accelerator.deviceTypes().contains(deviceType()),
        () -> "no backend " + deviceType() + " among " + accelerator.deviceTypes());
  }

  @AfterAll
  final void closeAccelerator() {
    if (accelerator != null) {
      accelerator.close();
    }
  }

  /** Opens every gate a test left closed, drains failures it left behind, resets the context. */
  @AfterEach
  final void cleanUpAfterTest() throws Exception {
    gates.forEach(CountDownLatch::countDown);
    gates.clear();
    for (int i = 0; i < deviceCount(); i++) {
      try {
        await(accelerator.synchronizeAsync(device(i)));
      } catch (ExecutionException leftBehind) {
        // a test that provokes kernel failures leaves them here; the next test starts clean
      }
      accelerator.setStream(accelerator.defaultStream(device(i)));
    }
    accelerator.setDevice(device(0));
  }

  // ---- the backend under test ----

  /**
   * The accelerator under test, started before the class's first test and closed after its last.
   */
  protected final Accelerator accelerator() {
    assertNotNull(accelerator, "the accelerator has not been started");
    return accelerator;
  }

  /** The router to the backend under test, as users of the SPI reach it. */
  protected final VirtualGuardImpl backend() {
    return accelerator().deviceGuardImpl(deviceType());
  }

  /** Whether the backend under test declares {@code capability}. */
  protected final boolean declares(Capability capability) {
    return backend().capabilities().contains(capability);
  }

  /** Selects the "declared" branch of a capability check. */
  protected final void assumeDeclared(Capability capability) {
    Assumptions.assumeTrue(
        declares(capability), () -> deviceType() + " does not declare " + capability);
  }

  /** Selects the "undeclared" branch of a capability check. */
  protected final void assumeUndeclared(Capability capability) {
    Assumptions.assumeFalse(declares(capability), () -> deviceType() + " declares " + capability);
  }

  /** Skips the test unless the backend under test has at least {@code atLeast} devices. */
  protected final void assumeDevices(int atLeast) {
    Assumptions.assumeTrue(
        deviceCount() >= atLeast,
        () -> deviceType() + " has " + deviceCount() + " devices, this check needs " + atLeast);
  }

  /** The number of devices of the backend under test. */
  protected final int deviceCount() {
    return accelerator().deviceCount(deviceType());
  }

  /** Device {@code index} of the backend under test. */
  protected final Device device(int index) {
    return Device.of(deviceType(), index);
  }

  /** A new stream on device {@code deviceIndex} of the backend under test. */
  protected final Stream newStream(int deviceIndex) {
    return accelerator().newStream(device(deviceIndex));
  }

  /** A new event of the backend under test, created with {@code options}. */
  protected final Event newEvent(EventOptions options) {
    return accelerator().newEvent(deviceType(), options);
  }

  /** A new event of the backend under test, with the default options. */
  protected final Event newEvent() {
    return newEvent(EventOptions.defaults());
  }

  // ---- assertions ----

  /** Asserts that {@code call} throws the backend's "doesn't support" error and returns it. */
  protected final UnsupportedOperationException assertUnsupported(Executable call) {
    return assertThrowsWith(
        UnsupportedOperationException.class, deviceType().name() + " doesn't support", call);
  }

  /** Asserts that {@code call} throws {@code type} with a message containing {@code phrase}. */
  public static <T extends Throwable> T assertThrowsWith(
      Class<T> type, String phrase, Executable call) {
    T e = assertThrows(type, call);
    assertTrue(
        e.getMessage() != null && e.getMessage().contains(phrase),
        () -> "expected a message containing '" + phrase + "', got: " + e.getMessage());
    return e;
  }

  // ---- bounded waiting ----

  /** A latch that kernels wait on; it is opened after the test at the latest. */
  protected final CountDownLatch gate() {
    CountDownLatch gate = new CountDownLatch(1);
    gates.add(gate);
    return gate;
  }

  /** Enqueues a kernel on {@code stream} that holds the stream until {@code gate} opens. */
  protected static void hold(Stream stream, CountDownLatch gate) {
    stream.launch("hold", () -> awaitInKernel(gate));
  }

  /** Waits for {@code latch} inside a kernel; fails the kernel if it does not open in time. */
  protected static void awaitInKernel(CountDownLatch latch) {
    Gates.await(latch);
  }

  /** Asserts that {@code latch} opens within {@link #WAIT}. */
  protected static void assertOpens(CountDownLatch latch) throws InterruptedException {
    assertTrue(latch.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "latch not opened in time");
  }

  /** The value of {@code stage}, waiting at most {@link #WAIT}. */
  protected static <T> T await(CompletionStage<T> stage)
      throws InterruptedException, ExecutionException, TimeoutException {
    return stage.toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Runs {@code body} on a fresh thread, which starts with an empty device context. */
  protected static <T> T onNewThread(Callable<T> body) throws Exception {
    CompletableFuture<T> result = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                result.complete(body.call());
              } catch (Throwable t) {
                result.completeExceptionally(t);
              }
            },
            "tck-fresh-thread");
    thread.start();
    try {
      return await(result);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }

  /** Busy-spins the calling (kernel) thread for at least {@code nanos}, by the monotonic clock. */
  protected static void spin(long nanos) {
    long until = System.nanoTime() + nanos;
    while (System.nanoTime() - until < 0) {
      Thread.onSpinWait();
    }
  }

  /** A message for assertion failures that names the backend. */
  protected final Supplier<String> about(String what) {
    return () -> deviceType() + ": " + what;
  }
}
