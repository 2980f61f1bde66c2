package dev.openaccel.samples.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class PipelineBackendConfigTest {

  @Test
  void theDefaultRunLeavesTheOpenClBackendOff() {
    PipelineOptions options = new PipelineOptions(64, 64, 1, 1, Path.of("unused"), "openreg");

    var config = options.backendConfig();

    assertEquals("openreg", config.getString("openaccel.default-device-type"));
    assertEquals(List.of("toyreg", "opencl"), config.getStringList("openaccel.disabled-backends"));
  }

  @Test
  void anOpenClRunEnablesIt() {
    PipelineOptions options = new PipelineOptions(64, 64, 1, 1, Path.of("unused"), "opencl");

    var config = options.backendConfig();

    assertEquals("opencl", config.getString("openaccel.default-device-type"));
    assertEquals(List.of("toyreg"), config.getStringList("openaccel.disabled-backends"));
  }
}
