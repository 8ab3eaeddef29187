/* How many devices the emulator presents (driver.c): LATTICE_EMU_DEVICES, 1 to 64,
 * default 1, so that multi-device programs can be tested without GPUs. */
#ifndef LAT_EMU_DEVICES_H
#define LAT_EMU_DEVICES_H

int lat__emu_device_count(void);

#endif
