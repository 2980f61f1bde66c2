package dev.openaccel.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.tck.CrossDeviceTck;
import dev.openaccel.runtime.tck.DeviceTck;
import dev.openaccel.runtime.tck.EventBlockTck;
import dev.openaccel.runtime.tck.EventTck;
import dev.openaccel.runtime.tck.InterprocessTck;
import dev.openaccel.runtime.tck.MemoryTck;
import dev.openaccel.runtime.tck.PriorityTck;
import dev.openaccel.runtime.tck.StreamPoolTck;
import dev.openaccel.runtime.tck.StreamTck;
import dev.openaccel.runtime.tck.TimingTck;
import dev.openaccel.runtime.testing.MinimalBackendProvider;
import java.util.Locale;
import org.junit.jupiter.api.Nested;

/**
 * The conformance suite against the {@code minimal} test backend, which declares only {@code
 * EVENTS}: it proves that the engine reports every undeclared capability as unsupported.
 */
class MinimalBackendConformanceTest {

  /** The minimal backend as default device type, in an actor system named after the area. */
  static Config config(Class<?> area) {
    return ConfigFactory.parseString(
            "openaccel.system-name = minimal-tck-"
                + area.getSimpleName().toLowerCase(Locale.ROOT)
                + "\nopenaccel.default-device-type = minimal"
                + "\nopenaccel.disabled-backends = [broken]")
        .withFallback(ConfigFactory.parseResources("application-test.conf"));
  }

  @Nested
  class Devices extends DeviceTck {
    @Override
    protected Config backendConfig() {
      return config(getClass());
    }

    @Override
    protected DeviceType deviceType() {
      return MinimalBackendProvider.TYPE;
    }
  }

  @Nested
  class Streams extends StreamTck {
    @Override
    protected Config backendConfig() {
      return config(getClass());
    }

    @Override
    protected DeviceType deviceType() {
      return MinimalBackendProvider.TYPE;
    }
  }

  @Nested
  class StreamPools extends StreamPoolTck {
    @Override
    protected Config backendConfig() {
      return config(getClass());
    }

    @Override
    protected DeviceType deviceType() {
      return MinimalBackendProvider.TYPE;
    }
  }

  @Nested
  class Events extends EventTck {
    @Override
    protected Config backendConfig() {
      return config(getClass());
    }

    @Override
    protected DeviceType deviceType() {
      return MinimalBackendProvider.TYPE;
    }
  }

  @Nested
  class EventBlocks extends EventBlockTck {
    @Override
    protected Config backendConfig() {
      return config(getClass());
    }

    @Override
    protected DeviceType deviceType() {
      return MinimalBackendProvider.TYPE;
    }
  }

  @Nested
  class Timing extends TimingTck {
    @Override
    protected Config backendConfig() {
      return config(getClass());
    }

    @Override
    protected DeviceType deviceType() {
      return MinimalBackendProvider.TYPE;
    }
  }

  @Nested
  class Interprocess extends InterprocessTck {
    @Override
    protected Config backendConfig() {
      return config(getClass());
    }

    @Override
    protected DeviceType deviceType() {
      return MinimalBackendProvider.TYPE;
    }
  }

  @Nested
  class Priorities extends PriorityTck {
    @Override
    protected Config backendConfig() {
      return config(getClass());
    }

    @Override
    protected DeviceType deviceType() {
      return MinimalBackendProvider.TYPE;
    }
  }

  @Nested
  class CrossDevice extends CrossDeviceTck {
    @Override
    protected Config backendConfig() {
      return config(getClass());
    }

    @Override
    protected DeviceType deviceType() {
      return MinimalBackendProvider.TYPE;
    }
  }

  @Nested
  class Memory extends MemoryTck {
    @Override
    protected Config backendConfig() {
      return config(getClass());
    }

    @Override
    protected DeviceType deviceType() {
      return MinimalBackendProvider.TYPE;
    }
  }
}
