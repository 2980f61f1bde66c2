package dev.openaccel.conformance;

import org.junit.jupiter.api.Nested;

/**
 * The whole conformance suite, one nested class per area. A backend's test extends it and names the
 * backend under test:
 *
 * <pre>{@code
 * @BackendUnderTest(deviceType = "my")
 * class MyConformanceTest extends BackendConformance {}
 * }</pre>
 *
 * <p>Each area tells its suite which class it runs for, so that the {@link BackendUnderTest} of the
 * extending class applies.
 */
public abstract class BackendConformance {

  @Nested
  class Devices extends DeviceTck {
    Devices() {
      runFor(BackendConformance.this);
    }
  }

  @Nested
  class Streams extends StreamTck {
    Streams() {
      runFor(BackendConformance.this);
    }
  }

  @Nested
  class StreamClosing extends StreamCloseTck {
    StreamClosing() {
      runFor(BackendConformance.this);
    }
  }

  @Nested
  class StreamBounds extends StreamBoundTck {
    StreamBounds() {
      runFor(BackendConformance.this);
    }
  }

  @Nested
  class StreamPools extends StreamPoolTck {
    StreamPools() {
      runFor(BackendConformance.this);
    }
  }

  @Nested
  class Events extends EventTck {
    Events() {
      runFor(BackendConformance.this);
    }
  }

  @Nested
  class EventBlocks extends EventBlockTck {
    EventBlocks() {
      runFor(BackendConformance.this);
    }
  }

  @Nested
  class Timing extends TimingTck {
    Timing() {
      runFor(BackendConformance.this);
    }
  }

  @Nested
  class Interprocess extends InterprocessTck {
    Interprocess() {
      runFor(BackendConformance.this);
    }
  }

  @Nested
  class Priorities extends PriorityTck {
    Priorities() {
      runFor(BackendConformance.this);
    }
  }

  @Nested
  class CrossDevice extends CrossDeviceTck {
    CrossDevice() {
      runFor(BackendConformance.this);
    }
  }

  @Nested
  class Memory extends MemoryTck {
    Memory() {
      runFor(BackendConformance.this);
    }
  }

  @Nested
  class MemoryControls extends MemoryControlTck {
    MemoryControls() {
      runFor(BackendConformance.this);
    }
  }

  @Nested
  class Graphs extends GraphTck {
    Graphs() {
      runFor(BackendConformance.this);
    }
  }

  @Nested
  class GraphCaptures extends GraphCaptureTck {
    GraphCaptures() {
      runFor(BackendConformance.this);
    }
  }

  @Nested
  class StopWindow extends StopWindowTck {
    StopWindow() {
      runFor(BackendConformance.this);
    }
  }
}
