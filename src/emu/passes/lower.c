/* The emulator's passes over a unit, and the C they make (lower.h): which functions take
 * the thread context, how each kernel runs its threads, where each __shared__ variable
 * lives; then the program, each kernel's entry and the module's tables (abi.h). */
#include "lower.h"
#include "core/alloc.h"

#include "emit.h"
#include "arith.h"
#include "lockstep.h"
#include "bounds.h"
#include "checks.h"
#include "inline.h"
#include "profile.h"
#include "region.h"
#include "stream.h"
#include "undef.h"
#include "writes.h"

#include "emu/runtime/abi.h"
#include "emu/check/ck.h"
#include "emu/compile/prelude.h"
#include "front/builtins.h"
#include "front/visit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lower {
    lat__unit *u;
    lat__tu *tu;
    const lat__lower_in *in;
    lat__emitter em;
    LAT_VEC(lat__func *) funcs; /* every function definition */
    LAT_VEC(lat__kernelx) kernels;
    /* Writing a checked kernel with a forward variant (region_fwd.c): its name, and the
     * accesses whose proofs must hold for the kernel to enter it. */
    const char *fwd_name;
    bool fwd_strict;
    const lat__expr **fwd_assured;
    size_t fwd_nassured;
    bool fwd_static;
    /* Writing the optimising tier's pair of a kernel (global_x_pair): the copy for blocks
     * whose global x index leaves int, which the other hands such a block to. */
    const char *wide_name;
    bool wide_static;
    int nvariants; /* kernels with a variant of implicit loops */
} lower;

/* ---- what each function reaches ------------------------------------------------------------ */

static bool collective_builtin(const lat__sym *s)
{
    if (!s || s->kind == LAT_SYM_TAG || !s->builtin)
        return false;
    const lat__builtin *b = lat__builtin_get(s->builtin);
    return b && (b->coll & (LAT_COLL_BARRIER | LAT_COLL_BVOTE | LAT_COLL_WARP | LAT_COLL_ACTIVEMASK));
}

/* ---- pointers to functions ------------------------------------------------------------------ */

typedef struct fnrefs {
    lower *lw;
    lat__func *fn;               /* whose body is walked; NULL: a file-scope initializer */
    const lat__expr *callee;     /* the name a direct call is calling */
    LAT_VEC(lat__sym *) taken;   /* functions whose address is taken, each once */
} fnrefs;

static bool note_fnref(lat__visitor *v, lat__expr *e)
{
    fnrefs *r = v->data;
    if (e->kind == LAT_E_CALL) {
        r->callee = lat__emit_direct_callee(e);
        if (!r->callee && r->fn)
            r->fn->calls_indirect = true;
        return true;
    }
    if (e->kind != LAT_E_NAME || !e->sym || e == r->callee || !e->type || e->type->kind != LAT_TY_FUNC)
        return true;
    lat__sym *s = e->sym;
    if (s->kind == LAT_SYM_BUILTIN || (s->flags & LAT_SF_BUILTIN)) {
        /* The emulator's built-ins are macros and inline code over its own context. */
        lat__unsupported_at(r->lw->u, e->loc, "a pointer to a built-in function",
                            "wrap it in a __device__ function of your own");
        return true;
    }
    if (s->kind != LAT_SYM_FUNC)
        return true;
    for (size_t i = 0; i < r->taken.n; i++)
        if (r->taken.items[i] == s)
            return true;
    LAT_PUSH(&r->lw->u->arena, r->taken, s);
    return true;
}

/* A call through a pointer may reach any function whose address is taken: each counts
 * as called by every function that calls through a pointer (for the barriers and warp
 * operations it reaches, and the __shared__ variables it names). */
static void find_function_pointers(lower *lw)
{
    fnrefs r = {lw, NULL, NULL, {0}};
    lat__visitor v = {NULL, note_fnref, NULL, &r};
    for (size_t i = 0; i < lw->tu->items.n; i++) {
        lat__ext *x = &lw->tu->items.items[i];
        if (x->kind == LAT_X_DECL && x->decls)
            lat__visit_decls(&v, x->decls);
    }
    for (size_t i = 0; i < lw->funcs.n; i++) {
        r.fn = lw->funcs.items[i];
        r.callee = NULL;
        lat__visit_stmt(&v, r.fn->body);
    }
    for (size_t i = 0; i < lw->funcs.n; i++) {
        lat__func *fn = lw->funcs.items[i];
        if (!fn->calls_indirect)
            continue;
        for (size_t k = 0; k < r.taken.n; k++) {
            bool have = false;
            for (size_t j = 0; j < fn->calls.n && !have; j++)
                have = fn->calls.items[j] == r.taken.items[k];
            if (!have)
                LAT_PUSH(&lw->u->arena, fn->calls, r.taken.items[k]);
        }
    }
}

/* Whether fn can reach a call through a pointer. */
static bool reaches_indirect_call(lower *lw, lat__func *fn, bool *visited)
{
    size_t idx = (size_t)(intptr_t)fn->aux;
    if (visited[idx])
        return false;
    visited[idx] = true;
    if (fn->calls_indirect)
        return true;
    for (size_t k = 0; k < fn->calls.n; k++) {
        lat__sym *c = fn->calls.items[k];
        if (c->kind == LAT_SYM_FUNC && c->fn && reaches_indirect_call(lw, c->fn, visited))
            return true;
    }
    return false;
}

