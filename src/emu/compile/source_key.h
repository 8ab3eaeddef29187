/*
 * What the translation of a module depends on, as a digest: the optimising tier's cache
 * finds a module's object by it without translating the module again (opt.c's source
 * index). The translation reads the preprocessed program, the template instances named,
 * the translator's inputs and the environment it looks at, and is lattice's own code:
 * all of these are in the digest.
 */
#ifndef LAT_EMU_SOURCE_KEY_H
#define LAT_EMU_SOURCE_KEY_H

#include "core.h"
#include "emu/passes/lower.h"

#include <stdbool.h>
#include <stdint.h>

/* The digest of unit u (parsed, instances made) of src, translated with `in`. False when
 * there is none to be had: this build of lattice has no build ID (core/build_id.h). */
bool lat__emu_source_digest(const lat__unit *u, const lat__source *src, const lat__lower_in *in,
                            uint8_t out[32]);

#endif
