/* The checks' instrumentation on the tree (checks.h). */
#include "checks.h"
#include "bounds.h"
#include "core/alloc.h"

#include "emu/check/ck.h"
#include "front/builtins.h"
#include "front/type.h"
#include "front/visit.h"

#include <stdlib.h>
#include <string.h>

typedef enum mode { M_ADDR, M_R, M_W, M_RW } mode;

typedef struct ann {
    lat__unit *u;
    lat__ck_module *m;
    lat__emitter display; /* prints an access as the user reads it */
    lat__visitor *statements; /* walks the statements of a ({ ... }) */
} ann;

static int intern(ann *a, const char *s)
{
    lat__ck_module *m = a->m;
    for (int i = 0; i < m->nstrings; i++)
        if (strcmp(m->strings[i], s) == 0)
            return i;
    if (m->nstrings == m->strings_cap) {
        int cap = m->strings_cap ? m->strings_cap * 2 : 16;
        char **p = lat__realloc(m->strings, (size_t)cap * sizeof *p);
        if (!p)
            lat__arena_oom(&a->u->arena);
        m->strings = p;
        m->strings_cap = cap;
    }
    char *c = strdup(s);
    if (!c)
        lat__arena_oom(&a->u->arena);
    m->strings[m->nstrings] = c;
    return m->nstrings++;
}

/* The access's text as written: "out[i]", "s[(t + 1) % 64]", "p->k". */
static const char *display(ann *a, const lat__expr *e)
{
    lat__emitter *em = &a->display;
    em->len = 0;
    if (em->buf)
        em->buf[0] = '\0';
    lat__emit_expr(em, e, LAT_PREC_COMMA);
    if (em->len > 160)
        strcpy(em->buf + 157, "...");
    return em->buf ? em->buf : "";
}

static int add_site(ann *a, const lat__expr *e, int kind)
{
    lat__ck_module *m = a->m;
    if (m->nsites == m->sites_cap) {
        int cap = m->sites_cap ? m->sites_cap * 2 : 64;
        lat__ck_site *p = lat__realloc(m->sites, (size_t)cap * sizeof *p);
        if (!p)
            lat__arena_oom(&a->u->arena);
        m->sites = p;
        m->sites_cap = cap;
    }
    int f = intern(a, lat__loc_file(a->u, e->loc));
    int x = intern(a, display(a, e));
    m->sites[m->nsites] = (lat__ck_site){m->strings[f], m->strings[x], (int)e->loc.line, kind};
    return m->nsites++;
}

static bool tracked(const lat__sym *s)
{
    return s && s->aux && ((lat__symx *)s->aux)->ck_tracked;
}

/* Whether e names memory the checks watch (an lvalue in memory, or a followed local). */
static bool memory(const lat__expr *e)
{
    while (e->kind == LAT_E_CAST && (e->flags & LAT_EF_IMPLICIT) && e->type->kind != LAT_TY_PTR)
        e = e->a;
    switch (e->kind) {
    case LAT_E_NAME:
        return e->sym && e->sym->kind == LAT_SYM_VAR && ((e->sym->cuda & LAT_CU_SHARED) || tracked(e->sym));
    case LAT_E_INDEX:
        return true;
    case LAT_E_UNARY:
        return e->op == LAT_P_STAR && e->type->kind != LAT_TY_FUNC;
    case LAT_E_MEMBER:
        return (e->flags & LAT_EF_ARROW) || memory(e->a);
    default:
        return false;
    }
}

static void visit(ann *a, lat__expr *e, mode md);

/* Whether e is a member of a packed struct, or an element of an array in one: its
 * address need be a multiple of nothing (GNU C's packed, which nvcc accepts too). */
static bool through_packed(const lat__expr *e)
{
    for (;;) {
        while (e->kind == LAT_E_CAST && (e->flags & LAT_EF_IMPLICIT))
            e = e->a;
        if (e->kind == LAT_E_MEMBER) {
            bool arrow = (e->flags & LAT_EF_ARROW) != 0;
            const lat__type *r = arrow ? e->a->type->base : e->a->type;
            if (r && lat__is_record(r) && r->rec && r->rec->packed)
                return true;
            if (arrow)
                return false;
            e = e->a;
        } else if (e->kind == LAT_E_INDEX && e->a->kind == LAT_E_CAST && (e->a->flags & LAT_EF_IMPLICIT) &&
                   e->a->a->type->kind == LAT_TY_ARRAY) {
            e = e->a->a;
        } else {
            return false;
        }
    }
}