/* Functions that can reach a barrier or a warp operation, through any chain of calls. */
static void find_collectives(lower *lw)
{
    for (size_t i = 0; i < lw->funcs.n; i++) {
        lat__func *fn = lw->funcs.items[i];
        for (size_t k = 0; k < fn->calls.n && !fn->calls_collective; k++)
            fn->calls_collective = collective_builtin(fn->calls.items[k]);
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < lw->funcs.n; i++) {
            lat__func *fn = lw->funcs.items[i];
            if (fn->calls_collective)
                continue;
            for (size_t k = 0; k < fn->calls.n; k++) {
                lat__sym *c = fn->calls.items[k];
                if (c->kind == LAT_SYM_FUNC && c->fn && c->fn->calls_collective) {
                    fn->calls_collective = changed = true;
                    break;
                }
            }
        }
    }
}

/* The file-scope __shared__ variables a function names. */
typedef struct shared_uses {
    lower *lw;
    bool *used; /* per shared index */
} shared_uses;

static bool note_shared(lat__visitor *v, lat__expr *e)
{
    shared_uses *su = v->data;
    if (e->kind == LAT_E_NAME && e->sym && e->sym->kind == LAT_SYM_VAR && (e->sym->cuda & LAT_CU_SHARED)) {
        int idx = lat__symx_of(su->lw->u, e->sym)->shared;
        if (idx >= 0)
            su->used[idx] = true;
    }
    return true;
}

/* For racecheck: the pointer parameters the kernel may write through (writes.h). */
static void kernel_writes(lower *lw, const lat__func *fn)
{
    lat__emitter *em = &lw->em;
    bool *written = lat__arena_alloc(&lw->u->arena, ((size_t)fn->nparams + 1) * sizeof *written);
    memset(written, 0, ((size_t)fn->nparams + 1) * sizeof *written);
    bool known = lat__writes_params(fn, written);
    int n = 0;
    for (int i = 0; known && i < fn->nparams; i++)
        n += written[i];
    lat__emit_fmt(em, "const int " LAT_EMU_KWRITES_PREFIX "%s[] = {%d", lat__emit_name(lw->u, fn->sym), known ? n : -1);
    for (int i = 0; known && i < fn->nparams; i++)
        if (written[i])
            lat__emit_fmt(em, ", %d", i);
    lat__emit_str(em, "};");
    lat__emit_newline(em);
}

/* Marks in used[] the __shared__ variables a kernel can reach: its own and its callees'
 * declarations, and those at file scope any of them names. */
static void kernel_shared(lower *lw, lat__func *k, bool *used, bool *visited)
{
    memset(visited, 0, lw->funcs.n * sizeof *visited);
    LAT_VEC(lat__func *) stack = {0};
    LAT_PUSH(&lw->u->arena, stack, k);
    shared_uses su = {lw, used};
    lat__visitor v = {NULL, note_shared, NULL, &su};
    while (stack.n) {
        lat__func *fn = stack.items[--stack.n];
        size_t idx = (size_t)(intptr_t)fn->aux;
        if (visited[idx])
            continue;
        visited[idx] = true;
        for (size_t i = 0; i < fn->shared.n; i++)
            used[lat__symx_of(lw->u, fn->shared.items[i])->shared] = true;
        lat__visit_stmt(&v, fn->body);
        for (size_t i = 0; i < fn->calls.n; i++) {
            lat__sym *c = fn->calls.items[i];
            if (c->kind == LAT_SYM_FUNC && c->fn)
                LAT_PUSH(&lw->u->arena, stack, c->fn);
        }
    }
}

/* A kernel with collectives in region loops where they may be (region.h), as written or
 * with its calls of functions reaching collectives inlined (inline.h); k->why says which
 * path it took and, for fibers, what kept it there. */
static void plan_region(lower *lw, lat__func *fn, lat__kernelx *k)
{
    lat__unit *u = lw->u;
    const char *why;
    lat__loc where = {0};
    if (lat__region_plan(u, fn, lw->in->checked, false, &why, &where)) {
        k->mode = LAT_EMU_MODE_REGION;
        k->why = "region loops";
        return;
    }
    /* Checked code keeps what its reports name: the calls as written. */
    if (!lw->in->checked) {
        const char *iwhy;
        lat__loc iwhere = {0};
        bool inlined;
        lat__stmt *body = fn->body, *rewritten = lat__inline_collectives(u, fn, &inlined, &iwhy, &iwhere);
        if (rewritten) {
            fn->body = rewritten;
            if (lat__region_plan(u, fn, false, false, &why, &where)) {
                k->mode = LAT_EMU_MODE_REGION;
                k->why = inlined ? "region loops, helpers with collectives inlined"
                                 : "region loops, collectives moved out of expressions";
                return;
            }
            fn->body = body;
        } else if (iwhy) {
            why = iwhy;
            where = iwhere;
        }
    }
    if (!why)
        why = "a barrier or warp operation region loops cannot place";
    k->why = where.line ? lat__arena_printf(&u->arena, "fibers: %s at %s:%u", why, lat__loc_file(u, where), where.line)
                        : lat__arena_printf(&u->arena, "fibers: %s", why);
}

