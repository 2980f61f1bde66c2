package dev.openaccel.opencl;

import com.typesafe.config.ConfigFactory;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Tests that need an OpenCL platform: skipped (reported as such) where none is installed, unless
 * the system property {@code openaccel.opencl.required=true} is set, which turns a missing platform
 * into a failure (CI sets it).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(RequiresOpenCl.Condition.class)
public @interface RequiresOpenCl {

  /** Probes the configured platform once per JVM. */
  final class Condition implements ExecutionCondition {
    private static final ClPlatforms.Probe PROBE =
        ClPlatforms.probe(OpenClSettings.from(ConfigFactory.load()));

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      if (PROBE instanceof ClPlatforms.Unavailable u) {
        if (Boolean.getBoolean("openaccel.opencl.required")) {
          throw new AssertionError(
              "openaccel.opencl.required is set but OpenCL is unavailable: " + u.reason());
        }
        return ConditionEvaluationResult.disabled("no OpenCL: " + u.reason());
      }
      return ConditionEvaluationResult.enabled(
          "OpenCL: " + ((ClPlatforms.Found) PROBE).platformName());
    }
  }
}
