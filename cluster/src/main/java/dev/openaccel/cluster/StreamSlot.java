package dev.openaccel.cluster;

import dev.openaccel.runtime.DeviceBuffer;
import dev.openaccel.runtime.Stream;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * Puts a collective operation in its place on a stream, with the stream's own calls only:
 *
 * <pre>
 *   copyToHost(input, host)      reads the input after the work enqueued before it
 *   submit(start)                the operation starts when the stream reaches it
 *   waitFor(done)                the stream holds, no thread blocks, until the result is on the host
 *   copyToDevice(host, output)   the result goes to the output buffer
 *   submit(written)              the Work completes once the output is written
 * </pre>
 *
 * Work enqueued later on the stream runs after the copy into the output, so it sees the result.
 * Internal; stateless.
 */
final class StreamSlot {
  private StreamSlot() {}

  /**
   * Enqueues the operation {@code what} on {@code stream}: {@code input} (or nothing) is copied to
   * {@code inHost}, {@code protocol} runs on {@code executor} when the stream reaches it, then
   * {@code outHost} is copied to {@code output} (or nothing).
   */
  static Work enqueue(
      Stream stream,
      String what,
      DeviceBuffer input,
      ByteBuffer inHost,
      DeviceBuffer output,
      ByteBuffer outHost,
      Supplier<CompletableFuture<Void>> protocol,
      Executor executor,
      ActorSystem<?> system) {
    if (input != null) {
      stream.copyToHost(input, inHost);
    }
    CompletableFuture<Void> done =
        stream
            .submit(what, () -> null)
            .toCompletableFuture()
            .thenComposeAsync(ignored -> protocol.get(), executor);
    stream.waitFor(done);
    if (output != null) {
      stream.copyToDevice(outHost, output);
    }
    CompletableFuture<Void> written =
        stream.<Void>submit(what + " result", () -> null).toCompletableFuture();
    // Completed by the stream's own turn that ends the operation (done has completed by then, as
    // the stream waited for it), so whatever the stream runs next already sees the Work done; a
    // relay through done's thread could complete it later than that.
    CompletableFuture<Void> work = new CompletableFuture<>();
    written.whenComplete(
        (ok, failure) ->
            done.whenComplete(
                (protocolOk, protocolFailure) -> {
                  Throwable why = protocolFailure != null ? protocolFailure : failure;
                  if (why == null) {
                    work.complete(null);
                  } else {
                    work.completeExceptionally(why);
                  }
                }));
    return new Work(what, work, system);
  }
}