static void analyse(lower *lw)
{
    lat__unit *u = lw->u;
    for (size_t i = 0; i < lw->tu->items.n; i++) {
        lat__ext *x = &lw->tu->items.items[i];
        if (x->kind == LAT_X_FUNC) {
            x->fn->aux = (void *)(intptr_t)lw->funcs.n;
            LAT_PUSH(&u->arena, lw->funcs, x->fn);
        }
    }
    /* Every function that is device code takes the context, declared or defined. */
    for (size_t i = 0; i < lw->tu->items.n; i++) {
        lat__ext *x = &lw->tu->items.items[i];
        if (x->kind == LAT_X_FUNC) {
            lat__sym *s = x->fn->sym;
            lat__symx_of(u, s)->hidden = (s->cuda & (LAT_CU_GLOBAL | LAT_CU_DEVICE)) != 0;
        } else if (x->decls) {
            for (lat__decl *d = x->decls->first; d; d = d->next)
                if (d->sym && d->sym->kind == LAT_SYM_FUNC)
                    lat__symx_of(u, d->sym)->hidden = (d->sym->cuda & (LAT_CU_GLOBAL | LAT_CU_DEVICE)) != 0;
        }
    }
    for (size_t i = 0; i < lw->tu->shared.n; i++)
        lat__symx_of(u, lw->tu->shared.items[i])->shared = (int)i;
    /* Records defined in a block are written at file scope: a name of their own each. */
    int nrec = 0;
    for (size_t i = 0; i < lw->tu->records.n; i++) {
        lat__record *r = lw->tu->records.items[i];
        if (r->scope_depth > 0 && r->tag && !r->builtin)
            r->emit_tag = lat__arena_printf(&u->arena, "__lat_r%d_%s", ++nrec, r->tag->name);
    }
    find_function_pointers(lw);
    find_collectives(lw);
    bool *visited = lat__arena_alloc(&u->arena, lw->funcs.n + 1);
    for (size_t i = 0; i < lw->funcs.n; i++) {
        lat__func *fn = lw->funcs.items[i];
        if (!(fn->sym->cuda & LAT_CU_GLOBAL))
            continue;
        lat__kernelx k = {fn, LAT_EMU_MODE_PLAIN, "one loop over the threads (no collective)"};
        bool asked = lw->in->fibers || lw->in->debug, fibers = asked;
        if (fn->calls_collective && !fibers) {
            /* A barrier reached through a pointer is out of the region planner's sight:
             * fibers run any call path. */
            memset(visited, 0, lw->funcs.n);
            fibers = reaches_indirect_call(lw, fn, visited);
        }
        if (fn->calls_collective || lw->in->checked || lw->in->debug) {
            k.mode = LAT_EMU_MODE_FIBER;
            k.why = lw->in->debug ? "fibers: built for a debugger (-G)"
                  : asked ? "fibers: asked for (LATTICE_EMU_FIBERS=1)"
                          : "fibers: a call through a pointer to a function, which may reach a collective";
            if (!fibers)
                plan_region(lw, fn, &k);
        }
        if (k.mode == LAT_EMU_MODE_PLAIN) {
            /* Each thread starts from the launch's values of the parameters it changes. */
            for (int p = 0; p < fn->nparams; p++) {
                lat__sym *ps = fn->params[p];
                if (ps->name && (ps->flags & (LAT_SF_MODIFIED | LAT_SF_ADDRESS_TAKEN)))
                    lat__symx_of(u, ps)->copied = true;
            }
        }
        LAT_PUSH(&u->arena, lw->kernels, k);
    }
}

/* ---- the program ---------------------------------------------------------------------------- */

static const lat__kernelx *kernel_of(lower *lw, const lat__func *fn)
{
    for (size_t i = 0; i < lw->kernels.n; i++)
        if (lw->kernels.items[i].fn == fn)
            return &lw->kernels.items[i];
    return NULL;
}

/* A plain kernel: the body inside a loop over the block's threads. */
static void plain_body(lower *lw, lat__func *fn)
{
    lat__emitter *em = &lw->em;
    lat__emit_at(em, fn->body->loc);
    /* As region loops' stretches (region_gen.c): the index a local, x in the context for a
     * fault's report. */
    lat__emit_str(em, "{ unsigned __lat_x, __lat_y, __lat_z, __lat_bx = __lat_t->block_dim.x,"
                      " __lat_by = __lat_t->block_dim.y, __lat_bz = __lat_t->block_dim.z;");
    lat__emit_block_uniforms(em);
    /* The optimised copy stores x once per row where a loop is left in each thread to be
     * vectorised across threads (thread_loop.c): the store at every thread kept gcc from
     * vectorising it. Its faults then name a thread of the right row (emu.c says so). */
    bool per_thread_x = !em->global_x || lat__region_calls_out(fn->body, NULL) ||
                        !lat__region_holds_thread_loop(&lw->u->arena, fn->body, NULL);
    lat__emit_fmt(em, " for (__lat_z = 0; __lat_z < __lat_bz; __lat_z++) { __lat_t->thread_idx.z = __lat_z;"
                      " for (__lat_y = 0; __lat_y < __lat_by; __lat_y++) { __lat_t->thread_idx.y = __lat_y;%s",
                  per_thread_x ? "" : " __lat_t->thread_idx.x = 0;");
    lat__emit_str(em, em->global_x ? " for (int __lat_g = __lat_gb; __lat_g < __lat_gb + (int)__lat_bx; __lat_g++) {"
                                     " __lat_x = (unsigned)(__lat_g - __lat_gb);"
                                   : " for (__lat_x = 0; __lat_x < __lat_bx; __lat_x++) {");
    lat__emit_fmt(em, "%s const uint3 __lat_tid = {__lat_x, __lat_y, __lat_z}; {",
                  per_thread_x ? " __lat_t->thread_idx.x = __lat_x;" : "");
    em->local_tid = true;
    for (int p = 0; p < fn->nparams; p++) {
        lat__sym *ps = fn->params[p];
        if (!lat__symx_of(lw->u, ps)->copied)
            continue;
        lat__emit_fmt(em, " %s = __lat_p%d;", lat__emit_type(lw->u, ps->type, lat__emit_name(lw->u, ps)), p);
    }
    for (size_t i = 0; i < fn->body->items.n; i++) {
        lat__emit_str(em, " ");
        lat__emit_stmt(em, fn->body->items.items[i]);
    }
    lat__emit_at(em, fn->body->end);
    em->local_tid = false;
    lat__emit_str(em, " } __lat_next: ; } } } }");
}

