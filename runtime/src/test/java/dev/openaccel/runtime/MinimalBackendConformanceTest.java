package dev.openaccel.runtime;

import dev.openaccel.runtime.tck.BackendUnderTest;
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
import org.junit.jupiter.api.Nested;

/**
 * The conformance suite against the {@code minimal} test backend, which declares only {@code
 * EVENTS}: it proves that the engine reports every undeclared capability as unsupported.
 */
@BackendUnderTest(
    deviceType = "minimal",
    config = "openaccel.default-device-type = minimal\nopenaccel.disabled-backends = [broken]")
class MinimalBackendConformanceTest {

  @Nested
  class Devices extends DeviceTck {}

  @Nested
  class Streams extends StreamTck {}

  @Nested
  class StreamPools extends StreamPoolTck {}

  @Nested
  class Events extends EventTck {}

  @Nested
  class EventBlocks extends EventBlockTck {}

  @Nested
  class Timing extends TimingTck {}

  @Nested
  class Interprocess extends InterprocessTck {}

  @Nested
  class Priorities extends PriorityTck {}

  @Nested
  class CrossDevice extends CrossDeviceTck {}

  @Nested
  class Memory extends MemoryTck {}
}