/* Marks e as an access of kind md. */
static void mark(ann *a, lat__expr *e, mode md)
{
    if (md == M_ADDR || !memory(e))
        return;
    int kind = md == M_W ? LAT_ACCESS_WRITE : md == M_RW ? LAT_ACCESS_READ_WRITE : LAT_ACCESS_READ;
    /* A followed local: by its name alone, or an element of a followed array. */
    bool local = false;
    if (e->kind == LAT_E_NAME)
        local = tracked(e->sym);
    else if (e->kind == LAT_E_INDEX && e->a->kind == LAT_E_CAST && e->a->a->kind == LAT_E_NAME)
        local = tracked(e->a->a->sym) && e->a->a->type->kind == LAT_TY_ARRAY;
    int code = add_site(a, e, kind) * LAT__CK_CODE_SITE + (local ? LAT__CK_CODE_LOCAL : 0) +
               (through_packed(e) ? LAT__CK_CODE_PACKED : 0) + kind;
    e->site = code + 1;
}

/* An atomic (atomicAdd(p, v), its _block and _system forms...): the memory its first
 * argument points to is an access of its own, checked like any other (memcheck, and
 * racecheck, where it races with plain accesses but not with other atomics), shown as
 * the call. The argument becomes &*p, whose *p the emitter checks; for &x as written, x. */
static bool visit_atomic(ann *a, lat__expr *e)
{
    const lat__builtin *b = e->sym && e->sym->builtin ? lat__builtin_get(e->sym->builtin) : NULL;
    lat__expr *p = e->nargs >= 1 ? e->args[0] : NULL;
    if (!b || !(b->coll & LAT_COLL_ATOMIC) || !p || !p->type || p->type->kind != LAT_TY_PTR ||
        !p->type->base || p->type->base->kind == LAT_TY_VOID)
        return false;
    visit(a, e->a, M_R);
    for (int i = 1; i < e->nargs; i++)
        visit(a, e->args[i], M_R);
    int site = add_site(a, e, LAT_ACCESS_ATOMIC); /* as written, before &* */
    lat__expr *target;
    if (p->kind == LAT_E_UNARY && p->op == LAT_P_AMP && memory(p->a)) {
        target = p->a;
        visit(a, target, M_ADDR);
    } else {
        visit(a, p, M_R);
        lat__expr *star = lat__arena_alloc(&a->u->arena, sizeof *star);
        star->kind = LAT_E_UNARY;
        star->op = LAT_P_STAR;
        star->flags = LAT_EF_LVALUE;
        star->type = p->type->base;
        star->loc = p->loc;
        star->a = p;
        lat__expr *amp = lat__arena_alloc(&a->u->arena, sizeof *amp);
        amp->kind = LAT_E_UNARY;
        amp->op = LAT_P_AMP;
        amp->type = p->type;
        amp->loc = p->loc;
        amp->a = star;
        e->args[0] = amp;
        target = star;
    }
    /* atomicExch stores whatever the memory held: storing into memory nothing wrote yet
     * (libcu++'s atomic store of a __shared__ counter) reads nothing the program uses
     * unless it uses what the call returns */
    int kind = b->op == 'x' ? LAT_ACCESS_WRITE : LAT_ACCESS_READ_WRITE;
    int code = site * LAT__CK_CODE_SITE + (through_packed(target) ? LAT__CK_CODE_PACKED : 0) + kind;
    target->site = code + 1;
    return true;
}

static void visit_children(ann *a, lat__expr *e);

/* An int constant argument, appended to a call's (the codes of visit_memory_call). */
static void append_code(ann *a, lat__expr *e, int code)
{
    lat__expr *c = lat__arena_alloc(&a->u->arena, sizeof *c);
    c->kind = LAT_E_INT;
    c->flags = LAT_EF_CONST;
    c->type = &lat__ty_int;
    c->loc = e->loc;
    c->ival = code;
    lat__expr **args = lat__arena_alloc(&a->u->arena, (size_t)(e->nargs + 1) * sizeof *args);
    if (e->nargs)
        memcpy(args, e->args, (size_t)e->nargs * sizeof *args);
    args[e->nargs++] = c;
    e->args = args;
}

/* memset, memcpy and memmove in device code: their ranges are accesses (memcheck,
 * racecheck, initcheck), worded as the call. The call gets the codes of its write and
 * read sites as extra arguments, which the prefix's macros of those names hand to the
 * checks' own versions (check/access.c's lat__ck_memset...). */
