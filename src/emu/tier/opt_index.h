/*
 * The optimising tier's source index: entries of the disk cache, keyed by what a module's
 * translation depends on (source_key.h), that give the key of the module's optimised
 * object and the names the translation found. A module whose index entry and object are
 * both in the cache is loaded without being translated: the translation, and hashing its
 * output into the object's key, were two thirds of such a load.
 */
#ifndef LAT_EMU_OPT_INDEX_H
#define LAT_EMU_OPT_INDEX_H

#include "cache.h"
#include "emu/backend/emu.h"
#include "emu/passes/lower.h"

#include <stddef.h>

/* An entry's bytes for module m (its kernels, their name expressions, its variables), whose
 * object has key `object`, and the front end's warnings (may be NULL). malloc'd; NULL when
 * out of memory. */
char *lat__emu_index_encode(const lat__cache_key *object, const lat__emu_module *m,
                            const char *warnings, size_t *size);

/* Reads an entry: the object's key, the names as a translation gives them (names->text
 * NULL; lat__lower_out_free frees them) and the warnings (malloc'd or NULL). False, with
 * nothing to free, when the bytes are not an entry of this format. */
bool lat__emu_index_decode(const void *data, size_t size, lat__cache_key *object,
                           lat__lower_out *names, char **warnings);

#endif
