/*
 * The emulator's optimising tier (opt.c): the C a module was lowered to, compiled a second
 * time by the system's C compiler with optimisation into a shared object, loaded with
 * dlopen, and used in place of TinyCC's code from a launch boundary on. TinyCC's code
 * stays loaded: it is what runs until the optimised code is ready, what runs when the
 * compiler is missing or fails, and what its tables (kernels, parameters, shared memory
 * layout) were read from; the optimised object is the same program, so it shares them.
 */
#ifndef LAT_EMU_OPT_H
#define LAT_EMU_OPT_H

#include "core.h"
#include "emu/exec/exec.h"

#include <stdbool.h>

struct lat__emu_module;
struct lat__lower_out;

enum { LAT_EMU_OPT_DATA_MAX = 8 };

/* The optimised code of a module, once loaded. Immutable after it is published. */
typedef struct lat__emu_opt_code {
    void *handle;              /* dlopen's */
    const char *text;          /* the object's executable segment, for the guard */
    size_t text_size;
    /* Its segments after its code (its constants, and a cached object's variables): where
     * the checks accept a kernel's reads of the object. */
    struct {
        uintptr_t lo, hi;
    } data[LAT_EMU_OPT_DATA_MAX];
    int ndata;
    lat__emu_entry_fn *entries; /* per kernel of the module, in its order */
    void **globals;             /* per __device__/__constant__ variable, in its order */
    int fd;                     /* the anonymous file a cached object was loaded from, or -1 */
    void *const *debug_ids;     /* -G: where threadIdx, blockIdx, blockDim and gridDim are
                                   (exec.h), else NULL */
    struct lat__cc_job *job;    /* -G: the private directory the object is loaded from, kept
                                   while it is loaded (a debugger reads the file), or NULL */
} lat__emu_opt_code;

typedef struct lat__emu_opt lat__emu_opt;

/* The mode a module gets: `requested` (a lat_emu_opt from its descriptor or its
 * context's) unless it is LAT_EMU_OPT_DEFAULT, else LATTICE_EMU_OPT, else AUTO. Returns
 * false (and *mode OFF) when LATTICE_EMU_OPT holds something else, with the text in why. */
bool lat__emu_opt_mode(int requested, int *mode, char *why, size_t why_size);

/* Makes the tier's state for module m (compiled by TinyCC from `program`, whose first
 * prelude_len bytes are the prelude, with the NAME[=VALUE] defines and the undefines
 * given, NULL-terminated, may be NULL). Takes `program`. Starts nothing. NULL when out
 * of memory. */
lat__emu_opt *lat__emu_opt_new(const struct lat__emu_module *m, int mode, char *program,
                               size_t prelude_len, const char **defines, const char **undefines);

/* Builds (or finds in the cache) and loads the optimised code on the calling thread.
 * Returns true when it is in use; false otherwise, with what happened in *note
 * (malloc'd, or NULL when nothing is worth saying; a -G module's: why it failed, the
 * compiler's messages or that there is none, NULL when out of memory). */
bool lat__emu_opt_build_now(lat__emu_opt *o, char **note);

/* -G (docs/debugging.md): the object is built for a debugger (-g -O0, no cache), loaded
 * from a private directory that stays until the module is freed, so that gdb and lldb
 * read its debug information and the #line directives' source lines. Before any build. */
void lat__emu_opt_set_debug(lat__emu_opt *o);

/* Starts the background build, once (later calls do nothing). */
void lat__emu_opt_start(lat__emu_opt *o);

/* SYNC and BACKGROUND modes, before TinyCC compiles the module: the optimised object from the disk
 * cache, opened and its runtime table filled, for the module's kernels and variables to
 * be found in with dlsym instead of TinyCC's code (the object holds the same program,
 * so the same tables); NULL on a miss, without a compiler, or in AUTO mode (whose short-lived modules
 * should not pay for the key). Then
 * lat__emu_opt_bind_cached makes it the module's code (false: not usable, dropped), or
 * lat__emu_opt_drop_cached drops it. The module's thread only. */
void *lat__emu_opt_open_cached(lat__emu_opt *o);
/* The lowered program the tier compiles (the module's, owned by o). */
const char *lat__emu_opt_program(const lat__emu_opt *o);
bool lat__emu_opt_bind_cached(lat__emu_opt *o);
void lat__emu_opt_drop_cached(lat__emu_opt *o);

/* The source index (opt_index.h). lat__emu_opt_set_source gives the module's translation
 * digest (source_key.h) and the front end's warnings (may be NULL): from then on, once the
 * module's object is bound (from the cache or built), the index records it. False when out
 * of memory. lat__emu_opt_open_indexed, for a module made without a program (SYNC and
 * BACKGROUND modes, digest given): the object the index names, opened as
 * lat__emu_opt_open_cached opens one, with the names the module's translation found
 * (*names, lat__lower_out_free frees them) and its warnings (*warnings, malloc'd or NULL);
 * then lat__emu_opt_bind_cached or _drop_cached as after open_cached. NULL when the index
 * or the object is not there; the module is then translated. The module's thread only. */
bool lat__emu_opt_set_source(lat__emu_opt *o, const uint8_t digest[32], const char *warnings);
void *lat__emu_opt_open_indexed(lat__emu_opt *o, struct lat__lower_out *names, char **warnings);

/* The optimised code when it is ready (from any thread), else NULL. */
const lat__emu_opt_code *lat__emu_opt_code_of(lat__emu_opt *o);

/* For launches: counts `ns` of run time to the module (AUTO mode starts the background
 * build once the module has run long enough) and returns a message the background build
 * left for the context's log (malloc'd, given out once), or NULL. */
char *lat__emu_opt_after_launch(lat__emu_opt *o, uint64_t ns);

/* Stops a running build (its compiler is killed), waits for its thread, unloads. NULL is
 * a no-op. */
void lat__emu_opt_free(lat__emu_opt *o);

/* The mode of a module's tier (a lat_emu_opt). */
int lat__emu_opt_get_mode(const lat__emu_opt *o);

#endif
