/* The host functions compiled kernel code calls (runtime.c), bound by name with
 * tcc_add_symbol: the C math library, memcpy and friends, printf, the helpers TinyCC's
 * code generator expects from its libtcc1.a (which Debian does not ship), and the
 * emulator's traps. */
#ifndef LAT_EMU_RUNTIME_H
#define LAT_EMU_RUNTIME_H

#include <stddef.h>

typedef struct lat__emu_symbol {
    const char *name;
    void (*fn)(void); /* any function, converted back by the caller */
} lat__emu_symbol;

/* The table, and its length in *count. */
const lat__emu_symbol *lat__emu_runtime_symbols(size_t *count);

#endif
