package dev.openaccel.runtime.spi;

import com.typesafe.config.Config;
import dev.openaccel.runtime.trace.Tracer;
import org.apache.pekko.actor.typed.ActorSystem;

/** What the runtime hands a backend when it creates it: one per backend per {@code Accelerator}. */
public interface BackendContext {

  /**
   * The actor system the accelerator belongs to; the backend's actors live under its system
   * guardian.
   */
  ActorSystem<?> system();

  /**
   * The system's configuration; a backend reads its own section, e.g. {@code openaccel.openreg}.
   */
  Config config();

  /** Where the backend publishes trace events; check {@code enabled()} before building one. */
  Tracer tracer();

  /** The caller's device context, which {@code getDevice}/{@code setDevice} read and write. */
  CurrentContext currentContext();

  /**
   * OpenAccel's actor engine for this backend, described by {@code spec}; call it once, from the
   * provider's {@code create}. The engine's device actors live under the system guardian.
   *
   * @throws IllegalArgumentException if {@code spec} is of another device type than the provider's
   */
  Engine engine(EngineSpec spec);

  /**
   * Runs {@code release} once the actor system has terminated, when every actor of the backend has
   * stopped: the place to free native handles (contexts, programs, queues). An accelerator that
   * owns its system returns from {@code close()} only after every such release has run.
   *
   * @param what what is released, for the log if {@code release} throws
   */
  default void afterTermination(String what, Runnable release) {
    system().getWhenTerminated().thenRun(release);
  }
}
