/* Warp operations' results, as the CUDA programming guide defines them (warp.h). */
#include "emu/runtime/warp.h"

const char *lat__emu_warp_name(int op)
{
    static const char *const names[LAT_EMU_W_COUNT] = {
        "__shfl_sync",        "__shfl_up_sync",    "__shfl_down_sync",  "__shfl_xor_sync",
        "__ballot_sync",      "__any_sync",        "__all_sync",        "__syncwarp",
        "__match_any_sync",   "__match_all_sync",  "__reduce_add_sync", "__reduce_min_sync",
        "__reduce_max_sync",  "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
        "__reduce_or_sync",   "__reduce_xor_sync", "__activemask",
    };
    return op >= 0 && op < LAT_EMU_W_COUNT ? names[op] : "a warp operation";
}

/* A lane reading from a lane of its warp outside the group (not in the mask, not there,
 * exited) gets 0: the guide leaves the value undefined, and an H100 gives 0 (cuda-samples'
 * reduce7 shuffles its last warp's sums with the mask of the 8 lanes holding them, and its
 * sum is right only so). */
static uint64_t from(int src, int lane, uint32_t group, const uint64_t *vals)
{
    if (src < 0 || src > 31)
        return vals[lane];
    return group >> src & 1u ? vals[src] : 0;
}

uint64_t lat__emu_warp_result(int op, int lane, uint32_t group, const uint64_t *vals, int arg,
                              int width, int *pred)
{
    if (width < 1 || width > 32 || (width & (width - 1)))
        width = 32; /* undefined on a GPU; the whole warp here */
    int seg = lane & ~(width - 1); /* first lane of the lane's segment */
    uint64_t r = 0;
    switch (op) {
    case LAT_EMU_W_SHFL:
        return from(seg + (arg & (width - 1)), lane, group, vals);
    case LAT_EMU_W_UP: {
        int src = lane - arg;
        return src < seg ? vals[lane] : from(src, lane, group, vals);
    }
    case LAT_EMU_W_DOWN: {
        int src = lane + arg;
        return src >= seg + width ? vals[lane] : from(src, lane, group, vals);
    }
    case LAT_EMU_W_XOR: {
        int src = lane ^ arg;
        return src >= seg + width ? vals[lane] : from(src, lane, group, vals);
    }
    case LAT_EMU_W_BALLOT:
    case LAT_EMU_W_ANY:
    case LAT_EMU_W_ALL: {
        uint32_t bits = 0;
        for (int j = 0; j < 32; j++)
            if ((group >> j & 1u) && vals[j])
                bits |= 1u << j;
        if (op == LAT_EMU_W_BALLOT)
            return bits;
        return op == LAT_EMU_W_ANY ? bits != 0 : bits == group;
    }
    case LAT_EMU_W_SYNC:
        return 0;
    case LAT_EMU_W_ACTIVE:
        return group;
    case LAT_EMU_W_MATCH_ANY: {
        uint32_t bits = 0;
        for (int j = 0; j < 32; j++)
            if ((group >> j & 1u) && vals[j] == vals[lane])
                bits |= 1u << j;
        return bits;
    }
    case LAT_EMU_W_MATCH_ALL: {
        int all = 1;
        for (int j = 0; j < 32; j++)
            if ((group >> j & 1u) && vals[j] != vals[lane])
                all = 0;
        if (pred)
            *pred = all;
        return all ? group : 0;
    }
    default:
        break;
    }
    /* __reduce_*_sync: 32-bit values. */
    int first = 1;
    for (int j = 0; j < 32; j++) {
        if (!(group >> j & 1u))
            continue;
        uint32_t v = (uint32_t)vals[j];
        uint32_t a = (uint32_t)r;
        if (first) {
            r = v;
            first = 0;
            continue;
        }
        switch (op) {
        case LAT_EMU_W_ADD: r = a + v; break;
        case LAT_EMU_W_MIN: r = (int32_t)v < (int32_t)a ? v : a; break;
        case LAT_EMU_W_MAX: r = (int32_t)v > (int32_t)a ? v : a; break;
        case LAT_EMU_W_UMIN: r = v < a ? v : a; break;
        case LAT_EMU_W_UMAX: r = v > a ? v : a; break;
        case LAT_EMU_W_AND: r = a & v; break;
        case LAT_EMU_W_OR: r = a | v; break;
        case LAT_EMU_W_XORR: r = a ^ v; break;
        default: break;
        }
    }
    return r;
}
