package dev.openaccel.openreg;

import dev.openaccel.runtime.Accelerator;
import dev.openaccel.runtime.EventOptions;
import dev.openaccel.runtime.InlineEvent;

/**
 * An OpenReg event, as {@code torch.openreg.Event}: an {@link dev.openaccel.runtime.Event} of
 * device type {@code openreg} that mixes freely with generic events and with OpenReg streams.
 */
public final class OpenRegEvent extends InlineEvent {

  /** A default-options event of {@code accelerator}'s OpenReg backend. */
  public OpenRegEvent(Accelerator accelerator) {
    this(accelerator, EventOptions.defaults());
  }

  /**
   * An event with {@code options}.
   *
   * @throws IllegalArgumentException if {@code options} asks for both interprocess and timing
   */
  public OpenRegEvent(Accelerator accelerator, EventOptions options) {
    super(accelerator, OpenRegProvider.TYPE, options);
  }
}