static void function_as(lower *lw, lat__func *fn, const lat__kernelx *k, int mode);
static void hand_over(lower *lw, lat__func *fn, const char *callee, bool copies);
static void global_x_pair(lower *lw, lat__func *fn, const lat__kernelx *k, int mode);

/* A checked region kernel with implicit loops in its forward variant (region_fwd.c): the
 * variant first, for the optimising tier only, then the kernel, which enters it when the
 * launch allows (threads in index order, the variant's proofs true, and memcheck alone
 * unless the variant's guards decide for initcheck and racecheck too). */
static void checked_forward(lower *lw, lat__func *fn, const lat__kernelx *k)
{
    lat__region_saved *sv = lat__region_variant_begin(lw->u, fn, true);
    if (!sv) {
        function_as(lw, fn, k, k->mode);
        return;
    }
    lat__emitter *em = &lw->em;
    lat__symx *x = lat__symx_of(lw->u, fn->sym);
    const char *name = lat__emit_name(lw->u, fn->sym);
    size_t n;
    const lat__expr *const *assured = lat__region_assured(lw->u, fn, &n);
    lw->fwd_assured = lat__arena_alloc(&lw->u->arena, (n + 1) * sizeof *lw->fwd_assured);
    if (n) /* none: assured may be NULL, which memcpy may not be given even for 0 bytes */
        memcpy(lw->fwd_assured, assured, n * sizeof *assured);
    lw->fwd_nassured = n;
    lw->fwd_strict = lat__region_fwd_strict(lw->u, fn);
    lw->fwd_name = lat__arena_printf(&lw->u->arena, "%s__lat_fwd", name);
    lat__emit_directive(em, "#ifndef __TINYC__");
    x->name = lw->fwd_name;
    em->assured_plain = true;
    lw->fwd_static = true;
    function_as(lw, fn, k, LAT_EMU_MODE_REGION);
    lw->fwd_static = false;
    em->assured_plain = false;
    x->name = name;
    lat__emit_directive(em, "#endif");
    lat__region_variant_end(lw->u, fn, sv, true, true);
    function_as(lw, fn, k, k->mode);
    lw->fwd_name = NULL;
    lw->fwd_nassured = 0;
}

/* Enters the forward variant where it may be (checked_forward). */
static void enter_forward(lower *lw, lat__func *fn)
{
    lat__emitter *em = &lw->em;
    lat__emit_directive(em, "#ifndef __TINYC__");
    lat__emit_str(em, lw->fwd_strict ? "if (!__lat_ck_rorder(__lat_t)" : "if (__lat_cki.plain && !__lat_ck_rorder(__lat_t)");
    for (size_t i = 0; i < lw->fwd_nassured; i++) {
        lat__emit_str(em, " && ");
        if (!lat__bounds_emit(em, lw->fwd_assured[i]))
            lat__emit_str(em, "0");
    }
    lat__emit_str(em, ") ");
    hand_over(lw, fn, lw->fwd_name, false);
    lat__emit_directive(em, "#endif");
}

/* "{ callee(...); return; }": the block goes to another copy of the kernel, with the
 * parameters by the names the signature gives them (lat__emit_params). */
static void hand_over(lower *lw, lat__func *fn, const char *callee, bool copies)
{
    lat__emitter *em = &lw->em;
    lat__emit_fmt(em, "{ %s(__lat_t", callee);
    for (int i = 0; i < fn->nparams; i++) {
        lat__sym *ps = fn->params[i];
        const lat__symx *px = lat__symx_of(lw->u, ps);
        if (!ps->name)
            lat__emit_fmt(em, ", __lat_u%d", i);
        else if (copies && px->copied)
            lat__emit_fmt(em, ", __lat_p%d", i);
        else
            lat__emit_fmt(em, ", %s", px->param_name ? px->param_name : lat__emit_name(lw->u, ps));
    }
    lat__emit_str(em, "); return; }");
}

/* The optimising tier's kernel, as a pair. gcc and clang vectorise a loop over the
 * threads only where the addresses are affine in its induction variable; with the
 * thread's x its variable, the usual i = blockIdx.x * blockDim.x + threadIdx.x is an
 * unsigned sum that may wrap, and -fwrapv's int (opt.c) may wrap too, so a[i] became
 * gathers and scatters or no vector code at all (4-6x on a streaming kernel). Stepping
 * an int over the global x index instead, which cannot wrap where the block's range fits
 * in int, makes that sum the variable itself. The other copy, for the blocks that do not
 * fit (a grid of 2^31 threads or more in x), is compiled for its compile time (__LAT_WIDE). */
