package dev.openaccel.runtime.spi;

import java.util.Objects;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;

/**
 * Where an actor system keeps its {@link DeviceControl}: a Pekko extension, so that two systems in
 * one JVM have one each and no state is global. The engines keep this slot and read it once per
 * kernel or copy.
 *
 * <p>Owns: the installed control, written under this object's monitor and read without a lock.
 */
public final class DeviceControlSlot implements Extension {

  private static final class Id extends ExtensionId<DeviceControlSlot> {
    private static final Id INSTANCE = new Id();

    @Override
    public DeviceControlSlot createExtension(ActorSystem<?> system) {
      return new DeviceControlSlot();
    }
  }

  private volatile DeviceControl control;

  private DeviceControlSlot() {}

  /** The slot of {@code system}. This method is thread-safe. */
  public static DeviceControlSlot of(ActorSystem<?> system) {
    return Id.INSTANCE.apply(Objects.requireNonNull(system, "system"));
  }

  synchronized void install(DeviceControl candidate) {
    Objects.requireNonNull(candidate, "control");
    if (control != null && control != candidate) {
      throw new IllegalStateException("a device control is already installed: " + control);
    }
    control = candidate;
  }

  synchronized void uninstall(DeviceControl candidate) {
    if (control == candidate) {
      control = null;
    }
  }

  /** The installed control, or null. This method is thread-safe. */
  public DeviceControl get() {
    return control;
  }
}
