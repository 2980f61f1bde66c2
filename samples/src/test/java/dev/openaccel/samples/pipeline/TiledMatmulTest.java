package dev.openaccel.samples.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Device;
import dev.openaccel.samples.cli.UsageException;
import dev.openaccel.testkit.OpenAccelTest;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How the multiply is split into jobs, and what happens when its tile buffers do not fit: on an
 * accelerator whose OpenReg devices have 64 KiB each.
 */
@Timeout(60)
@OpenAccelTest(config = "openaccel.openreg.memory-per-device = 64KiB")
class TiledMatmulTest {

  private static PipelineOptions options(int size, int tile, int devices, int streams) {
    return new PipelineOptions(size, tile, devices, streams, Path.of("unused"));
  }

  @Test
  void jobsCoverEveryOutputTileOnceRoundRobinOverDevicesThenLanes() {
    List<TileJob> jobs = TiledMatmul.jobs(options(64, 16, 2, 3));
    assertEquals(16, jobs.size());
    Set<String> tiles = new HashSet<>();
    for (int t = 0; t < jobs.size(); t++) {
      TileJob job = jobs.get(t);
      tiles.add(job.row() + "," + job.col());
      assertEquals(t % 2, job.device(), "tile " + t);
      assertEquals(t / 2 % 3, job.lane(), "tile " + t);
    }
    assertEquals(16, tiles.size(), "every output tile exactly once");
    assertEquals("gemm C[1,2] k=3", new TileJob(1, 2, 0, 0).kernelName(3));
  }

  @Test
  void tileBuffersThatDoNotFitAreAUsageErrorAndLeaveNothingAllocated(Accelerator accelerator)
      throws Exception {
    PipelineOptions small = options(64, 64, 1, 1); // six 16 KiB tiles on a 64 KiB device
    HostTiles host = HostTiles.pack(new float[64 * 64], new float[64 * 64], 64, 64);
    Progress progress = Progress.of(new PrintStream(OutputStream.nullOutputStream()));
    UsageException e =
        assertThrows(
            UsageException.class, () -> TiledMatmul.run(accelerator, small, host, progress));
    assertTrue(
        e.getMessage().contains("needs 0.1 MiB of tile buffers on openreg:0"), e.getMessage());
    Device device = Device.parse("openreg:0");
    accelerator.synchronize(device);
    assertEquals(0, accelerator.memoryStats(device).allocated());
  }
}