static void global_x_pair(lower *lw, lat__func *fn, const lat__kernelx *k, int mode)
{
    lat__emitter *em = &lw->em;
    lat__symx *x = lat__symx_of(lw->u, fn->sym);
    const char *name = lat__emit_name(lw->u, fn->sym);
    lw->wide_name = lat__arena_printf(&lw->u->arena, "%s__lat_wide", name);
    x->name = lw->wide_name;
    lw->wide_static = true;
    function_as(lw, fn, k, mode);
    lw->wide_static = false;
    x->name = name;
    em->global_x = true;
    function_as(lw, fn, k, mode);
    em->global_x = false;
    lw->wide_name = NULL;
}

/* An unchecked kernel, with the optimising tier on, is written twice: the optimising
 * tier's pair (global_x_pair; its variant with implicit loops where it has any), then
 * TinyCC's. Both run one call per block (abi.h: plain and region kernels alike), so the
 * kernel's table keeps TinyCC's mode. */
static void function(lower *lw, lat__func *fn)
{
    const lat__kernelx *k = (fn->sym->cuda & LAT_CU_GLOBAL) ? kernel_of(lw, fn) : NULL;
    if (k && k->mode == LAT_EMU_MODE_REGION && lw->in->opt_variants && lw->in->checked) {
        checked_forward(lw, fn, k);
        return;
    }
    if (!k || k->mode == LAT_EMU_MODE_FIBER || !lw->in->opt_variants || lw->in->checked) {
        function_as(lw, fn, k, k ? k->mode : -1);
        return;
    }
    lat__region_saved *sv = lat__region_variant_begin(lw->u, fn, false);
    lat__emitter *em = &lw->em;
    lw->nvariants += sv != NULL;
    lat__emit_directive(em, "#ifndef __TINYC__");
    global_x_pair(lw, fn, k, sv ? LAT_EMU_MODE_REGION : k->mode);
    lat__emit_directive(em, "#else");
    if (sv)
        lat__region_variant_end(lw->u, fn, sv, k->mode == LAT_EMU_MODE_REGION, false);
    function_as(lw, fn, k, k->mode);
    lat__emit_directive(em, "#endif");
}

static void function_as(lower *lw, lat__func *fn, const lat__kernelx *k, int mode)
{
    lat__emitter *em = &lw->em;
    lat__sym *s = fn->sym;
    lat__symx *x = lat__symx_of(lw->u, s);
    em->fn = fn;
    em->mode = mode;
    lat__emit_at(em, fn->loc);
    if (lw->wide_static)
        lat__emit_str(em, "__LAT_WIDE ");
    if (s->storage == LAT_ST_STATIC || lw->fwd_static || lw->wide_static)
        lat__emit_str(em, "static ");
    /* The declarator: name and parameters, around the return type. */
    lat__emitter sig;
    lat__emit_init(&sig, lw->u, lw->in);
    sig.line = sig.file = 0;
    lat__emit_str(&sig, lat__emit_name(lw->u, s));
    lat__emit_params(&sig, fn, x->hidden, k && mode == LAT_EMU_MODE_PLAIN);
    lat__emit_str(em, lat__emit_type(lw->u, s->type->base, sig.buf));
    lat__emit_str(em, " ");
    /* Checked code reads what the checks keep for the whole block once, at the
     * function's entry (passes/checks.c's prefix): read at every access, it was
     * reloaded after every store, none of which the optimiser could tell apart from it. */
    bool ck_entry = em->checked && x->hidden;
    if (ck_entry) {
        lat__emit_str(em, "{ __LAT_CK_ENTRY ");
        lat__bounds_emit_entry(em, fn);
        if (lw->fwd_name && !lw->fwd_static)
            enter_forward(lw, fn);
    }
    /* The int the pair's kernel steps over x (global_x_pair) stops short of INT_MAX. */
    if (em->global_x) {
        lat__emit_str(em, "{ if ((long long)(int)(__lat_t->block_idx.x * __lat_t->block_dim.x)"
                          " + __lat_t->block_dim.x > 2147483647) ");
        hand_over(lw, fn, lw->wide_name, k && mode == LAT_EMU_MODE_PLAIN);
        /* A map kernel's blocks with streaming stores (stream.h), where they may. */
        if (k && mode == LAT_EMU_MODE_PLAIN && !em->checked)
            lat__stream_emit(em, fn);
    }
    if (k && mode == LAT_EMU_MODE_PLAIN)
        plain_body(lw, fn);
    else if (k && mode == LAT_EMU_MODE_REGION)
        lat__region_emit(em, fn);
    else
        lat__emit_stmt(em, fn->body);
    if (em->global_x)
        lat__emit_str(em, " }");
    if (ck_entry)
        lat__emit_str(em, " }");
    em->fn = NULL;
    em->mode = -1;
}

