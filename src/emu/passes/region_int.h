/* Region loops' insides, shared by the plan (region.c) and the writer (region_gen.c). */
#ifndef LAT_EMU_PASSES_REGION_INT_H
#define LAT_EMU_PASSES_REGION_INT_H

#include "region.h"

#include "front/builtins.h"

enum { LAT_RGN_BVOTE = 100 };

/* What the plan knows of a statement (stmt->aux). */
typedef struct rstmt {
    bool sync;    /* holds a collective */
    bool block;   /* written at block level: sync, or updates a uniform variable */
    bool uniform; /* IF and loops: every thread takes it alike */
    int level;    /* a non-uniform IF or loop holding a collective: from 1 */
    bool targeted; /* loops: some break or continue leaves them */
    bool implicit; /* a barrier-free loop written at block level (region.c: implicit loops) */
} rstmt;

/* A collective call in an expression, or a barrier statement (expr->aux). */
typedef struct rcoll {
    const lat__expr *call;
    int id;
    int op;      /* warp.h's op; LAT_RGN_BVOTE + kind for __syncthreads_count/and/or; -1
                    for __syncthreads */
    bool block;  /* a block barrier or vote */
    /* Which operands each thread stores (those that may differ between threads); the
     * others are the block's values, read where the results are computed. */
    bool mask_slot, arg_slot, width_slot;
    bool in_line;  /* writing: its result is computed in the stretch that uses it */
} rcoll;

typedef enum rkind {
    R_NONE,      /* a thread's own, in one stretch */
    R_UNIFORM,   /* one for the block */
    R_RECOMPUTE, /* computed again in each stretch from its initializer */
    R_CAND,      /* kept across stretches in per-thread storage */
} rkind;

/* What the plan knows of a local variable or parameter (lat__symx.region). */
typedef struct rvar {
    rkind kind;
    int slot;         /* R_CAND: its storage __lat_rN */
    bool in_place;    /* R_CAND: an array or address-taken: used in its storage */
    int declared_seg; /* the stretch declaring it (-1: a parameter) */
    int mark;         /* the last stretch that noted it */
    int changed;      /* the last stretch that may change it */
    bool crosses;     /* used in a stretch other than its declaring one */
    bool sync_level;  /* declared directly in a sync block */
    lat__expr *init;  /* its initializer */
    const lat__stmt *decl_stmt;
} rvar;

typedef enum itemkind {
    I_STMT,  /* a statement without collectives */
    I_DECL,  /* one declarator of a declaration */
    I_EVAL,  /* an expression statement with collectives' results */
    I_COND,  /* if (!(cond)) the thread leaves level `level` */
    I_STORE, /* a collective's operands stored */
    I_RAW,   /* text */
} itemkind;

typedef struct item {
    itemkind kind;
    const lat__stmt *s;
    const lat__expr *e;
    const lat__decl *d;
    const char *text;
    int level;
    const lat__stmt *of; /* I_DECL: the declaration d is of */
} item;

