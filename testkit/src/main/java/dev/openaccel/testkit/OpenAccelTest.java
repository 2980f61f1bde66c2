package dev.openaccel.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a JUnit 5 test class with {@link OpenAccelExtension}: its tests get an {@code Accelerator}
 * as a parameter and fail when they leave streams with work, events, device buffers or threads
 * behind. Without this annotation ({@code @ExtendWith(OpenAccelExtension.class)} alone) the
 * defaults apply.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(OpenAccelExtension.class)
public @interface OpenAccelTest {

  /**
   * The device type the accelerator started for the class uses by default ({@code
   * openaccel.default-device-type}); its backend must be on the test class path, or the class's
   * tests fail with an {@link IllegalArgumentException} naming it. Ignored when the class has a
   * Pekko {@code ActorTestKit}.
   */
  String backend() default "openreg";

  /**
   * Extra configuration (HOCON) for the accelerator started for the class, over the application's
   * configuration; its {@code openaccel.system-name} is the class's own unless given here. Ignored
   * when the class has a Pekko {@code ActorTestKit}.
   */
  String config() default "";

  /**
   * How long, in milliseconds, the check after each test waits at most for the devices to finish
   * their work and for the threads the test started to end, before it reports them. Zero or more.
   */
  long settleMillis() default 1000;
}
