package dev.openaccel.testkit.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.Stream;
import dev.openaccel.testkit.OpenAccelTest;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@OpenAccelTest // OpenReg by default; @OpenAccelTest(backend = "opencl") for another backend
class SquaresTest {

  @Test
  void squaresOnAStreamOfItsOwn(Accelerator accelerator) throws Exception {
    try (Stream stream = accelerator.newStream()) {
      int square =
          stream.submit("square", () -> 7 * 7).toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertEquals(49, square);
    } // closing the stream, buffers and events here is what the check after the test asks for
  }
}
