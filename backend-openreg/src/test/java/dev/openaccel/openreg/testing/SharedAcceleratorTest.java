package dev.openaccel.openreg.testing;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.Accelerator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Base of the test classes that share one accelerator, started from {@link #config()}: it starts
 * before the class's first test and closes after its last, and after each test device 0 and the
 * default streams are current again ({@link KernelLatches#resetContext}), so that no test sees the
 * device context another one left.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class SharedAcceleratorTest {
  /** The class's accelerator, between its first and last test. */
  protected Accelerator acc;

  /** The accelerator's configuration; the default one unless a class needs its own. */
  protected Config config() {
    return ConfigFactory.load();
  }

  @BeforeAll
  void startAccelerator() {
    acc = Accelerator.start(config());
  }

  @AfterAll
  void closeAccelerator() {
    if (acc != null) { // null if it failed to start: that failure is the one to report
      acc.close();
    }
  }

  @AfterEach
  void resetContext() {
    if (acc != null) {
      KernelLatches.resetContext(acc);
    }
  }
}