static bool visit_memory_call(ann *a, lat__expr *e)
{
    const lat__builtin *b = e->sym && e->sym->builtin ? lat__builtin_get(e->sym->builtin) : NULL;
    if (!b || e->nargs != 3)
        return false;
    bool set = strcmp(b->name, "memset") == 0;
    if (!set && strcmp(b->name, "memcpy") != 0 && strcmp(b->name, "memmove") != 0)
        return false;
    visit_children(a, e);
    /* Both sites show the call as written, before the codes are appended. */
    int w = add_site(a, e, LAT_ACCESS_WRITE), r = set ? 0 : add_site(a, e, LAT_ACCESS_READ);
    append_code(a, e, w * LAT__CK_CODE_SITE + LAT_ACCESS_WRITE);
    if (!set)
        append_code(a, e, r * LAT__CK_CODE_SITE + LAT_ACCESS_READ);
    return true;
}

static void visit_children(ann *a, lat__expr *e)
{
    switch (e->kind) {
    case LAT_E_CALL:
        visit(a, e->a, M_R);
        for (int i = 0; i < e->nargs; i++)
            visit(a, e->args[i], M_R);
        return;
    case LAT_E_INIT:
        for (size_t i = 0; i < e->items.n; i++)
            visit(a, e->items.items[i].value, M_R);
        return;
    case LAT_E_COMPOUND:
        visit(a, e->a, M_R);
        return;
    case LAT_E_SIZEOF:
    case LAT_E_ALIGNOF:
    case LAT_E_OFFSETOF:
        return; /* not evaluated */
    case LAT_E_STMT:
        lat__visit_stmt(a->statements, e->stmt);
        return;
    default:
        if (e->a)
            visit(a, e->a, M_R);
        if (e->b)
            visit(a, e->b, M_R);
        if (e->c)
            visit(a, e->c, M_R);
        return;
    }
}

/* Visits e, whose value is used as md says. */
static void visit(ann *a, lat__expr *e, mode md)
{
    if (!e)
        return;
    switch (e->kind) {
    case LAT_E_ASSIGN:
        visit(a, e->a, e->op == LAT_P_ASSIGN ? M_W : M_RW);
        visit(a, e->b, M_R);
        return;
    case LAT_E_UNARY:
        if (e->op == LAT_P_AMP) {
            visit(a, e->a, M_ADDR);
            return;
        }
        if (e->op == LAT_P_INC || e->op == LAT_P_DEC) {
            visit(a, e->a, M_RW);
            return;
        }
        if (e->op == LAT_P_STAR) {
            visit(a, e->a, M_R);
            if (e->type->kind != LAT_TY_FUNC) /* (*f)(x) reads no memory */
                mark(a, e, md);
            return;
        }
        visit(a, e->a, M_R);
        return;
    case LAT_E_POSTFIX:
        visit(a, e->a, M_RW);
        return;
    case LAT_E_INDEX:
        /* An array indexed is not read whole; a pointer's value is. */
        visit(a, e->a, e->a->kind == LAT_E_CAST && e->a->a->type->kind == LAT_TY_ARRAY ? M_ADDR : M_R);
        visit(a, e->b, M_R);
        mark(a, e, md);
        return;
    case LAT_E_MEMBER:
        visit(a, e->a, (e->flags & LAT_EF_ARROW) ? M_R : M_ADDR);
        mark(a, e, md);
        return;
    case LAT_E_CAST:
        if ((e->flags & LAT_EF_IMPLICIT) && e->a->type->kind == LAT_TY_ARRAY) {
            visit(a, e->a, M_ADDR); /* an array decays: its address, nothing read */
            return;
        }
        if ((e->flags & LAT_EF_IMPLICIT)) {
            visit(a, e->a, md);
            return;
        }
        visit(a, e->a, M_R);
        return;
    case LAT_E_NAME:
        mark(a, e, md);
        return;
    case LAT_E_CALL:
        if (!visit_atomic(a, e) && !visit_memory_call(a, e))
            visit_children(a, e);
        return;
    default:
        visit_children(a, e);
        return;
    }
}

static bool visit_expr_root(lat__visitor *v, lat__expr *e)
{
    visit(v->data, e, M_R);
    return false; /* visit() walks the children itself */
}

