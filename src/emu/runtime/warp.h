/* What a warp operation returns to each lane, given what every lane of the group gave
 * (exec/warp.c); the same for fiber kernels (exec/block.c) and region loops. The
 * operations' numbers are the prelude's and the translator's too. */
#ifndef LAT_EMU_WARP_H
#define LAT_EMU_WARP_H

#include <stdint.h>

/* The operations, as the prelude numbers them (the __LAT_W_* macros there). */
enum {
    LAT_EMU_W_SHFL = 0,
    LAT_EMU_W_UP = 1,
    LAT_EMU_W_DOWN = 2,
    LAT_EMU_W_XOR = 3,
    LAT_EMU_W_BALLOT = 4,
    LAT_EMU_W_ANY = 5,
    LAT_EMU_W_ALL = 6,
    LAT_EMU_W_SYNC = 7,
    LAT_EMU_W_MATCH_ANY = 8,
    LAT_EMU_W_MATCH_ALL = 9,
    LAT_EMU_W_ADD = 10,
    LAT_EMU_W_MIN = 11,  /* signed */
    LAT_EMU_W_MAX = 12,
    LAT_EMU_W_UMIN = 13, /* unsigned */
    LAT_EMU_W_UMAX = 14,
    LAT_EMU_W_AND = 15,
    LAT_EMU_W_OR = 16,
    LAT_EMU_W_XORR = 17,
    LAT_EMU_W_ACTIVE = 18, /* __activemask: the lanes that reach it together */
    LAT_EMU_W_COUNT = 19
};

/* The names, for messages. */
const char *lat__emu_warp_name(int op);

/* Lane `lane`'s result of operation op. group: the lanes taking part (their values in
 * vals[lane], 64 bits each); arg: the lane's source lane, delta or lane mask; width: the
 * shuffle's segment width (a power of two, 1 to 32). For MATCH_ALL, *pred receives
 * whether all values were equal. */
uint64_t lat__emu_warp_result(int op, int lane, uint32_t group, const uint64_t *vals, int arg,
                              int width, int *pred);

#endif
