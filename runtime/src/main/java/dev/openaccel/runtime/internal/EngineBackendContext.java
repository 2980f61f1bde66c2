package dev.openaccel.runtime.internal;

import com.typesafe.config.Config;
import dev.openaccel.runtime.DeviceType;
import dev.openaccel.runtime.internal.engine.ActorEngine;
import dev.openaccel.runtime.internal.engine.AfterTermination;
import dev.openaccel.runtime.internal.engine.SanitizerMode;
import dev.openaccel.runtime.spi.BackendContext;
import dev.openaccel.runtime.spi.ConfigValues;
import dev.openaccel.runtime.spi.CurrentContext;
import dev.openaccel.runtime.spi.Engine;
import dev.openaccel.runtime.spi.EngineSpec;
import dev.openaccel.runtime.trace.Tracer;
import java.time.Duration;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * The {@link BackendContext} one backend's provider gets: the system, its configuration, the trace
 * bus, the callers' device contexts, and the actor engine. Internal.
 *
 * <p>Owns: nothing mutable.
 */
final class EngineBackendContext implements BackendContext {
  private final ActorSystem<?> system;
  private final Tracer tracer;
  private final CurrentContext current;
  private final DeviceType type;

  EngineBackendContext(
      ActorSystem<?> system, Tracer tracer, CurrentContext current, DeviceType type) {
    this.system = system;
    this.tracer = tracer;
    this.current = current;
    this.type = type;
  }

  @Override
  public ActorSystem<?> system() {
    return system;
  }

  @Override
  public Config config() {
    return system.settings().config();
  }

  @Override
  public Tracer tracer() {
    return tracer;
  }

  @Override
  public CurrentContext currentContext() {
    return current;
  }

  @Override
  public void afterTermination(String what, Runnable release) {
    AfterTermination.get(system).run(what, release);
  }

  @Override
  public Engine engine(EngineSpec spec) {
    if (!spec.type().equals(type)) {
      throw new IllegalArgumentException(
          "the provider of device type " + type + " asked for an engine of type " + spec.type());
    }
    Duration syncTimeout = config().getDuration("openaccel.device-synchronize-timeout");
    SanitizerMode sanitizer =
        ConfigValues.choice(config(), "openaccel.sanitizer", SanitizerMode.values());
    return new ActorEngine(spec, system, tracer, current, syncTimeout, sanitizer);
  }
}