static void entry(lower *lw, lat__func *fn)
{
    lat__emitter *em = &lw->em;
    const char *k = lat__emit_name(lw->u, fn->sym);
    lat__emit_fmt(em, " void " LAT_EMU_ENTRY_PREFIX "%s(lat_emu_thread *__lat_t, void **__lat_p) {", k);
    for (int i = 0; i < fn->nparams; i++) {
        char local[32];
        snprintf(local, sizeof local, "__lat_a%d", i);
        lat__emit_fmt(em, " %s = *(__typeof__(__lat_a%d) *)__lat_p[%d];",
                      lat__emit_type_resolved(lw->u, fn->params[i]->type, local), i, i);
    }
    lat__emit_fmt(em, " %s(__lat_t", k);
    for (int i = 0; i < fn->nparams; i++)
        lat__emit_fmt(em, ", __lat_a%d", i);
    lat__emit_fmt(em, "); } int " LAT_EMU_SIZES_PREFIX "%s(unsigned long *__lat_s) { if (__lat_s) {", k);
    for (int i = 0; i < fn->nparams; i++) {
        char local[32];
        snprintf(local, sizeof local, "__lat_a%d", i);
        lat__emit_fmt(em, " %s; __lat_s[%d] = sizeof __lat_a%d;",
                      lat__emit_type_resolved(lw->u, fn->params[i]->type, local), i, i);
    }
    lat__emit_fmt(em, " } return %d; }", fn->nparams);
}

static void tables(lower *lw)
{
    lat__emitter *em = &lw->em;
    lat__unit *u = lw->u;
    size_t nsh = lw->tu->shared.n;
    lat__emit_newline(em);
    lat__emit_fmt(em, "const int __lat_nshared = %zu;", nsh);
    lat__emit_newline(em);
    if (nsh) {
        lat__emit_str(em, "const unsigned long __lat_shsize[] = {");
        for (size_t i = 0; i < nsh; i++) {
            lat__sym *s = lw->tu->shared.items[i];
            if (s->storage == LAT_ST_EXTERN)
                lat__emit_fmt(em, "%s0", i ? ", " : "");
            else
                lat__emit_fmt(em, "%ssizeof(%s)", i ? ", " : "", lat__emit_type_resolved(u, s->type, ""));
        }
        lat__emit_str(em, "};");
        lat__emit_newline(em);
        lat__emit_str(em, "const unsigned long __lat_shalign[] = {");
        for (size_t i = 0; i < nsh; i++) {
            lat__sym *s = lw->tu->shared.items[i];
            if (s->storage == LAT_ST_EXTERN)
                lat__emit_fmt(em, "%s1", i ? ", " : "");
            else if (s->align > lat__alignof(s->type))
                lat__emit_fmt(em, "%s%u", i ? ", " : "", s->align);
            else
                lat__emit_fmt(em, "%s_Alignof(%s)", i ? ", " : "", lat__emit_type_resolved(u, s->type, ""));
        }
        lat__emit_str(em, "};");
        lat__emit_newline(em);
        if (lw->in->checked) {
            lat__emit_str(em, "const char *const __lat_shname[] = {");
            for (size_t i = 0; i < nsh; i++)
                lat__emit_fmt(em, "%s\"%s\"", i ? ", " : "", lw->tu->shared.items[i]->name->name);
            lat__emit_str(em, "};");
            lat__emit_newline(em);
            /* Each one's extents when it has two or more ("[4][8]"): reports name its
             * elements by their subscripts. */
            lat__emit_str(em, "const char *const __lat_shdims[] = {");
            for (size_t i = 0; i < nsh; i++) {
                const lat__type *t = lw->tu->shared.items[i]->type;
                lat__emit_str(em, i ? ", \"" : "\"");
                if (t->kind == LAT_TY_ARRAY && t->base && t->base->kind == LAT_TY_ARRAY)
                    for (; t->kind == LAT_TY_ARRAY && t->count >= 0; t = t->base)
                        lat__emit_fmt(em, "[%lld]", (long long)t->count);
                lat__emit_str(em, "\"");
            }
            lat__emit_str(em, "};");
            lat__emit_newline(em);
        }
    }
    bool *used = lat__arena_alloc(&u->arena, (nsh + 1) * sizeof *used);
    bool *visited = lat__arena_alloc(&u->arena, (lw->funcs.n + 1) * sizeof *visited);
    for (size_t i = 0; i < lw->kernels.n; i++) {
        const lat__kernelx *k = &lw->kernels.items[i];
        memset(used, 0, (nsh + 1) * sizeof *used);
        kernel_shared(lw, k->fn, used, visited);
        int count = 0;
        for (size_t s = 0; s < nsh; s++)
            count += used[s];
        lat__emit_fmt(em, "const int " LAT_EMU_KINFO_PREFIX "%s[] = {%d, %d", lat__emit_name(u, k->fn->sym),
                      k->mode, count);
        for (size_t s = 0; s < nsh; s++)
            if (used[s])
                lat__emit_fmt(em, ", %zu", s);
        lat__emit_str(em, "};");
        lat__emit_newline(em);
        lat__emit_fmt(em, "const char " LAT_EMU_KWHY_PREFIX "%s[] = \"", lat__emit_name(u, k->fn->sym));
        for (const unsigned char *c = (const unsigned char *)k->why; *c; c++)
            lat__emit_fmt(em, *c == '"' || *c == '\\' ? "\\%c" : *c < 32 || *c > 126 ? "\\%03o" : "%c", *c);
        lat__emit_str(em, "\";");
        lat__emit_newline(em);
        if (lw->in->checked)
            kernel_writes(lw, k->fn);
    }
    for (size_t i = 0; i < lw->tu->globals.n; i++) {
        lat__sym *g = lw->tu->globals.items[i];
        const char *n = g->name->name, *e = lat__emit_name(u, g);
        lat__emit_fmt(em, "void *const " LAT_EMU_GADDR_PREFIX "%s = (void *)&%s; const unsigned long "
                          LAT_EMU_GSIZE_PREFIX "%s = sizeof %s;", n, e, n, e);
        lat__emit_newline(em);
    }
}

