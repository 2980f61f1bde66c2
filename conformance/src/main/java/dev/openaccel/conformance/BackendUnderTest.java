package dev.openaccel.conformance;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the backend a conformance test runs against. Put it on the test class, or on the class that
 * encloses its {@code @Nested} suite classes, instead of overriding {@link BackendTck#deviceType()}
 * and {@link BackendTck#backendConfig()} in each.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface BackendUnderTest {

  /** The device type, e.g. {@code "openreg"}. */
  String deviceType();

  /**
   * Extra configuration (HOCON) for the accelerator under test, e.g. {@code
   * openaccel.default-device-type} when several backends are on the class path. Each suite class
   * gets its own {@code openaccel.system-name}.
   */
  String config() default "";
}
