/**
 * For users who live in an actor system: {@link dev.openaccel.runtime.actor.EventSignal} for {@code
 * Event.subscribe}, and {@link dev.openaccel.runtime.actor.DeviceBehaviors} / {@link
 * dev.openaccel.runtime.actor.DeviceScoped} for a device context per actor or per message.
 */
package dev.openaccel.runtime.actor;