static void program(lower *lw)
{
    lat__emitter *em = &lw->em;
    lat__emit_at(em, (lat__loc){0, 1, 1}); /* TinyCC learns the file's name */
    /* Every struct and union first, at file scope, in an order that defines each before
     * a field needs it. */
    for (size_t i = 0; i < lw->tu->records.n; i++)
        lat__emit_record(em, lw->tu->records.items[i]);
    /* The declarations (typedefs, variables, prototypes) with a prototype of each
     * function where it is defined (a table of pointers to functions defined above it
     * names them), then the definitions: C++ lets a member function call one defined
     * later in its class, and an instantiated template is defined where it was first used. */
    for (size_t i = 0; i < lw->tu->items.n; i++) {
        lat__ext *x = &lw->tu->items.items[i];
        if (x->kind == LAT_X_DECL && x->decls)
            lat__emit_decl_group(em, x->decls, true);
        else if (x->kind == LAT_X_FUNC && !(x->fn->sym->cuda & LAT_CU_GLOBAL))
            lat__emit_prototype(em, x->fn->sym, x->fn->loc);
    }
    for (size_t i = 0; i < lw->tu->items.n; i++) {
        lat__ext *x = &lw->tu->items.items[i];
        if (x->kind == LAT_X_FUNC)
            function(lw, x->fn);
    }
    if (lw->in->debug) {
        /* A debugger's backtrace shows the entries as lattice's, not as the file's last
         * line; whatever follows starts with a marker of its own. */
        lat__emit_directive(em, "#line 1 \"<lattice entry>\"");
        em->file = UINT32_MAX;
    }
    for (size_t i = 0; i < lw->kernels.n; i++)
        entry(lw, lw->kernels.items[i].fn);
    tables(lw);
}

/* ---- entry ------------------------------------------------------------------------------ */

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* A GPU has 64 KiB of constant memory (cudaDevAttrTotalConstantMemory), and NVRTC's
 * ptxas refuses a module whose __constant__ variables need more: so does the emulator,
 * rather than running what cannot run on a GPU. */
enum { CONSTANT_MEMORY = 64 * 1024 };

static void constant_memory(lower *lw)
{
    uint64_t total = 0;
    for (size_t i = 0; i < lw->tu->globals.n; i++) {
        const lat__sym *g = lw->tu->globals.items[i];
        if (!(g->cuda & LAT_CU_CONSTANT) || !g->type)
            continue;
        total += lat__sizeof(g->type);
        if (total > CONSTANT_MEMORY) {
            lat__error_at(lw->u, g->loc,
                          "__constant__ variables need %llu bytes with '%s', more than the %d "
                          "bytes (64 KiB) of a GPU's constant memory",
                          (unsigned long long)total, g->name->name, CONSTANT_MEMORY);
            return;
        }
    }
}

/* A GPU thread's local memory (ptxas refuses a kernel whose frame needs more): the same
 * bound here, before TinyCC's 32-bit frame offsets wrap (a 4 GiB local array killed the
 * process; memcheck called it a 0-byte array). The variables of a function's scopes are
 * added up, as TinyCC lays them out. */
enum { LOCAL_MEMORY = 512 * 1024 };

/* t's size in full (the front end's 32-bit sizes stop at 4 GiB - 1), saturating. */
static uint64_t bytes_of(const lat__type *t)
{
    if (t->kind != LAT_TY_ARRAY || t->count < 0 || !t->base)
        return lat__sizeof(t);
    uint64_t e = bytes_of(t->base), n = (uint64_t)t->count;
    return e && n > UINT64_MAX / e ? UINT64_MAX : e * n;
}

static void local_frames(lower *lw)
{
    for (size_t i = 0; i < lw->tu->items.n; i++) {
        const lat__ext *x = &lw->tu->items.items[i];
        if (x->kind != LAT_X_FUNC || !x->fn->body)
            continue;
        uint64_t total = 0;
        for (size_t k = 0; k < x->fn->locals.n; k++) {
            const lat__sym *s = x->fn->locals.items[k];
            if (s->storage != LAT_ST_NONE || (s->cuda & LAT_CU_SHARED) || !s->type || s->type->vla ||
                !lat__is_complete(s->type))
                continue;
            uint64_t n = bytes_of(s->type);
            total = n > UINT64_MAX - total ? UINT64_MAX : total + n;
            if (total > LOCAL_MEMORY) {
                lat__error_at(lw->u, s->loc,
                              "the local variables of '%s' need %llu bytes with '%s', more than "
                              "the %d bytes (512 KiB) of a GPU thread's local memory (put large "
                              "arrays in device memory)",
                              x->fn->sym->name->name, (unsigned long long)total, s->name->name,
                              LOCAL_MEMORY);
                break;
            }
        }
    }
}

static void undef_fold(lower *lw)
{
    for (size_t i = 0; i < lw->tu->items.n; i++)
        if (lw->tu->items.items[i].kind == LAT_X_FUNC)
            lat__undef_fold(lw->u, lw->tu->items.items[i].fn);
}