static bool visit_stmt(lat__visitor *v, lat__stmt *s)
{
    (void)v;
    (void)s;
    return true;
}

/* Locals the checks follow: scalars, pointers and arrays of scalars declared without an
 * initializer in a block (not a for's), whose address is never taken and, for arrays,
 * that only ever appear indexed. */
typedef struct uses {
    lat__sym *sym;
    bool bad;
} uses;

static bool only_indexed(lat__visitor *v, lat__expr *e)
{
    uses *u = v->data;
    if (e->kind == LAT_E_INDEX && e->a->kind == LAT_E_CAST && e->a->a->kind == LAT_E_NAME &&
        e->a->a->sym == u->sym) {
        lat__visit_expr(v, e->b);
        return false;
    }
    if (e->kind == LAT_E_SIZEOF || e->kind == LAT_E_ALIGNOF)
        return false;
    if (e->kind == LAT_E_NAME && e->sym == u->sym)
        u->bad = true;
    return true;
}

static bool scalar_of(const lat__type *t)
{
    return lat__is_arith(t) || t->kind == LAT_TY_PTR;
}

static void track_locals(ann *a, lat__func *fn)
{
    /* Declarations in a for's first part cannot be followed by a statement. */
    LAT_VEC(lat__sym *) in_for = {0};
    for (size_t i = 0; i < fn->locals.n; i++) {
        lat__sym *s = fn->locals.items[i];
        if (!s->def || s->def->init || s->storage != LAT_ST_NONE || (s->flags & LAT_SF_ADDRESS_TAKEN) ||
            (s->type->quals & LAT_Q_VOLATILE) || (s->cuda & LAT_CU_SHARED))
            continue;
        bool array = s->type->kind == LAT_TY_ARRAY;
        if (array ? !scalar_of(s->type->base) || s->type->vla : !scalar_of(s->type))
            continue;
        if (array) {
            uses u = {s, false};
            lat__visitor v = {NULL, only_indexed, NULL, &u};
            lat__visit_stmt(&v, fn->body);
            if (u.bad)
                continue;
        }
        lat__symx_of(a->u, s)->ck_tracked = true;
    }
    (void)in_for;
}

static bool untrack_for_init(lat__visitor *v, lat__stmt *s)
{
    ann *a = v->data;
    if (s->kind == LAT_S_FOR && s->init && s->init->kind == LAT_S_DECL && s->init->decls)
        for (lat__decl *d = s->init->decls->first; d; d = d->next)
            if (d->sym && d->sym->aux)
                lat__symx_of(a->u, d->sym)->ck_tracked = false;
    return true;
}

int lat__checks_mark(lat__unit *u, lat__ck_module *m, lat__expr *e, int kind)
{
    ann a = {u, m, {0}, NULL};
    lat__emit_init(&a.display, u, NULL);
    a.display.display = true;
    int site = add_site(&a, e, kind);
    e->site = site * LAT__CK_CODE_SITE + (through_packed(e) ? LAT__CK_CODE_PACKED : 0) + kind + 1;
    return site;
}

void lat__checks_annotate(lat__unit *u, lat__ck_module *m)
{
    ann a = {u, m, {0}, NULL};
    lat__emit_init(&a.display, u, NULL);
    a.display.display = true;
    lat__tu *tu = u->tu;
    for (size_t i = 0; i < tu->items.n; i++) {
        lat__ext *x = &tu->items.items[i];
        if (x->kind != LAT_X_FUNC || !(x->fn->sym->cuda & (LAT_CU_GLOBAL | LAT_CU_DEVICE)))
            continue;
        track_locals(&a, x->fn);
        lat__visitor f = {untrack_for_init, NULL, NULL, &a};
        lat__visit_stmt(&f, x->fn->body);
        lat__visitor v = {visit_stmt, visit_expr_root, NULL, &a};
        a.statements = &v;
        lat__visit_stmt(&v, x->fn->body);
    }
}

