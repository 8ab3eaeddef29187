/*
 * One translation: the source files read, the interned names, the diagnostics, the
 * preprocessed tokens and the tree, all in one arena (arena.h). Made by
 * lat__front_parse (front.h); every pass reads and annotates it.
 */
#ifndef LAT_FRONT_UNIT_H
#define LAT_FRONT_UNIT_H

#include "arena.h"
#include "atom.h"
#include "tok.h"

#include "lattice.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct lat__srcfile {
    const char *path;    /* as opened; NULL for a source given as text */
    const char *display; /* its name in messages and #line markers */
    const char *dir;     /* where its quoted #includes are looked for first */
    const char *real;    /* realpath(), for #pragma once; NULL when unknown */
    const char *text;    /* NUL-terminated */
    size_t len;
    lat__loc included_at; /* the #include that read it (line 0: the root) */
    bool once;            /* #pragma once seen */
} lat__srcfile;

typedef enum lat__severity { LAT_SEV_ERROR, LAT_SEV_WARNING, LAT_SEV_NOTE } lat__severity;

typedef struct lat__diag {
    lat__loc loc;
    lat__severity severity;
    lat_status status; /* for errors: LAT_ERROR_COMPILE, _UNSUPPORTED or _FILE */
    const char *msg;   /* the whole line: "file:line:col: error: ..." */
} lat__diag;

enum { LAT_FRONT_MAX_ERRORS = 20 };

struct lat__tu; /* the tree: ast.h */

typedef struct lat__unit {
    lat__arena arena;
    jmp_buf oom;
    lat__atoms atoms;
    LAT_VEC(lat__srcfile) files;
    LAT_VEC(lat__diag) diags;
    int nerrors;             /* errors found, also beyond those kept */
    int failed_instances;    /* template instances whose parse found errors (parse_template.c) */
    lat_status status;       /* the first error's status, LAT_OK when none */
    lat__toks toks;          /* the preprocessed program */
    struct lat__tu *tu;      /* the tree, once parsed */
    uint64_t deadline_ns;    /* CLOCK_MONOTONIC: preprocessing and parsing stop past it */
    unsigned clock_skip;     /* calls of lat__unit_past_deadline until the next look */
} lat__unit;

/* The longest a compile may preprocess and parse (the size and nesting limits keep any
 * real input far below it). */
#define LAT_FRONT_MAX_SECONDS 20

/* Whether the unit's deadline has passed (looked at every 256th call, so that it costs
 * nothing where it is called often); the first time, the error is reported at loc. */
bool lat__unit_past_deadline(lat__unit *u, lat__loc loc);

/* Adds a file to the table; returns its index. text must live as long as the unit. */
uint32_t lat__unit_add_file(lat__unit *u, const char *path, const char *display,
                            const char *text, size_t len);

/* Records a diagnostic at loc: "file:line:col: error: <fmt>". Errors beyond
 * LAT_FRONT_MAX_ERRORS are counted, not kept. status is the error's lat_status (ignored
 * for warnings and notes). */
void lat__diag_at(lat__unit *u, lat__loc loc, lat__severity sev, lat_status status,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The common cases. */
#define lat__error_at(u, loc, ...) lat__diag_at((u), (loc), LAT_SEV_ERROR, LAT_ERROR_COMPILE, __VA_ARGS__)
/* "X is not supported by the lattice emulator yet (why)". */
void lat__unsupported_at(lat__unit *u, lat__loc loc, const char *what, const char *why);

/* The display name of a location's file. */
const char *lat__loc_file(const lat__unit *u, lat__loc loc);

/* Every error and warning, one per line, with "(N more errors not shown)" when some were
 * dropped; NULL when there are none. Allocated in the unit. */
const char *lat__unit_messages(lat__unit *u, bool warnings);

#endif