lat_status lat__emu_lower(lat__unit *u, const lat__lower_in *in, lat__lower_out *out)
{
    memset(out, 0, sizeof *out);
    lower *lw = NULL;
    if (setjmp(u->oom)) {
        lat__lower_out_free(out);
        return LAT_ERROR_OUT_OF_MEMORY;
    }
    lw = lat__arena_alloc(&u->arena, sizeof *lw);
    lw->u = u;
    lw->tu = u->tu;
    lw->in = in;
    lat__emit_init(&lw->em, u, in);
    if (!in->checked)
        undef_fold(lw);
    lat__arith_rewrite(u, !in->no_fmad);
    if (!in->checked)
        lat__lockstep_rewrite(u);
    analyse(lw);
    constant_memory(lw);
    local_frames(lw);
    if (u->status != LAT_OK)
        return u->status;
    if (in->checked) {
        out->check = lat__calloc(1, sizeof *out->check);
        if (!out->check)
            return LAT_ERROR_OUT_OF_MEMORY;
        lat__checks_annotate(u, out->check);
        if (lw->in->profile)
            lat__profile_annotate(u, out->check);
        lat__bounds_prove(u);
        /* After the checks chose the locals they follow: initcheck still names the read
         * (a bug the GPU's optimiser happens to hide), which then gives the GPU's value. */
        undef_fold(lw);
        lw->em.checked = true;
        for (const char *const *piece = lat__checks_prefix(); *piece; piece++)
            lat__emit_str(&lw->em, *piece);
        if (lw->in->profile)
            lat__emit_str(&lw->em, lat__profile_prefix());
    }
    program(lw);
    lat__emit_newline(&lw->em);
    out->text = dup_or_null(lw->em.buf ? lw->em.buf : "");
    out->prelude_parts = LAT_EMU_PRELUDE_ALL;
    out->nvariants = lw->nvariants;
    out->kernels = lat__calloc(lw->kernels.n + 1, sizeof *out->kernels);
    out->kernel_exprs = lat__calloc(lw->kernels.n + 1, sizeof *out->kernel_exprs);
    out->globals = lat__calloc(lw->tu->globals.n + 1, sizeof *out->globals);
    if (!out->text || !out->kernels || !out->kernel_exprs || !out->globals) {
        lat__lower_out_free(out);
        return LAT_ERROR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < lw->kernels.n; i++) {
        const lat__sym *ks = lw->kernels.items[i].fn->sym;
        const char *c_name = lat__emit_name(u, (lat__sym *)ks);
        /* A kernel named like one of the prelude's names has another in C (emit.c): it is
         * found by its own. */
        const char *expr = ks->expr_name ? ks->expr_name
                           : ks->name && strcmp(c_name, ks->name->name) != 0 ? ks->name->name
                                                                                : NULL;
        out->kernels[i] = dup_or_null(c_name);
        out->kernel_exprs[i] = dup_or_null(expr);
        if (!out->kernels[i] || (expr && !out->kernel_exprs[i])) {
            lat__lower_out_free(out);
            return LAT_ERROR_OUT_OF_MEMORY;
        }
        out->nkernels++;
    }
    for (size_t i = 0; i < lw->tu->globals.n; i++) {
        out->globals[i] = dup_or_null(lw->tu->globals.items[i]->name->name);
        if (!out->globals[i]) {
            lat__lower_out_free(out);
            return LAT_ERROR_OUT_OF_MEMORY;
        }
        out->nglobals++;
    }
    return LAT_OK;
}

/* Whether a variable of static storage duration can change after the module is made:
 * a __device__, __constant__ or __managed__ one always can (the host writes them through
 * lat_module_get_global), another unless its whole object is const. */
static bool mutable_static(const lat__sym *s)
{
    if (!s || s->kind != LAT_SYM_VAR || (s->flags & LAT_SF_BUILTIN) || (s->cuda & LAT_CU_SHARED))
        return false;
    if (s->cuda & (LAT_CU_DEVICE | LAT_CU_CONSTANT | LAT_CU_MANAGED))
        return true;
    const lat__type *t = s->type;
    while (t && t->kind == LAT_TY_ARRAY && !(t->quals & LAT_Q_CONST))
        t = t->base;
    return !t || !(t->quals & LAT_Q_CONST);
}

bool lat__emu_module_has_state(const lat__unit *u)
{
    const lat__tu *tu = u->tu;
    if (!tu)
        return false;
    for (size_t i = 0; i < tu->globals.n; i++)
        if (mutable_static(tu->globals.items[i]))
            return true;
    for (size_t i = 0; i < tu->items.n; i++) {
        const lat__ext *x = &tu->items.items[i];
        if (x->kind == LAT_X_DECL && x->decls) {
            for (const lat__decl *d = x->decls->first; d; d = d->next)
                if (d->sym && d->sym->storage != LAT_ST_TYPEDEF && mutable_static(d->sym))
                    return true;
        } else if (x->kind == LAT_X_FUNC && x->fn) {
            for (size_t j = 0; j < x->fn->locals.n; j++) {
                const lat__sym *v = x->fn->locals.items[j];
                if (v->storage == LAT_ST_STATIC && mutable_static(v))
                    return true;
            }
        }
    }
    return false;
}

void lat__lower_out_free(lat__lower_out *out)
{
    lat__ck_module_free(out->check);
    free(out->text);
    for (int i = 0; i < out->nkernels + 1 && out->kernel_exprs; i++)
        free(out->kernel_exprs[i]);
    free(out->kernel_exprs);
    for (int i = 0; i < out->nkernels; i++)
        free(out->kernels[i]);
    free(out->kernels);
    for (int i = 0; i < out->nglobals; i++)
        free(out->globals[i]);
    free(out->globals);
    memset(out, 0, sizeof *out);
}
