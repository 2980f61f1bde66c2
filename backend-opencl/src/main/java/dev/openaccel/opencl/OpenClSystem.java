package dev.openaccel.opencl;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;

/**
 * Where an actor system keeps its accelerator's OpenCL backend, so that {@link OpenCl#get} finds it
 * without JVM-global state: one per actor system, like the accelerator itself.
 *
 * <p>Owns: the reference to the backend, set once by the provider.
 */
final class OpenClSystem implements Extension {
  private static final ExtensionId<OpenClSystem> ID =
      new ExtensionId<>() {
        @Override
        public OpenClSystem createExtension(ActorSystem<?> system) {
          return new OpenClSystem();
        }
      };

  private final AtomicReference<OpenClBackend> backend = new AtomicReference<>();

  static OpenClSystem of(ActorSystem<?> system) {
    return ID.apply(system);
  }

  /**
   * Keeps {@code created}, the system's backend.
   *
   * @throws IllegalStateException if the system already has one
   */
  void install(OpenClBackend created) {
    if (!backend.compareAndSet(null, created)) {
      throw new IllegalStateException("this actor system already has an opencl backend");
    }
  }

  /** The system's backend, or null if none was created. */
  OpenClBackend backend() {
    return backend.get();
  }
}
