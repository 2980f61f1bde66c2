package dev.openaccel.testkit;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.DeviceType;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * A JUnit 5 extension that gives tests an {@link Accelerator} and fails each test that leaves work
 * or resources behind. Register it with {@link OpenAccelTest} (or {@code @ExtendWith}).
 *
 * <p>Which accelerator: if the test class has a Pekko {@link ActorTestKit} in a field (static, or
 * an instance field such as the one Pekko's {@code TestKitJUnit5Extension} reads), the accelerator
 * of its actor system ({@link Accelerator#get}); the test kit's owner shuts it down. Otherwise one
 * started for the test class (each {@code @Nested} class too) with {@link OpenAccelTest}'s backend
 * and configuration and a system name made from the class's name, and closed after the class's
 * {@code @AfterAll} methods. It is injected into any parameter of type {@code Accelerator} of a
 * test's constructor, lifecycle methods or test methods.
 *
 * <p>The check after each test (after its {@code @AfterEach} methods) fails the test, naming each,
 * for streams it created with unfinished work, backend events (created by an event's first record)
 * and device buffers it did not close, devices still busy and threads it started that still run. It
 * reads the accelerator's trace bus, which it subscribes to before each test, so work of another
 * test running at the same time on the same accelerator counts too: run such tests one at a time.
 *
 * <p>After the check it removes what {@link Faults}, {@link StreamStepper} and {@link ManualClock}
 * set on the accelerator, letting held work go, so the next test starts without them.
 *
 * <p>Owns: nothing; its state lives in JUnit's extension context stores, per class and per test.
 * This class is thread-safe.
 */
public final class OpenAccelExtension
    implements BeforeEachCallback, AfterEachCallback, AfterAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(OpenAccelExtension.class);
  private static final String OWNED = "accelerator";
  private static final String CHECK = "check";

  /** For JUnit, which creates the extension. */
  public OpenAccelExtension() {}

  @Override
  public void beforeEach(ExtensionContext context) {
    long settle = settings(context).settleMillis();
    if (settle < 0) {
      throw new IllegalArgumentException(
          "@OpenAccelTest(settleMillis = " + settle + ") must be zero or more");
    }
    LeakCheck check = LeakCheck.begin(accelerator(context), Duration.ofMillis(settle));
    context.getStore(NAMESPACE).put(CHECK, check);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    LeakCheck check = context.getStore(NAMESPACE).remove(CHECK, LeakCheck.class);
    if (check == null) {
      return; // beforeEach failed: nothing was watched
    }
    List<String> problems;
    try {
      problems = check.finish();
    } finally {
      TestControl.of(accelerator(context)).reset(); // held work goes; faults and clock end
    }
    if (!problems.isEmpty()) {
      throw new AssertionError("the test left behind:\n  " + String.join("\n  ", problems), null);
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    Accelerator owned = context.getStore(NAMESPACE).remove(OWNED, Accelerator.class);
    if (owned != null) {
      owned.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == Accelerator.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return accelerator(context);
  }

  /** The test kit's accelerator if the class has one, else the one started for the class. */
  private static Accelerator accelerator(ExtensionContext context) {
    return testKit(context)
        .map(kit -> Accelerator.get(kit.system()))
        .orElseGet(
            () ->
                classContext(context)
                    .getStore(NAMESPACE)
                    .getOrComputeIfAbsent(
                        OWNED, key -> start(context.getRequiredTestClass()), Accelerator.class));
  }

  private static Accelerator start(Class<?> testClass) {
    OpenAccelTest settings = settings(testClass);
    String name = "openaccel-test-" + testClass.getName().replaceAll("^.*\\.|[^A-Za-z0-9]", "");
    Config defaults =
        ConfigFactory.parseString(
            "openaccel.system-name = \""
                + name
                + "\"\nopenaccel.default-device-type = \""
                + settings.backend()
                + "\"");
    Accelerator accelerator =
        Accelerator.start(
            ConfigFactory.load(
                ConfigFactory.parseString(settings.config()).withFallback(defaults)));
    // The runtime accepts a default device type without a backend until it is used; fail here.
    if (!accelerator.deviceTypes().contains(DeviceType.of(settings.backend()))) {
      accelerator.close();
      throw new IllegalArgumentException(
          "@OpenAccelTest(backend = \""
              + settings.backend()
              + "\") of "
              + testClass.getName()
              + ": no such backend on the class path (found "
              + accelerator.deviceTypes()
              + ")");
    }
    return accelerator;
  }

  /** The first non-null {@link ActorTestKit} field: static ones, then the test instances' own. */
  private static Optional<ActorTestKit> testKit(ExtensionContext context) {
    List<Field> fields =
        ReflectionSupport.findFields(
            context.getRequiredTestClass(),
            field -> ActorTestKit.class.isAssignableFrom(field.getType()),
            HierarchyTraversalMode.TOP_DOWN);
    List<Object> instances =
        context.getTestInstances().map(i -> i.getAllInstances()).orElse(List.of());
    for (Field field : fields) {
      if (Modifier.isStatic(field.getModifiers())) {
        Object kit = ReflectionSupport.tryToReadFieldValue(field, null).toOptional().orElse(null);
        if (kit != null) {
          return Optional.of((ActorTestKit) kit);
        }
      }
    }
    for (Object instance : instances) {
      for (Field field : fields) {
        if (!Modifier.isStatic(field.getModifiers())
            && field.getDeclaringClass().isInstance(instance)) {
          Object kit =
              ReflectionSupport.tryToReadFieldValue(field, instance).toOptional().orElse(null);
          if (kit != null) {
            return Optional.of((ActorTestKit) kit);
          }
        }
      }
    }
    return Optional.empty();
  }

  /** The context of the test class: the test's own for a class, its parent for a method. */
  private static ExtensionContext classContext(ExtensionContext context) {
    ExtensionContext current = context;
    while (current.getTestMethod().isPresent()) {
      current = current.getParent().orElseThrow();
    }
    return current;
  }

  private static OpenAccelTest settings(ExtensionContext context) {
    return settings(context.getRequiredTestClass());
  }

  /** The annotation on the class, its superclasses or its enclosing classes; else the defaults. */
  private static OpenAccelTest settings(Class<?> testClass) {
    for (Class<?> c = testClass; c != null; c = c.getEnclosingClass()) {
      Optional<OpenAccelTest> found = AnnotationSupport.findAnnotation(c, OpenAccelTest.class);
      if (found.isPresent()) {
        return found.get();
      }
    }
    return Defaults.class.getAnnotation(OpenAccelTest.class);
  }

  @OpenAccelTest
  private static final class Defaults {}
}
