package dev.openaccel.runtime.spi;

/**
 * How a backend creates an event on first record, as c10's {@code EventFlag}: {@link
 * #PYTORCH_DEFAULT} is the cheap form without timing, {@link #BACKEND_DEFAULT} the backend's full
 * form with timing.
 */
public enum EventFlag {
  PYTORCH_DEFAULT,
  BACKEND_DEFAULT,
  INVALID
}
