package dev.openaccel.opencl;

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
 * The runtime's backend conformance suite (TCK) against OpenCL, one nested class per area: the
 * declared capabilities work, and {@code STREAM_PRIORITIES}, undeclared, collapses to priority 0.
 */
@RequiresOpenCl
@BackendUnderTest(deviceType = "opencl", config = "openaccel.default-device-type = opencl")
class OpenClConformanceTest {

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
