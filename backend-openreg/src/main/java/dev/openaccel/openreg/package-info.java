/**
 * OpenReg, the simulated reference accelerator: put this module on the class path to get the {@code
 * openreg} device type. See the module's README for what each runtime operation does in the
 * simulation.
 */
package dev.openaccel.openreg;
