package dev.openaccel.openreg;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.openaccel.runtime.DeviceType;
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
import java.util.Locale;
import org.junit.jupiter.api.Nested;

/**
 * The runtime's backend conformance suite (TCK) against OpenReg, one nested class per area. OpenReg
 * declares every capability except {@code DEVICE_MEMORY}, so the suite proves each of them works.
 */
class OpenRegConformanceTest {

  /** Two OpenReg devices (the default), in an actor system named after the area. */
  static Config config(Class<?> area) {
    return ConfigFactory.parseString(
            "openaccel.system-name = openreg-tck-" + area.getSimpleName().toLowerCase(Locale.ROOT))
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
      return OpenRegProvider.TYPE;
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
      return OpenRegProvider.TYPE;
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
      return OpenRegProvider.TYPE;
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
      return OpenRegProvider.TYPE;
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
      return OpenRegProvider.TYPE;
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
      return OpenRegProvider.TYPE;
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
      return OpenRegProvider.TYPE;
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
      return OpenRegProvider.TYPE;
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
      return OpenRegProvider.TYPE;
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
      return OpenRegProvider.TYPE;
    }
  }
}