typedef struct plan {
    lat__unit *u;
    lat__func *fn;
    bool checked;
    /* Barrier-free loops are candidates for block level (implicit loops); those in `excluded`
     * were found not to fit on an earlier attempt. */
    bool implicit_loops;
    const lat__stmt **excluded;
    size_t nexcluded;
    bool has_implicit;                   /* some loop was taken as one */
    /* A checked kernel's forward variant (region_fwd.c): implicit loops only where no
     * report can change order; the accesses it makes plainly, their proofs to hold. */
    bool fwd;
    LAT_VEC(const lat__expr *) assured;
    int nclean; /* its stretches that can report or fault nothing */
    LAT_VEC(const lat__stmt *) misfits; /* those of them that are not uniform */
    int in_implicit; /* writing: inside this many implicit loops */
    /* The variant's implicit loops and clean stretches are guarded (region_gen.c): run
     * unchecked where the checks on allow it, else as the checks would have them. With
     * initcheck or racecheck, a proven access may report too, and an implicit loop that
     * is not alone in its barrier interval would change their order: loose, the variant
     * is then for memcheck alone. in_fallback: writing a guarded loop's checked branch. */
    bool fwd_loose;
    bool in_fallback;
    const char *label_tail; /* "c" in a guard's checked branch: its own stretch-end labels */
    bool bad;
    const char *why;
    lat__loc why_at; /* where, when known (line 0: not) */
    bool may_exit;
    int maxlevel;
    LAT_VEC(rcoll *) colls;
    LAT_VEC(lat__sym *) vars; /* locals and parameters with an rvar, in order */
    int nslots;
    /* the writer's state */
    lat__emitter *em;
    bool dry;
    int level;
    int nseg;
    int seg;          /* the open stretch, or -1 */
    bool seg_all;     /* visits inactive threads too */
    const char *seg_pre;
    LAT_VEC(item) items;
    LAT_VEC(lat__sym *) used;
    bool rewrite_coll; /* printing results in place of collectives */
    LAT_VEC(rcoll *) pending; /* warp operations whose results the next stretch uses */
} plan;

void lat__region_fail(plan *pl, const char *why);
void lat__region_fail_at(plan *pl, lat__loc at, const char *why);
rstmt *lat__region_rs(plan *pl, const lat__stmt *s);
rvar *lat__region_rv(plan *pl, lat__sym *s);
/* The variable's plan data, or NULL. */
static inline rvar *lat__region_var(const lat__sym *s)
{
    return s && s->aux ? ((lat__symx *)s->aux)->region : NULL;
}
const lat__builtin *lat__region_builtin_of(const lat__expr *call);
unsigned lat__region_coll_of(const lat__expr *e);
bool lat__region_barrier_statement(const lat__stmt *s, bool *block);
bool lat__region_uniform(plan *pl, const lat__expr *e, bool per_thread);
bool lat__region_uniform_condition(plan *pl, const lat__expr *e);
bool lat__region_uniform_update(plan *pl, const lat__expr *e);
bool lat__region_any_collective(lat__stmt *s);
/* region_fwd.c: whether the forward variant may take `loop` as an implicit loop; what it
 * then counts on (plan.assured). */
bool lat__region_fwd_allows(plan *pl, const lat__stmt *loop);
/* For an implicit loop the variant takes, with initcheck or racecheck on (region_gen.c's
 * guards): strict, whether it is alone in its barrier interval, nothing else there making
 * an access (its split from them then keeps the order of every report, its own included);
 * racefree, whether nothing in the interval writes memory or calls out. */
void lat__region_fwd_interval(plan *pl, const lat__stmt *loop, bool *strict, bool *racefree);
/* Whether the open stretch is whole statements of one block and nothing else in its
 * barrier interval makes an access (racecheck may then judge it alone). */
bool lat__region_fwd_stretch_alone(plan *pl);
void lat__region_fwd_assure(plan *pl);
/* Whether statement s and expression e (either may be NULL) can report or fault nothing;
 * the proven accesses in them, added to what the variant counts on. */
bool lat__region_fwd_clean(const lat__stmt *s, const lat__expr *e);
void lat__region_fwd_assure_in(plan *pl, const lat__stmt *s, const lat__expr *e);
/* Whether a declarator is written once for the block: a uniform variable, a __shared__,
 * static or extern one, a typedef. */
bool lat__region_block_decl(const lat__decl *d);
/* Whether e holds a collective the plan recorded. */
bool lat__region_has_coll(const lat__expr *e);

/* Writes (em) or, with em NULL, dry-runs the kernel's region loops (region_gen.c). */
void lat__region_generate(plan *pl, lat__emitter *em);

/* The names a taken plan's variables are written by (region_gen.c). */
void lat__region_name_vars(plan *pl);

#endif