/* In pieces: ISO C compilers need take no string over 4095 characters. */
static const char *const prefix[] = {
           "void *__lat_ck(lat_emu_thread *, void *, unsigned long, unsigned long, int);\n"
           "void *__lat_cka(lat_emu_thread *, void *, unsigned long, unsigned long, int, void *, unsigned long);\n"
           "void *__lat_ckv(lat_emu_thread *, void *, unsigned long, unsigned long, int, const void *);\n"
           "void __lat_ck_tick(lat_emu_thread *);\n"
           "int __lat_ck_bar(lat_emu_thread *, int, int, const char *, int);\n"
           "unsigned long long __lat_ck_warp(lat_emu_thread *, int, unsigned, unsigned long long, int, int, const char *, int);\n"
           "int __lat_ck_match_all(lat_emu_thread *, unsigned, unsigned long long, int *, const char *, int);\n"
           "unsigned __lat_ck_activemask(lat_emu_thread *);\n"
           "void __lat_ck_trap(lat_emu_thread *, const char *, const char *, int);\n"
           "#define __lat_bar __lat_ck_bar\n"
           "#define __lat_warp __lat_ck_warp\n"
           "#define __lat_match_all __lat_ck_match_all\n"
           "#define __lat_activemask __lat_ck_activemask\n"
           "#define __lat_trap __lat_ck_trap\n"
           "void __lat_ck_local(lat_emu_thread *, void *, unsigned long);\n"
           "void __lat_ck_rbar(lat_emu_thread *, const int *, const char *, int);\n"
           "const unsigned *__lat_ck_rorder(lat_emu_thread *);\n"
           "int __lat_ck_fwd(lat_emu_thread *, int, int, const int *);\n"
           "void *__lat_ck_scratch(lat_emu_thread *, unsigned long);\n"
           "#define __lat_scratch __lat_ck_scratch\n"
           /* passes/checks.c's visit_memory_call gives these calls their sites' codes. */
           "void *__lat_ck_memset(lat_emu_thread *, void *, int, unsigned long, int);\n"
           "void *__lat_ck_memcpy(lat_emu_thread *, void *, const void *, unsigned long, int, int);\n"
           "void *__lat_ck_memmove(lat_emu_thread *, void *, const void *, unsigned long, int, int);\n"
           /* By their number of arguments: the emitter's own calls (an array's
            * initializer) have three and stay the C library's. */
           "#define __LAT_CK_MEM(a, b, c, d, e, f, ...) f\n"
           "#define __lat_ck_memset4(d, c, n, w) __lat_ck_memset(__lat_t, d, c, n, w)\n"
           "#define __lat_ck_memcpy5(d, s, n, w, r) __lat_ck_memcpy(__lat_t, d, s, n, w, r)\n"
           "#define __lat_ck_memmove5(d, s, n, w, r) __lat_ck_memmove(__lat_t, d, s, n, w, r)\n"
           "#define memset(...) __LAT_CK_MEM(__VA_ARGS__, 0, __lat_ck_memset4, memset, 0, 0)(__VA_ARGS__)\n"
           "#define memcpy(...) __LAT_CK_MEM(__VA_ARGS__, __lat_ck_memcpy5, 0, memcpy, 0, 0)(__VA_ARGS__)\n"
           "#define memmove(...) __LAT_CK_MEM(__VA_ARGS__, __lat_ck_memmove5, 0, memmove, 0, 0)(__VA_ARGS__)\n"
           /* p is (T *)0 for the access's type T, written by the emitter: TinyCC must not
            * type the access itself (emit.c's emit_builtin_arg says why). */
           "#ifdef __TINYC__\n"
           "#define __LAT_CK_ENTRY\n"
           "#define __LAT_CK(e, p, s) (*(__typeof__(p))__lat_ck(__lat_t, (void *)&(e), sizeof(*(p)), "
           "_Alignof(__typeof__(*(p))), s))\n"
           /* A plain assignment's store, its value given with the address (racecheck's
            * same-value writes): the value converted to the access's type, once. */
           "#define __LAT_CKV(e, p, s, v) ({ __typeof__(*(p)) __lat_v = (v); "
           "*(__typeof__(p))__lat_ckv(__lat_t, (void *)&(e), sizeof(*(p)), _Alignof(__typeof__(*(p))), s, "
           "&__lat_v) = __lat_v; })\n"
           /* A[I], A an array: its bounds travel along. A's address is taken once (its
            * expression may do something: s[i++][j]). */
           "#define __LAT_CKA(A, I, p, s) (*(__typeof__(p))({ __typeof__(A) *__lat_a = &(A); "
           "__lat_cka(__lat_t, (void *)&(*__lat_a)[I], sizeof(*(p)), _Alignof(__typeof__(*(p))), s, "
           "(void *)__lat_a, sizeof(A)); }))\n"
           "#define __LAT_CKAS(A, I, p, s, V, aligned) __LAT_CKA(A, I, p, s)\n"
           "#define __LAT_CKP(ok, checked, unchecked) checked\n"
           "#define __LAT_CKPR(ok, racefree, checked, unchecked) checked\n",
           "#else\n",
           lat__bounds_prefix,
           lat__bounds_prefix2,
           /* An access proven in bounds (bounds.h) needs memcheck's calls only where the
            * proof fails at run time, where shadows are kept (initcheck, racecheck) or
            * accesses logged (thread maps), and on fibers, where every access is a step of
            * the threads' turns (check/launch.c); `plain` (above) says which. */
           "#define __LAT_CKP(ok, checked, unchecked) "
           "(*(__builtin_expect(__lat_cki.plain && (ok), 1) ? &(unchecked) : &(checked)))\n"
           /* ... or where racecheck needs no records of it either (region_gen.c). */
           "#define __LAT_CKPR(ok, racefree, checked, unchecked) "
           "(*(__builtin_expect((__lat_cki.plain || (racefree)) && (ok), 1) ? &(unchecked) : &(checked)))\n"
           /* Optimised code judges the usual access inline (abi.h says which) and calls
            * the host code for the rest: a call per access was 90% of a checked launch.
            * Only what the host code would do for the same access is done here, so both
            * tiers report the same; TinyCC, which inlines nothing, calls the host code. */
           "typedef " LAT_EMU_XSTR(LAT_EMU_CK_REC_STRUCT) " __lat_ck_rec;\n"
           "typedef " LAT_EMU_XSTR(LAT_EMU_CK_LOGGED_STRUCT(void)) " __lat_ck_logged;\n"
           "typedef " LAT_EMU_XSTR(LAT_EMU_CK_FAST_STRUCT(void)) " __lat_ck_fast;\n"
           "typedef " LAT_EMU_XSTR(LAT_EMU_CK_TAIL_STRUCT) " __lat_ck_tail;\n"
           /* A record no access of thread me can race with: another block's shared memory
            * or an earlier launch's, its own, or before the last barrier (access.c's quiet). */
           "static inline __attribute__((always_inline)) int __lat_ck_quiet(const __lat_ck_fast *f, "
           "const __lat_ck_rec *r, unsigned me)\n"
           "{\n"
           "    unsigned long long x, y;\n"
           "    __builtin_memcpy(&x, &r->block, 8);\n"
           "    __builtin_memcpy(&y, &f->serial, 8);\n"
           "    return x != y || (r->thread == me && !r->mask2);\n"
           "}\n"
           /* What stays the same for the whole block (set once per OS thread), copied
            * into a function's locals at its entry (lower.c), where no store can touch it. */
           "typedef struct { __lat_ck_fast *f; unsigned long sh, sh_size; const unsigned char *room; "
           "unsigned char *sh_init; __lat_ck_rec *sh_race; int no_shadow, bare, plain; } __lat_ck_inv;\n"
           "static inline __attribute__((always_inline)) __lat_ck_inv __lat_ck_inv_of(lat_emu_thread *t)\n"
           "{\n"
           "    __lat_ck_fast *f = ((__lat_ck_tail *)(t + 1))->fast;\n"
           "    __lat_ck_inv i = {f, f->sh, f->sh_size, f->room, f->sh_init, f->sh_race, !f->sh_init && !f->sh_race, f->bare,\n"
           "                      !f->sh_init && !f->sh_race && !f->logging && f->on};\n"
           "    return i;\n"
           "}\n"
           "#define __LAT_CK_ENTRY const __lat_ck_inv __lat_cki = __lat_ck_inv_of(__lat_t);\n",
           /* An aligned 4-byte access at offset o of shared memory, inside a variable:
            * initcheck's bytes and racecheck's records, as the host code would judge
            * and update them. 0: the host code's to judge (it may report). */
           "static inline __attribute__((always_inline)) int __lat_ck_sh4(lat_emu_thread *t, __lat_ck_inv i, "
           "unsigned long o, int c)\n"
           "{\n"
           "    __lat_ck_fast *f = i.f;\n"
           "    unsigned me = t->lin;\n"
           "    int k = c & 3;\n"
           "    unsigned *in = i.sh_init ? (unsigned *)(i.sh_init + o) : 0;\n"
           "    __lat_ck_rec *w = i.sh_race ? i.sh_race + o / 2 : 0;\n"
           "    if ((in && k != 2 && *in != 0x01010101u) ||\n"
           "        (w && (!__lat_ck_quiet(f, w, me) || (k != 1 && !__lat_ck_quiet(f, w + 1, me)))))\n"
           "        return 0;\n"
           "    if (in && k != 1)\n"
           "        *in = 0x01010101u;\n"
           "    if (w) {\n"
           "        __lat_ck_rec *r = k == 1 ? w + 1 : w;\n"
           "        struct { unsigned short thread; unsigned char wepoch, mask; } tw =\n"
           "            {(unsigned short)me, f->wepoch[me >> 5], 0xf};\n"
           /* A read of a record live in this block and epoch: the reader's own place in
            * it, or the second reader's (access.c's note_read). */
           "        unsigned long long x, y;\n"
           "        __builtin_memcpy(&x, &r->block, 8);\n"
           "        __builtin_memcpy(&y, &f->serial, 8);\n"
           "        if (k == 1 && x == y) {\n"
           "            if (r->thread == me) {\n"
           "                r->site = c >> 4;\n"
           "                __builtin_memcpy(&r->thread, &tw, 4);\n"
           "            } else {\n"
           "                r->value = (unsigned)(c >> 4);\n"
           "                __builtin_memcpy(&r->thread2, &tw, 4);\n"
           "            }\n"
           "            return 1;\n"
           "        }\n"
           /* A few wide stores, not ten: {block, epoch}, {site, value}, the rest. */
           "        struct { int site; unsigned value; } sv = {c >> 4, 0};\n"
           "        struct { unsigned short thread; unsigned char wepoch, mask; unsigned zero; } tw8 =\n"
           "            {(unsigned short)me, f->wepoch[me >> 5], 0xf, 0};\n"
           "        __builtin_memcpy(&r->block, &f->serial, 8);\n"
           "        __builtin_memcpy(&r->site, &sv, 8);\n"
           "        __builtin_memcpy(&r->thread, &tw8, 8);\n"
           "    }\n"
           "    return 1;\n"
           "}\n"
           /* c: the site's code (site * 16 | packed 8 | local 4 | kind); b, bn: the array named, if
            * any; v: a plain assignment's value. */
           "static inline __attribute__((always_inline)) int __lat_ckf(lat_emu_thread *t, __lat_ck_inv i, "
           "void *p, unsigned long n, unsigned long al, int c, void *b, unsigned long bn, const void *v)\n"
           "{\n"
           "    __lat_ck_fast *f = i.f;\n"
           "    unsigned long a = (unsigned long)p, o;\n"
           "    int k = c & 3;\n"
           "    if (n == 4 && al <= 4 && k && !(c & 4) && !(a & 3) && f->on &&\n"
           "        (!b || (a >= (unsigned long)b && a + 4 <= (unsigned long)b + bn))) {\n"
           "        unsigned me = t->lin;\n"
           "        o = a - i.sh;\n"
           "        if (o < i.sh_size) {\n"
           "            if ((o & 15) + 4 <= i.room[o >> 4])\n"
           "                return __lat_ck_sh4(t, i, o, c);\n"
           "        } else {\n"
           "            int g = a - f->g_base[0] < f->g_size[0] ? 0 : a - f->g_base[1] < f->g_size[1] ? 1 :\n"
           "                    a - f->g_base[2] < f->g_size[2] ? 2 : a - f->g_base[3] < f->g_size[3] ? 3 : -1;\n"
           "            if (g < 0 || f->g_size[g] - (a - f->g_base[g]) < 4)\n"
           "                return 0;\n"
           "            if (!f->logging || a - f->g_base[g] + 4 <= f->g_quiet[g])\n"
           "                return 1;\n"
           /* A write whose value is not given is read back later: the host code's. */
           "            if ((k != 2 || v) && f->nlog < f->log_cap) {\n"
           "                __lat_ck_logged *e = &f->log[f->nlog++];\n"
           "                e->a = a;\n"
           "                e->r = f->g_region[g];\n"
           "                e->site = c >> 4;\n"
           "                e->epoch = f->epoch;\n"
           "                e->size = 4;\n"
           "                e->thread = (unsigned short)me;\n"
           "                e->kind = (unsigned char)k;\n"
           "                e->wepoch = f->wepoch[me >> 5];\n"
           "                if (k == 2) {\n"
           "                    unsigned x;\n"
           "                    __builtin_memcpy(&x, v, 4);\n"
           "                    e->after = x;\n"
           "                    e->kind |= " LAT_EMU_XSTR(LAT_EMU_CK_KNOWN) ";\n"
           "                }\n"
           "                return 1;\n"
           "            }\n"
           "        }\n"
           "    }\n"
           "    return 0;\n"
           "}\n",
           /* The host code's call is the rare path: told so, gcc keeps the thread's
            * values in registers across the access (an accumulator went through the stack). */
           "static inline __attribute__((always_inline)) void *__lat_ckx(lat_emu_thread *t, __lat_ck_inv i, "
           "void *p, unsigned long n, unsigned long al, int c, void *b, unsigned long bn, const void *v)\n"
           "{\n"
           "    if (i.bare || __builtin_expect(__lat_ckf(t, i, p, n, al, c, b, bn, v), 1))\n"
           "        return p;\n"
           "    return v ? __lat_ckv(t, p, n, al, c, v) : b ? __lat_cka(t, p, n, al, c, b, bn) : "
           "__lat_ck(t, p, n, al, c);\n"
           "}\n"
           "#define __LAT_CK(e, p, s) (*(__typeof__(p))__lat_ckx(__lat_t, __lat_cki, (void *)&(e), sizeof(*(p)), "
           "_Alignof(__typeof__(*(p))), s, 0, 0, 0))\n"
           "#define __LAT_CKV(e, p, s, v) ({ __typeof__(*(p)) __lat_v = (v); "
           "*(__typeof__(p))__lat_ckx(__lat_t, __lat_cki, (void *)&(e), sizeof(*(p)), _Alignof(__typeof__(*(p))), s, "
           "0, 0, &__lat_v) = __lat_v; })\n"
           "#define __LAT_CKA(A, I, p, s) (*(__typeof__(p))({ __typeof__(A) *__lat_a = &(A); "
           "__lat_ckx(__lat_t, __lat_cki, (void *)&(*__lat_a)[I], sizeof(*(p)), _Alignof(__typeof__(*(p))), s, "
           "(void *)__lat_a, sizeof(A), 0); }))\n"
           /* A[I], A inside V, a __shared__ variable: both bounds are known here, so that
            * the usual access costs a few compares (and, under initcheck or racecheck, its
            * shadows), which the optimiser may hoist out of a loop. */
           "static inline __attribute__((always_inline)) void *__lat_cks(lat_emu_thread *t, __lat_ck_inv i, "
           "void *p, unsigned long n, unsigned long al, int c, void *b, unsigned long bn, int inside, int aligned)\n"
           "{\n"
           "    unsigned long a = (unsigned long)p;\n"
           "    if (i.bare || __builtin_expect(inside && (c & 3) && (aligned || !(a & (al - 1))) && i.f->on &&\n"
           "                         (i.no_shadow || (n == 4 && __lat_ck_sh4(t, i, a - i.sh, c))), 1))\n"
           "        return p;\n"
           "    return __lat_cka(t, p, n, al, c, b, bn);\n"
           "}\n"
           /* Aligned: 1 when no packed struct is on the way from V to the element, whose
            * address is then a multiple of its alignment (V's is at least 16). */
           "#define __LAT_CKAS(A, I, p, s, V, aligned) (*(__typeof__(p))({ __typeof__(A) *__lat_a = &(A); "
           "char *__lat_e = (char *)&(*__lat_a)[I]; "
           "__lat_cks(__lat_t, __lat_cki, __lat_e, sizeof(*(p)), _Alignof(__typeof__(*(p))), s, (void *)__lat_a, "
           "sizeof(A), (unsigned long)(__lat_e - (char *)__lat_a) <= sizeof(A) - sizeof(*(p)) && "
           "(unsigned long)((char *)__lat_a - (char *)&(V)) <= sizeof(V) - sizeof(A), aligned); }))\n"
           "#endif\n"
           /* A loop turn: the count just past the thread context (ck.h's lat__ck_fiber.ticks). */
           "#define __LAT_TICK (--*(int *)(__lat_t + 1) < 0 ? __lat_ck_tick(__lat_t) : (void)0)\n",
    NULL,
};

const char *const *lat__checks_prefix(void)
{
    return prefix;
}

static bool note_site(lat__visitor *v, lat__expr *e)
{
    if (e->site)
        *(bool *)v->data = true;
    return !*(bool *)v->data;
}

bool lat__checks_has_site(const lat__expr *e)
{
    bool seen = false;
    lat__visitor v = {NULL, note_site, NULL, &seen};
    lat__visit_expr(&v, (lat__expr *)e);
    return seen;
}
