/* The printer: the tree written back as C (emit.h). */
#include "emit.h"
#include "arith.h"
#include "bounds.h"
#include "checks.h"

#include "front/builtins.h"
#include "front/visit.h"
#include "emu/check/ck.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- output ------------------------------------------------------------------------------ */

void lat__emit_init(lat__emitter *em, lat__unit *u, const lat__lower_in *in)
{
    memset(em, 0, sizeof *em);
    em->u = u;
    em->in = in;
    em->mode = -1;
    em->fresh_line = true;
    em->file = UINT32_MAX; /* the first place written gets a #line marker */
}

static void put(lat__emitter *em, const char *s, size_t n)
{
    if (em->len + n + 1 > em->cap)
        em->buf = lat__arena_grow(&em->u->arena, em->buf, &em->cap, em->len + n + 1, 1);
    memcpy(em->buf + em->len, s, n);
    em->len += n;
    em->buf[em->len] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n') {
            em->line++;
            em->fresh_line = true;
        } else if (s[i] != ' ') {
            em->fresh_line = false;
        }
    }
}

void lat__emit_str(lat__emitter *em, const char *s)
{
    put(em, s, strlen(s));
}

void lat__emit_fmt(lat__emitter *em, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        put(em, small, (size_t)n);
        return;
    }
    char *big = lat__arena_alloc(&em->u->arena, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    put(em, big, (size_t)n);
}

void lat__emit_newline(lat__emitter *em)
{
    /* A line of the output that stands for no line of the user's: the compiler counts it
     * all the same, so the next place written gets a #line marker. */
    put(em, "\n", 1);
    em->file = UINT32_MAX;
}

void lat__emit_directive(lat__emitter *em, const char *line)
{
    lat__emit_newline(em);
    lat__emit_str(em, line);
    lat__emit_newline(em);
}

const char *lat__emit_c_string(lat__unit *u, const char *s)
{
    size_t n = strlen(s);
    char *q = lat__arena_alloc(&u->arena, 4 * n + 3), *at = q;
    *at++ = '"';
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\') {
            *at++ = '\\';
            *at++ = (char)*c;
        } else if (*c < 0x20 || *c == 0x7f) {
            /* A newline would end the directive or literal, and the rest of the name
             * would be compiled as the program. */
            at += sprintf(at, "\\%03o", *c);
        } else {
            *at++ = (char)*c;
        }
    }
    *at++ = '"';
    *at = '\0';
    return q;
}

static void line_marker(lat__emitter *em, lat__loc loc)
{
    if (!em->fresh_line)
        lat__emit_newline(em);
    lat__emit_fmt(em, "#line %u %s\n", loc.line, lat__emit_c_string(em->u, lat__loc_file(em->u, loc)));
    em->file = loc.file;
    em->line = loc.line;
}

void lat__emit_at(lat__emitter *em, lat__loc loc)
{
    if (loc.line == 0 || em->display)
        return; /* made by a pass, or a built-in: wherever the output is */
    if (loc.file != em->file || loc.line < em->line || loc.line > em->line + 8) {
        line_marker(em, loc);
        return;
    }
    while (em->line < loc.line)
        put(em, "\n", 1);
}

/* ---- names ------------------------------------------------------------------------------ */

lat__symx *lat__symx_of(lat__unit *u, lat__sym *s)
{
    if (!s->aux) {
        lat__symx *x = lat__arena_alloc(&u->arena, sizeof *x);
        x->shared = -1;
        x->param = -1;
        x->slot = -1;
        s->aux = x;
    }
    return s->aux;
}

const char *lat__emit_name(lat__unit *u, lat__sym *s)
{
    if (!s->name)
        return "__lat_unnamed";
    if (s->flags & LAT_SF_BUILTIN)
        return s->name->name;
    lat__symx *x = lat__symx_of(u, s);
    if (!x->name) {
        /* The prelude defines a macro, function or type of this name: the program's own
         * gets another, so that the two cannot collide in the emitted C, as a program's
         * names shadow CUDA's headers' on NVRTC. A kernel renamed so is still found by its
         * own name (lower.c gives it as the kernel's expression). */
        if (s->emit_name)
            x->name = s->emit_name; /* the front end's: an overload's own name */
        else if (lat__builtin_reserved(s->name->name, s->name->len))
            x->name = lat__arena_printf(&u->arena, "__lat_u_%s", s->name->name);
        else
            x->name = s->name->name;
    }
    return x->name;
}

static const char *typedef_name(void *data, lat__sym *s)
{
    return lat__emit_name(data, s);
}

static const char *record_name(void *data, lat__record *r)
{
    lat__unit *u = data;
    const char *kw = r->kind == LAT_TY_UNION ? "union" : "struct";
    const char *tag = r->emit_tag ? r->emit_tag : r->tag ? r->tag->name : "__lat_anon";
    if (!r->emit_tag && r->tag && lat__builtin_reserved(r->tag->name, r->tag->len))
        r->emit_tag = tag = lat__arena_printf(&u->arena, "__lat_u_%s", r->tag->name);
    return lat__arena_printf(&u->arena, "%s %s", kw, tag);
}

/* A pointer to a function points to a translated device function, which takes the
 * thread's context first: its type says so, and a call through it passes the context. */
static const char context_param[] = "lat_emu_thread *";

const char *lat__emit_type(lat__unit *u, const lat__type *t, const char *declarator)
{
    lat__type_names nm = {false, true, typedef_name, record_name, u, context_param};
    return lat__type_spell(u, t, declarator, &nm);
}

const char *lat__emit_type_resolved(lat__unit *u, const lat__type *t, const char *declarator)
{
    lat__type_names nm = {true, true, typedef_name, record_name, u, context_param};
    return lat__type_spell(u, t, declarator, &nm);
}

/* ---- expressions ------------------------------------------------------------------------- */

static int binary_prec(int op)
{
    switch (op) {
    case LAT_P_STAR: case LAT_P_SLASH: case LAT_P_PERCENT: return 13;
    case LAT_P_PLUS: case LAT_P_MINUS: return 12;
    case LAT_P_SHL: case LAT_P_SHR: return 11;
    case LAT_P_LT: case LAT_P_GT: case LAT_P_LE: case LAT_P_GE: return 10;
    case LAT_P_EQ: case LAT_P_NE: return 9;
    case LAT_P_AMP: return 8;
    case LAT_P_CARET: return 7;
    case LAT_P_PIPE: return 6;
    case LAT_P_ANDAND: return 5;
    case LAT_P_OROR: return 4;
    case LAT_P_COMMA: return LAT_PREC_COMMA;
    default: return 13;
    }
}

/* The precedence of e's printed form. */
static int prec_of(const lat__expr *e)
{
    switch (e->kind) {
    case LAT_E_BINARY: return binary_prec(e->op);
    case LAT_E_ASSIGN: return LAT_PREC_ASSIGN;
    case LAT_E_COND: return LAT_PREC_COND;
    case LAT_E_UNARY: case LAT_E_SIZEOF: case LAT_E_ALIGNOF: return LAT_PREC_UNARY;
    case LAT_E_CAST:
        /* A written cast, (T)x or T(x) printed as (T)(x), binds as a unary operator:
         * ((int *)p)[i] keeps its parentheses (printed as (int *)p[i], it cast p[i]). */
        return (e->flags & LAT_EF_IMPLICIT) && e->a ? prec_of(e->a) : LAT_PREC_UNARY;
    default: return LAT_PREC_POSTFIX;
    }
}

static void emit_init(lat__emitter *em, const lat__expr *e);

/* -G, unchecked: a __shared__ array of static size is a static array of the module, by
 * its name, for a debugger to print (docs/debugging.md); a -G module's blocks run one at a
 * time (emu.c). */
static bool debug_static_shared(const lat__emitter *em, const lat__sym *s)
{
    return em->in && em->in->debug && !em->in->checked && s->storage != LAT_ST_EXTERN;
}

/* Whether the function being written declares the __shared__ variable s. */
static bool declared_here(const lat__emitter *em, const lat__sym *s)
{
    if (!em->fn)
        return true;
    for (size_t i = 0; i < em->fn->shared.n; i++)
        if (em->fn->shared.items[i] == s)
            return true;
    return false;
}

static void shared_ref(lat__emitter *em, lat__sym *s)
{
    lat__symx *x = lat__symx_of(em->u, s);
    if ((s->depth > 0 || !(s->flags & LAT_SF_FILE_SCOPE)) && declared_here(em, s)) {
        lat__emit_fmt(em, "(*__lat_sh_%d)", x->shared);
        return;
    }
    /* A lambda's body naming its kernel's __shared__ array (captured by reference, as
     * C++ sees it) reads it through the block's shared memory as a file-scope one is. */
    if (s->depth > 0 || !(s->flags & LAT_SF_FILE_SCOPE)) {
        if (debug_static_shared(em, s)) {
            /* -G: the array is a static of its function, out of the lambda's sight: its
             * name makes a compile error rather than a read of other memory */
            lat__emit_str(em, lat__emit_name(em->u, s));
            return;
        }
        const char *ptr = lat__emit_type(em->u, s->type, "(*)");
        if (s->storage == LAT_ST_EXTERN)
            lat__emit_fmt(em, "(*(%s)(__lat_t->dshared))", ptr);
        else
            lat__emit_fmt(em, "(*(%s)(__lat_t->shared + __lat_t->shoff[%d]))", ptr, x->shared);
        return;
    }
    /* At file scope: read through the block's shared memory wherever it is used (-G,
     * unchecked: the static array emit_shared_decl declared, by its name). */
    bool dynamic = s->storage == LAT_ST_EXTERN;
    if (debug_static_shared(em, s)) {
        lat__emit_str(em, lat__emit_name(em->u, s));
        return;
    }
    lat__type *t = s->type;
    const char *ptr = lat__emit_type(em->u, t, "(*)");
    if (dynamic)
        lat__emit_fmt(em, "(*(%s)(__lat_t->dshared))", ptr);
    else
        lat__emit_fmt(em, "(*(%s)(__lat_t->shared + __lat_t->shoff[%d]))", ptr, x->shared);
}

static void name_ref(lat__emitter *em, const lat__expr *e)
{
    lat__sym *s = e->sym;
    if (em->display) {
        lat__emit_str(em, s->name ? s->name->name : "?");
        return;
    }
    /* Enumerators, and const integers initialised by constants (C++'s constants, which
     * C would not accept in a case label or a file-scope initializer): their values. */
    bool const_var = s->kind == LAT_SYM_VAR && (e->flags & LAT_EF_CONST);
    if (s->kind == LAT_SYM_ENUM_CONST || const_var) {
        int64_t v = const_var ? e->ival : s->value;
        const lat__type *t = const_var ? e->type : s->type;
        const char *l = lat__sizeof(t) > 4 ? "L" : "";
        if (lat__is_unsigned(t))
            lat__emit_fmt(em, "%llu%s", (unsigned long long)v, lat__sizeof(t) > 4 ? "uL" : "u");
        else if (v == INT64_MIN)
            lat__emit_str(em, "(-9223372036854775807L - 1)");
        else if (v < 0)
            lat__emit_fmt(em, "(%lld%s)", (long long)v, l);
        else
            lat__emit_fmt(em, "%lld%s", (long long)v, l);
        return;
    }
    if (s->kind == LAT_SYM_VAR && (s->cuda & LAT_CU_SHARED)) {
        shared_ref(em, s);
        return;
    }
    if (em->local_tid && (s->flags & LAT_SF_THREAD_VARYING)) {
        lat__emit_str(em, "__lat_tid");
        return;
    }
    if (em->global_x && (s->flags & LAT_SF_BLOCK_UNIFORM)) {
        lat__emit_fmt(em, "__lat_%s", s->name->name); /* lat__emit_block_uniforms' copy */
        return;
    }
    lat__emit_str(em, lat__emit_name(em->u, s));
}

void lat__emit_block_uniforms(lat__emitter *em)
{
    if (em->global_x)
        lat__emit_str(em, " int __lat_gb = (int)(__lat_t->block_idx.x * __lat_bx);"
                          " const uint3 __lat_blockIdx = __lat_t->block_idx, __lat_blockDim = __lat_t->block_dim,"
                          " __lat_gridDim = __lat_t->grid_dim;");
}

static bool takes_context(lat__unit *u, lat__sym *s)
{
    return s && s->kind == LAT_SYM_FUNC && !(s->flags & LAT_SF_BUILTIN) && lat__symx_of(u, s)->hidden;
}

static bool find_jump(lat__visitor *v, lat__expr *e)
{
    if (e->kind == LAT_E_COND || (e->kind == LAT_E_BINARY && (e->op == LAT_P_ANDAND || e->op == LAT_P_OROR)))
        *(bool *)v->data = true;
    return !*(bool *)v->data;
}

/* Whether e holds an &&, || or ?: anywhere. */
static bool has_jump(const lat__expr *e)
{
    bool found = false;
    lat__visitor v = {.expr = find_jump, .data = &found};
    lat__visit_expr(&v, (lat__expr *)e);
    return found;
}

/* An argument of a builtin. Many are the prelude's macros, which look at an argument's
 * type through _Generic or __typeof__; TinyCC 0.9.27 corrupts the code around such a
 * look when the argument holds (a && 1) || b or (c ? 1 : 0) || b (it patches jumps it
 * never emitted). Through a statement expression TinyCC sees a plain value. */
static void emit_builtin_arg(lat__emitter *em, const lat__expr *a)
{
    const lat__type *t = a->type;
    if (em->display || !t || !lat__is_scalar(t) || !has_jump(a)) {
        lat__emit_expr(em, a, LAT_PREC_ASSIGN);
        return;
    }
    lat__emit_fmt(em, "({ %s = ", lat__emit_type(em->u, t, "__lat_g"));
    lat__emit_expr(em, a, LAT_PREC_ASSIGN);
    lat__emit_str(em, "; __lat_g; })");
}

const lat__expr *lat__emit_direct_callee(const lat__expr *call)
{
    const lat__expr *fn = lat__skip_implicit(call->a);
    return fn->kind == LAT_E_NAME && fn->sym &&
                   (fn->sym->kind == LAT_SYM_FUNC || fn->sym->kind == LAT_SYM_BUILTIN)
               ? fn
               : NULL;
}

/* A call of a built-in that only computes (no atomic, warp or block operation, no printf,
 * trap or heap) with two or more arguments making accesses the checks see: C leaves the
 * arguments' order open, and TinyCC's code and gcc's took them in opposite orders (the
 * fmaf(-b, c, a) that a - b * c is contracted to: its reports came in two orders). In
 * checked code its arguments are taken left to right, into temporaries. */
static bool call_in_order(const lat__emitter *em, const lat__expr *e, const lat__expr *fn, bool builtin)
{
    if (!em->checked || em->display || !builtin || e->nargs < 2 || !fn->sym->builtin)
        return false;
    const lat__builtin *b = lat__builtin_get(fn->sym->builtin);
    if (!b || lat__builtin_ordered(b))
        return false;
    int with_sites = 0;
    for (int i = 0; i < e->nargs; i++) {
        if (!e->args[i]->type || !lat__is_scalar(e->args[i]->type))
            return false;
        with_sites += lat__checks_has_site(e->args[i]);
    }
    return with_sites >= 2;
}

/* Whether s is a member function called with its object first (its first parameter is
 * `this`: not a static member). */
static bool method_with_this(const lat__sym *s)
{
    return s && s->kind == LAT_SYM_FUNC && (s->flags & LAT_SF_METHOD) && s->fn && s->fn->nparams > 0 &&
           s->fn->params[0]->name && strcmp(s->fn->params[0]->name->name, "this") == 0;
}

/* A call as the user wrote it, for the checks' reports: no context argument, and a member
 * function's call as tile.meta_group_rank(), not meta_group_rank(__lat_t, &tile). */
static void emit_display_call(lat__emitter *em, const lat__expr *e, const lat__expr *fn)
{
    int from = 0;
    if (fn->kind == LAT_E_NAME && method_with_this(fn->sym) && e->nargs > 0) {
        const lat__expr *self = lat__skip_implicit(e->args[0]);
        if (self->kind == LAT_E_UNARY && self->op == LAT_P_AMP) {
            lat__emit_expr(em, self->a, LAT_PREC_POSTFIX);
            lat__emit_str(em, ".");
        } else {
            lat__emit_expr(em, self, LAT_PREC_POSTFIX);
            lat__emit_str(em, "->");
        }
        from = 1;
    }
    lat__emit_expr(em, e->a, LAT_PREC_POSTFIX);
    lat__emit_str(em, "(");
    for (int i = from; i < e->nargs; i++) {
        if (i > from)
            lat__emit_str(em, ", ");
        lat__emit_expr(em, e->args[i], LAT_PREC_ASSIGN);
    }
    lat__emit_str(em, ")");
}

/* TinyCC 0.9.27 on x86-64 takes a struct of at most 16 bytes that a call returns in
 * registers into a temporary of the struct's size, but stores whole 8-byte registers: the
 * 4 bytes after a float3 (2 after a short3, 6 after a __half...) land in whatever local
 * it allocated just before, such as the counter of the loop around the call (cuda-samples'
 * nbody looped for ever, and other layouts gave wrong sums). Eight bytes of padding declared
 * before the call, in a statement expression, take those stores; the optimising tier's
 * compiler drops them. They do not guard a value spilled after them (max(a, f().x)):
 * scripts/build-tinycc patches TinyCC to make the temporary whole registers long, and the
 * padding stays for a TinyCC built without that patch. */
static bool tcc_short_struct_return(const lat__type *t)
{
    if (!t || !lat__is_record(t) || !lat__is_complete(t))
        return false;
    uint32_t size = lat__sizeof(t);
    return size > 0 && size < 16 && size % 8 != 0;
}

static void emit_call_unpadded(lat__emitter *em, const lat__expr *e)
{
    const lat__expr *fn = lat__skip_implicit(e->a);
    if (em->display) {
        emit_display_call(em, e, fn);
        return;
    }
    /* The lowering's own helpers (__lat_*) are plain functions. */
    bool builtin = fn->kind == LAT_E_NAME && fn->sym && (fn->sym->flags & LAT_SF_BUILTIN) &&
                   fn->sym->name && strncmp(fn->sym->name->name, "__lat_", 6) != 0;
    int temps = -1;
    if (call_in_order(em, e, fn, builtin)) {
        temps = em->tmp++;
        lat__emit_str(em, "({ ");
        for (int i = 0; i < e->nargs; i++) {
            char name[48];
            snprintf(name, sizeof name, "__lat_a%d_%d", temps, i);
            lat__emit_fmt(em, "%s = ", lat__emit_type(em->u, lat__unqualified(em->u, (lat__type *)e->args[i]->type), name));
            emit_builtin_arg(em, e->args[i]);
            lat__emit_str(em, "; ");
        }
    }
    lat__emit_expr(em, e->a, LAT_PREC_POSTFIX);
    lat__emit_str(em, "(");
    bool first = true;
    if (lat__emit_direct_callee(e) ? takes_context(em->u, fn->sym) : !em->display) {
        lat__emit_str(em, "__lat_t");
        first = false;
    }
    for (int i = 0; i < e->nargs; i++) {
        if (!first)
            lat__emit_str(em, ", ");
        first = false;
        if (temps >= 0)
            lat__emit_fmt(em, "__lat_a%d_%d", temps, i);
        else if (builtin)
            emit_builtin_arg(em, e->args[i]);
        else
            lat__emit_expr(em, e->args[i], LAT_PREC_ASSIGN);
    }
    lat__emit_str(em, temps >= 0 ? "); })" : ")");
}

static void emit_call(lat__emitter *em, const lat__expr *e)
{
    if (em->display || !tcc_short_struct_return(e->type)) {
        emit_call_unpadded(em, e);
        return;
    }
    int pad = em->tmp++;
    lat__emit_fmt(em, "({ char __lat_pad%d[8]; (void)__lat_pad%d; ", pad, pad);
    emit_call_unpadded(em, e);
    lat__emit_str(em, "; })");
}

static void emit_member(lat__emitter *em, const lat__expr *e)
{
    /* An anonymous member in the path is transparent in C: base.field. */
    const lat__expr *base = e->a;
    bool arrow = (e->flags & LAT_EF_ARROW) != 0;
    while (base->kind == LAT_E_MEMBER && base->field && !base->field->name) {
        arrow = (base->flags & LAT_EF_ARROW) != 0;
        base = base->a;
    }
    lat__emit_expr(em, base, LAT_PREC_POSTFIX);
    lat__emit_str(em, arrow ? "->" : ".");
    lat__emit_str(em, e->field && e->field->name ? e->field->name->name : "?");
}

static void emit_literal(lat__emitter *em, const lat__expr *e)
{
    if (e->text) {
        put(em, e->text, e->len ? e->len : strlen(e->text));
        return;
    }
    if (e->kind == LAT_E_FLOAT) {
        lat__emit_fmt(em, "%.17g", e->fval);
        return;
    }
    if (lat__is_unsigned(e->type))
        lat__emit_fmt(em, "%lluu%s", (unsigned long long)e->ival, lat__sizeof(e->type) > 4 ? "l" : "");
    else
        lat__emit_fmt(em, "%lld%s", (long long)e->ival, lat__sizeof(e->type) > 4 ? "l" : "");
}

static void emit_checked(lat__emitter *em, const lat__expr *e, int prec);
static bool emit_checked_store(lat__emitter *em, const lat__expr *e);
static bool emit_checked_sequenced(lat__emitter *em, const lat__expr *e);
static const lat__expr *bounded_array(const lat__expr *e);

/* TinyCC 0.9.27 keeps the value of &&, || and ?: as a jump until it is used, and types it
 * int when it is made: (unsigned)(a && b) and (c ? 1u : 0u) stay signed for TinyCC, so
 * ~(unsigned)(a && b) < 0 and (c ? 1u : 0u) - 1 < 0 come out true. Adding an unsigned 0
 * makes the value where C says it is unsigned; 64-bit and narrower types are not affected. */
static bool tcc_signed_jump(const lat__expr *e, const lat__type *as)
{
    e = lat__skip_implicit(e);
    bool jump = e->kind == LAT_E_COND ||
                (e->kind == LAT_E_BINARY && (e->op == LAT_P_ANDAND || e->op == LAT_P_OROR));
    return jump && as && lat__is_integer(as) && lat__is_unsigned(as) && lat__sizeof(as) == 4;
}

static void emit_unsigned_jump(lat__emitter *em, const lat__expr *e)
{
    const lat__expr *outer = em->jump_fixed;
    em->jump_fixed = lat__skip_implicit(e);
    lat__emit_str(em, "(");
    lat__emit_expr(em, e, binary_prec(LAT_P_PLUS));
    lat__emit_str(em, " + 0u)");
    em->jump_fixed = outer;
}

void lat__emit_expr(lat__emitter *em, const lat__expr *e, int prec)
{
    if (em->checked && e->site && !em->display) {
        emit_checked(em, e, prec);
        return;
    }
    if (em->hooks.expr && !em->display && em->hooks.expr(em, e, prec))
        return;
    int mine = prec_of(e);
    bool paren = mine < prec;
    if (!em->display && e->kind == LAT_E_CAST && e->a && tcc_signed_jump(e->a, e->to)) {
        /* (unsigned)(a && b), implicit or written */
        if (!(e->flags & LAT_EF_IMPLICIT))
            lat__emit_fmt(em, "(%s)", lat__emit_type(em->u, e->to, NULL));
        emit_unsigned_jump(em, e->a);
        return;
    }
    if (!em->display && e->kind == LAT_E_COND && e != em->jump_fixed && tcc_signed_jump(e, e->type)) {
        /* c ? 1u : 0u */
        emit_unsigned_jump(em, e);
        return;
    }
    if (e->kind == LAT_E_CAST && (e->flags & LAT_EF_IMPLICIT)) {
        lat__emit_expr(em, e->a, prec);
        return;
    }
    lat__emit_at(em, e->loc);
    if (paren)
        lat__emit_str(em, "(");
    switch (e->kind) {
    case LAT_E_INT:
    case LAT_E_FLOAT:
    case LAT_E_STRING:
        emit_literal(em, e);
        break;
    case LAT_E_NAME:
        name_ref(em, e);
        break;
    case LAT_E_UNARY: {
        lat__emit_str(em, lat__punct_spelling((lat__punct)e->op));
        /* - -x, & &x...: keep the two apart */
        const lat__expr *a = lat__skip_implicit(e->a);
        if (a->kind == LAT_E_UNARY || (a->kind == LAT_E_INT && a->text && a->text[0] == '-'))
            lat__emit_str(em, " ");
        lat__emit_expr(em, e->a, LAT_PREC_UNARY);
        break;
    }
    case LAT_E_POSTFIX:
        lat__emit_expr(em, e->a, LAT_PREC_POSTFIX);
        lat__emit_str(em, lat__punct_spelling((lat__punct)e->op));
        break;
    case LAT_E_BINARY: {
        int bp = binary_prec(e->op);
        lat__emit_expr(em, e->a, bp);
        lat__emit_fmt(em, e->op == LAT_P_COMMA ? "%s " : " %s ", lat__punct_spelling((lat__punct)e->op));
        lat__emit_expr(em, e->b, bp + 1);
        break;
    }
    case LAT_E_ASSIGN:
        if (emit_checked_store(em, e) || emit_checked_sequenced(em, e))
            break;
        lat__emit_expr(em, e->a, LAT_PREC_UNARY);
        lat__emit_fmt(em, " %s ", lat__punct_spelling((lat__punct)e->op));
        lat__emit_expr(em, e->b, LAT_PREC_ASSIGN);
        break;
    case LAT_E_COND:
        if (em->global_x && lat__arith_select_both(e)) {
            /* both arms, then the choice: a select gcc vectorises (arith.h says when) */
            int k = em->tmp++;
            const char *ta = lat__emit_type(em->u, e->type, lat__arena_printf(&em->u->arena, "__lat_sa%d", k));
            const char *tb = lat__emit_type(em->u, e->type, lat__arena_printf(&em->u->arena, "__lat_sb%d", k));
            lat__emit_fmt(em, "({ %s = ", ta);
            lat__emit_expr(em, e->b, LAT_PREC_ASSIGN);
            lat__emit_fmt(em, "; %s = ", tb);
            lat__emit_expr(em, e->c, LAT_PREC_ASSIGN);
            /* chosen by a mask, not a branch: gcc would sink each arm into a branch of its
             * own and the select would be a branch again */
            const char *bits = lat__sizeof(e->type) == 8 ? "long long" : "int";
            lat__emit_fmt(em, "; %s __lat_sm%d = -(%s)!!(", bits, k, bits);
            lat__emit_expr(em, e->a, LAT_PREC_COMMA);
            lat__emit_fmt(em, "); union { %s v; %s b; } __lat_su%d = {__lat_sa%d}, __lat_sv%d = {__lat_sb%d};"
                              " __lat_su%d.b = (__lat_su%d.b & __lat_sm%d) | (__lat_sv%d.b & ~__lat_sm%d);"
                              " __lat_su%d.v; })",
                          lat__emit_type(em->u, e->type, ""), bits, k, k, k, k, k, k, k, k, k, k);
            break;
        }
        lat__emit_expr(em, e->a, LAT_PREC_COND + 1);
        lat__emit_str(em, " ? ");
        if (e->b)
            lat__emit_expr(em, e->b, LAT_PREC_COMMA);
        lat__emit_str(em, " : ");
        lat__emit_expr(em, e->c, LAT_PREC_COND);
        break;
    case LAT_E_CALL:
        if (!em->display && (e->flags & LAT_EF_CONST) && lat__is_integer(e->type)) {
            /* a constexpr function's value (front/parse_consteval.c): a constant that C
             * takes anywhere, a file-scope initializer too */
            if (e->ival == INT64_MIN)
                lat__emit_fmt(em, "((%s)(-9223372036854775807LL - 1))", lat__emit_type(em->u, e->type, NULL));
            else
                lat__emit_fmt(em, "((%s)%lldLL)", lat__emit_type(em->u, e->type, NULL), (long long)e->ival);
            break;
        }
        emit_call(em, e);
        break;
    case LAT_E_INDEX:
        lat__emit_expr(em, e->a, LAT_PREC_POSTFIX);
        lat__emit_str(em, "[");
        lat__emit_expr(em, e->b, LAT_PREC_COMMA);
        lat__emit_str(em, "]");
        break;
    case LAT_E_MEMBER:
        emit_member(em, e);
        break;
    case LAT_E_CAST:
        lat__emit_fmt(em, "(%s)", lat__emit_type(em->u, e->to, NULL));
        if (e->flags & LAT_EF_FUNCTIONAL) {
            lat__emit_str(em, "(");
            lat__emit_expr(em, e->a, LAT_PREC_COMMA);
            lat__emit_str(em, ")");
        } else {
            lat__emit_expr(em, e->a, LAT_PREC_UNARY);
        }
        break;
    case LAT_E_SIZEOF:
    case LAT_E_ALIGNOF:
        lat__emit_str(em, e->kind == LAT_E_SIZEOF ? "sizeof" : "_Alignof");
        if (e->a && e->a->type && !em->display) {
            /* By its type: TinyCC miscompiles some expressions it only types (above). */
            lat__emit_fmt(em, "(%s)", lat__emit_type(em->u, e->a->type, NULL));
        } else if (e->a) {
            lat__emit_str(em, "(");
            lat__emit_expr(em, e->a, LAT_PREC_COMMA);
            lat__emit_str(em, ")");
        } else {
            lat__emit_fmt(em, "(%s)", lat__emit_type(em->u, e->to, NULL));
        }
        break;
    case LAT_E_COMPOUND:
        lat__emit_fmt(em, "(%s)", lat__emit_type(em->u, e->to, NULL));
        emit_init(em, e->a);
        break;
    case LAT_E_INIT:
        emit_init(em, e);
        break;
    case LAT_E_STMT:
        lat__emit_str(em, "(");
        lat__emit_stmt(em, e->stmt);
        lat__emit_str(em, ")");
        break;
    case LAT_E_OFFSETOF:
        lat__emit_fmt(em, "((unsigned long)&((%s *)0)->%s)", lat__emit_type(em->u, e->to, NULL), e->text);
        break;
    case LAT_E_VA_ARG:
        lat__emit_str(em, "__builtin_va_arg(");
        lat__emit_expr(em, e->a, LAT_PREC_ASSIGN);
        lat__emit_fmt(em, ", %s)", lat__emit_type(em->u, e->to, NULL));
        break;
    case LAT_E_RAW:
        lat__emit_str(em, e->text);
        break;
    default:
        lat__emit_str(em, "0");
        break;
    }
    if (paren)
        lat__emit_str(em, ")");
}

/* An access the checks see: __LAT_CK(access, (T *)0, code), or __LAT_CKA(array, index,
 * (T *)0, code) for an element of an array, whose bounds travel along. */
/* The array whose bounds travel with access e (an element of it), or NULL. (An array of
 * unknown size, extern __shared__ s[], is bounded by its memory instead.) */
static const lat__expr *bounded_array(const lat__expr *e)
{
    if (!(e->kind == LAT_E_INDEX && e->a->kind == LAT_E_CAST && (e->a->flags & LAT_EF_IMPLICIT) &&
          e->a->a->type->kind == LAT_TY_ARRAY && lat__is_complete(e->a->a->type)))
        return NULL;
    /* Its address is taken (__LAT_CKA): an array in a function's result has none. */
    const lat__expr *a = e->a->a;
    while (a->kind == LAT_E_MEMBER && !(a->flags & LAT_EF_ARROW))
        a = a->a;
    bool lvalue = a->kind == LAT_E_NAME || a->kind == LAT_E_INDEX || a->kind == LAT_E_COMPOUND ||
                  a->kind == LAT_E_MEMBER || (a->kind == LAT_E_UNARY && a->op == LAT_P_STAR);
    return lvalue ? e->a->a : NULL;
}

/* The __shared__ variable (of a size known here) that array a is, or is inside of by
 * subscripts and members alone, or NULL; *packed: a packed struct is on the way. */
static const lat__expr *shared_root(const lat__expr *a, bool *packed)
{
    *packed = false;
    for (;;) {
        if (a->kind == LAT_E_MEMBER && !(a->flags & LAT_EF_ARROW)) {
            const lat__type *r = a->a->type;
            *packed |= lat__is_record(r) && r->rec && r->rec->packed;
            a = a->a;
        }
        else if (a->kind == LAT_E_INDEX && a->a->kind == LAT_E_CAST && (a->a->flags & LAT_EF_IMPLICIT) &&
                 a->a->a->type->kind == LAT_TY_ARRAY)
            a = a->a->a;
        else
            break;
    }
    if (a->kind != LAT_E_NAME || !a->sym || !(a->sym->cuda & LAT_CU_SHARED) ||
        a->sym->storage == LAT_ST_EXTERN || !lat__is_complete(a->type) || a->type->vla)
        return NULL;
    return a;
}

/* An access as it is made, without its own check (those inside it keep theirs). */
static void emit_unchecked(lat__emitter *em, const lat__expr *e)
{
    lat__expr plain = *e;
    plain.site = 0;
    lat__emit_expr(em, &plain, LAT_PREC_ASSIGN);
}

/* The start of a checked access's macro call: MACRO(access, (T *)0, code - the access
 * itself emitted unchecked inside it. */
static void emit_access_head(lat__emitter *em, const lat__expr *e, const char *macro)
{
    lat__emit_at(em, e->loc);
    lat__emit_str(em, macro);
    emit_unchecked(em, e);
    lat__emit_fmt(em, ", (%s)0, %d", lat__emit_type(em->u, lat__pointer_to(em->u, e->type), NULL),
                  e->site - 1);
}

/* A checked plain assignment of a scalar through a pointer: __LAT_CKV(access, (T *)0,
 * code, value), so that racecheck knows the value stored from the store itself (checks.c's
 * prefix). Returns false for every other assignment. */
static bool emit_checked_store(lat__emitter *em, const lat__expr *e)
{
    const lat__expr *lhs = e->a;
    if (!em->checked || em->display || e->op != LAT_P_ASSIGN || !lhs->site || bounded_array(lhs) ||
        !lat__is_scalar(lhs->type) || lat__sizeof(lhs->type) > 8)
        return false;
    emit_access_head(em, lhs, "__LAT_CKV(");
    lat__emit_str(em, ", ");
    lat__emit_expr(em, e->b, LAT_PREC_ASSIGN);
    lat__emit_str(em, ")");
    return true;
}

/* An assignment whose both sides make accesses the checks see: C leaves their order open
 * (TinyCC's code and gcc's took them in opposite orders, and reported in them), C++17 and
 * so CUDA evaluate the right side first. Checked code does, in a temporary: the reports
 * come in the same order on both tiers. Returns false for every other assignment. */
static bool emit_checked_sequenced(lat__emitter *em, const lat__expr *e)
{
    if (!em->checked || em->display || !e->a->site || !e->b->type)
        return false;
    if (!lat__checks_has_site(e->b))
        return false;
    char name[32];
    snprintf(name, sizeof name, "__lat_rv%d", em->tmp++);
    lat__emit_fmt(em, "({ %s = (", lat__emit_type(em->u, lat__unqualified(em->u, (lat__type *)e->b->type), name));
    lat__emit_expr(em, e->b, LAT_PREC_COMMA);
    lat__emit_str(em, "); ");
    lat__emit_expr(em, e->a, LAT_PREC_UNARY);
    lat__emit_fmt(em, " %s %s; })", lat__punct_spelling((lat__punct)e->op), name);
    return true;
}

static void emit_checked(lat__emitter *em, const lat__expr *e, int prec)
{
    (void)prec;
    if (((e->site - 1) & 3) == 0) { /* a branch's condition (passes/profile.c) */
        lat__emit_str(em, "__LAT_PF_BR(");
        emit_unchecked(em, e);
        lat__emit_fmt(em, ", %d)", e->site - 1);
        return;
    }
    if (em->assured_plain && lat__bounds_assured(e)) {
        emit_unchecked(em, e);
        return;
    }
    const lat__expr *arr = bounded_array(e);
    if (!arr) {
        emit_access_head(em, e, "__LAT_CK(");
        lat__emit_str(em, ")");
        return;
    }
    /* __LAT_CKA(array, index, (T *)0, code): the macro takes the array's address once
     * and indexes it, so that what the array's expression does (s[i++][j]) is done once.
     * __LAT_CKAS(..., variable): the array is inside that __shared__ variable. */
    bool packed;
    const lat__expr *var = shared_root(arr, &packed);
    /* __LAT_CKP(proof, checked access, plain access): bounds.h. */
    bool proven = lat__bounds_declared(e) && !((e->site - 1) & LAT__CK_CODE_PACKED);
    if (proven) {
        lat__emit_at(em, e->loc);
        lat__emit_str(em, em->ckp_racefree ? "__LAT_CKPR(" : "__LAT_CKP(");
        lat__bounds_emit(em, e);
        if (em->ckp_racefree)
            lat__emit_fmt(em, ", %s", em->ckp_racefree);
        lat__emit_str(em, ", ");
    }
    lat__emit_at(em, e->loc);
    lat__emit_str(em, var ? "__LAT_CKAS(" : "__LAT_CKA(");
    emit_unchecked(em, arr);
    lat__emit_str(em, ", ");
    lat__emit_expr(em, e->b, LAT_PREC_ASSIGN);
    lat__emit_fmt(em, ", (%s)0, %d", lat__emit_type(em->u, lat__pointer_to(em->u, e->type), NULL), e->site - 1);
    if (var) {
        lat__emit_str(em, ", ");
        emit_unchecked(em, var);
        lat__emit_fmt(em, ", %d", !packed);
    }
    lat__emit_str(em, ")");
    if (proven) {
        lat__emit_str(em, ", ");
        emit_unchecked(em, e);
        lat__emit_str(em, ")");
    }
}

static void emit_init(lat__emitter *em, const lat__expr *e)
{
    if (e->kind != LAT_E_INIT) {
        lat__emit_expr(em, e, LAT_PREC_ASSIGN);
        return;
    }
    lat__emit_at(em, e->loc);
    lat__emit_str(em, "{");
    for (size_t i = 0; i < e->items.n; i++) {
        const lat__init_item *it = &e->items.items[i];
        if (i)
            lat__emit_str(em, ", ");
        for (lat__designator *d = it->desig; d; d = d->next) {
            if (d->name)
                lat__emit_fmt(em, ".%s", d->name->name);
            else
                lat__emit_fmt(em, "[%lld]", (long long)d->at);
        }
        if (it->desig)
            lat__emit_str(em, " = ");
        emit_init(em, it->value);
    }
    lat__emit_str(em, "}");
}

/* ---- declarations ------------------------------------------------------------------------ */

static void emit_field(lat__emitter *em, const lat__field *f)
{
    if (!f->name && lat__is_record(f->type) && f->type->rec && !f->type->rec->tag && f->bits < 0) {
        /* C11's anonymous member: written in place, untagged. */
        lat__record *r = f->type->rec;
        lat__emit_str(em, r->kind == LAT_TY_UNION ? "union {" : "struct {");
        for (size_t i = 0; i < r->fields.n; i++)
            emit_field(em, &r->fields.items[i]);
        lat__emit_str(em, " };");
        return;
    }
    lat__emit_str(em, " ");
    /* Records are all written at file scope: a block's typedefs are not there. */
    lat__emit_str(em, lat__emit_type_resolved(em->u, f->type, f->name ? f->name->name : ""));
    if (f->bits >= 0)
        lat__emit_fmt(em, " : %d", f->bits);
    /* A field given more alignment than its type has (__align__(16) float4 *x, an
     * array member aligned(16), __align__(16) struct pair p): the front end laid the
     * record out with it. */
    const lat__type *elem = f->type;
    while (elem->kind == LAT_TY_ARRAY && elem->base)
        elem = elem->base;
    if ((lat__is_scalar(f->type) && f->type->align > f->type->size) ||
        (lat__is_record(f->type) && f->type->rec && f->type->align > f->type->rec->align) ||
        (f->type->kind == LAT_TY_ARRAY && elem != f->type && f->type->align > lat__alignof(elem)))
        lat__emit_fmt(em, " __attribute__((aligned(%u)))", f->type->align);
    lat__emit_str(em, ";");
}

/* The records a record's fields need defined first. */
static void emit_needed_records(lat__emitter *em, const lat__type *t)
{
    while (t && (t->kind == LAT_TY_ARRAY))
        t = t->base;
    if (t && lat__is_record(t) && t->rec && !t->rec->builtin)
        lat__emit_record(em, t->rec);
}

void lat__emit_record(lat__emitter *em, lat__record *r)
{
    if (r->builtin || r->kind == LAT_TY_ENUM || !r->complete || r->emitted)
        return;
    r->emitted = true;
    for (size_t i = 0; i < r->fields.n; i++) {
        const lat__field *f = &r->fields.items[i];
        /* An anonymous member is written in place; its own fields' records first. */
        if (!f->name && lat__is_record(f->type) && f->type->rec && !f->type->rec->tag) {
            for (size_t k = 0; k < f->type->rec->fields.n; k++)
                emit_needed_records(em, f->type->rec->fields.items[k].type);
            continue;
        }
        emit_needed_records(em, f->type);
    }
    lat__emit_at(em, r->loc);
    const char *name = record_name(em->u, r);
    if (r->packed) {
        /* struct __attribute__((packed)) tag: TinyCC takes it there only. */
        const char *tag = strchr(name, ' ');
        lat__emit_fmt(em, "%.*s __attribute__((packed))%s", (int)(tag - name), name, tag);
    } else {
        lat__emit_str(em, name);
    }
    lat__emit_str(em, " {");
    for (size_t i = 0; i < r->fields.n; i++)
        emit_field(em, &r->fields.items[i]);
    lat__emit_str(em, " }");
    if (r->min_align)
        lat__emit_fmt(em, " __attribute__((aligned(%u)))", r->min_align);
    lat__emit_str(em, ";");
}

static const char *storage_word(const lat__sym *s)
{
    switch (s->storage) {
    case LAT_ST_STATIC: return "static ";
    case LAT_ST_EXTERN: return "extern ";
    case LAT_ST_TYPEDEF: return "typedef ";
    default: return "";
    }
}

/* A variable's declarator with a variable-length array's size written out. */
static void emit_declarator(lat__emitter *em, lat__sym *s, const char *name)
{
    lat__type *t = s->type;
    if (t->kind == LAT_TY_ARRAY && t->vla) {
        lat__emit_str(em, lat__emit_type(em->u, t->base, ""));
        lat__emit_fmt(em, " %s[", name);
        lat__emit_expr(em, t->vla, LAT_PREC_ASSIGN);
        lat__emit_str(em, "]");
        return;
    }
    lat__emit_str(em, lat__emit_type(em->u, t, name));
}

static void emit_shared_decl(lat__emitter *em, lat__sym *s)
{
    lat__symx *x = lat__symx_of(em->u, s);
    char decl[48];
    snprintf(decl, sizeof decl, "(*__lat_sh_%d)", x->shared);
    if (debug_static_shared(em, s)) {
        const char *name = lat__emit_name(em->u, s);
        lat__emit_fmt(em, "static %s", lat__emit_type(em->u, s->type, name));
        if (s->align)
            lat__emit_fmt(em, " __attribute__((aligned(%u)))", s->align);
        if (s->depth > 0 || !(s->flags & LAT_SF_FILE_SCOPE))
            lat__emit_fmt(em, "; %s = &%s;", lat__emit_type(em->u, s->type, decl), name);
        else
            lat__emit_str(em, ";");
        return;
    }
    lat__emit_str(em, lat__emit_type(em->u, s->type, decl));
    if (s->storage == LAT_ST_EXTERN)
        lat__emit_str(em, " = (void *)__lat_t->dshared;");
    else
        lat__emit_fmt(em, " = (void *)(__lat_t->shared + __lat_t->shoff[%d]);", x->shared);
    if (em->in && em->in->debug && s->type->kind == LAT_TY_ARRAY) {
        /* -G, a dynamic array or a checked module's: a pointer to its first element by
         * its name, so that a debugger's tile[i][j] reads what the kernel's does. */
        const lat__type *b = s->type->base;
        const char *name = lat__emit_name(em->u, s);
        const char *ptr = lat__arena_printf(&em->u->arena, b->kind == LAT_TY_ARRAY ? "(*const %s)" : "*const %s", name);
        lat__emit_fmt(em, " %s = %s;", lat__emit_type(em->u, b, ptr), decl);
    }
}

void lat__emit_prototype(lat__emitter *em, lat__sym *s, lat__loc loc)
{
    lat__emit_at(em, loc);
    const lat__symx *x = lat__symx_of(em->u, s);
    lat__emit_str(em, s->storage == LAT_ST_STATIC ? "static " : "");
    /* The parameters' types, the context first when it takes one. */
    lat__type *ft = s->type;
    char *params = lat__arena_printf(&em->u->arena, "%s(%s", lat__emit_name(em->u, s),
                                     x->hidden ? "lat_emu_thread *" : "");
    for (int i = 0; i < ft->params.n; i++)
        params = lat__arena_printf(&em->u->arena, "%s%s%s", params, i || x->hidden ? ", " : "",
                                   lat__emit_type(em->u, ft->params.types[i], ""));
    if (ft->params.variadic)
        params = lat__arena_printf(&em->u->arena, "%s, ...", params);
    else if (!ft->params.n && !x->hidden)
        params = lat__arena_printf(&em->u->arena, "%svoid", params);
    params = lat__arena_printf(&em->u->arena, "%s)", params);
    lat__emit_str(em, lat__emit_type(em->u, ft->base, params));
    lat__emit_str(em, ";");
}

void lat__emit_decl_group(lat__emitter *em, const lat__decl_group *g, bool file_scope)
{
    if (g->static_assert_)
        return;
    for (lat__decl *d = g->first; d; d = d->next) {
        lat__sym *s = d->sym;
        if (!s || (s->flags & LAT_SF_BUILTIN))
            continue;
        if (s->kind == LAT_SYM_FUNC) {
            if (!file_scope)
                continue; /* a block-scope prototype: the file-scope one serves */
            lat__emit_prototype(em, s, d->loc);
            continue;
        }
        if (s->kind == LAT_SYM_TYPEDEF) {
            lat__emit_at(em, d->loc);
            /* The records it names must exist first (a typedef of a struct defined
             * elsewhere in this declaration was written above). */
            lat__emit_fmt(em, "typedef %s;", lat__emit_type(em->u, s->type, lat__emit_name(em->u, s)));
            continue;
        }
        if (s->kind != LAT_SYM_VAR)
            continue;
        if (s->cuda & LAT_CU_SHARED) {
            if (!file_scope || debug_static_shared(em, s)) {
                lat__emit_at(em, d->loc);
                emit_shared_decl(em, s);
            }
            continue;
        }
        lat__emit_at(em, d->loc);
        lat__emit_str(em, storage_word(s));
        emit_declarator(em, s, lat__emit_name(em->u, s));
        if (s->align)
            lat__emit_fmt(em, " __attribute__((aligned(%u)))", s->align);
        if (d->init) {
            lat__emit_str(em, " = ");
            if (d->init->kind == LAT_E_INIT)
                emit_init(em, d->init);
            else
                lat__emit_expr(em, d->init, LAT_PREC_ASSIGN);
        }
        lat__emit_str(em, ";");
        if (em->checked && lat__symx_of(em->u, s)->ck_tracked) {
            /* Its bytes are unwritten from here on, each time the declaration is reached. */
            const char *n = lat__emit_name(em->u, s);
            lat__emit_fmt(em, " __lat_ck_local(__lat_t, &%s, sizeof %s);", n, n);
        }
    }
}

void lat__emit_params(lat__emitter *em, const lat__func *fn, bool hidden, bool copies)
{
    lat__emit_str(em, "(");
    /* restrict: nothing but this pointer (and what is passed it) reaches the thread's
     * context while the function runs, so an optimising compiler (the emulator's second
     * tier) may keep threadIdx and blockIdx in registers across stores through the
     * kernel's pointers, and vectorise thread loops; TinyCC ignores it. */
    if (hidden)
        lat__emit_str(em, "lat_emu_thread *restrict __lat_t");
    for (int i = 0; i < fn->nparams; i++) {
        lat__sym *ps = fn->params[i];
        if (hidden || i)
            lat__emit_str(em, ", ");
        const char *name;
        if (!ps->name)
            name = lat__arena_printf(&em->u->arena, "__lat_u%d", i);
        else if (copies && lat__symx_of(em->u, ps)->copied)
            name = lat__arena_printf(&em->u->arena, "__lat_p%d", i);
        else if (lat__symx_of(em->u, ps)->param_name)
            name = lat__symx_of(em->u, ps)->param_name;
        else
            name = lat__emit_name(em->u, ps);
        lat__emit_str(em, lat__emit_type(em->u, ps->type, name));
    }
    if (fn->sym->type->params.variadic)
        lat__emit_str(em, fn->nparams || hidden ? ", ..." : "...");
    else if (!fn->nparams && !hidden)
        lat__emit_str(em, "void");
    lat__emit_str(em, ")");
}

/* ---- statements ------------------------------------------------------------------------- */

/* A loop's condition; checked, with a tick in front so that a spin that touches no memory
 * is still seen (check/ck.h). */
static void emit_loop_condition(lat__emitter *em, const lat__expr *cond)
{
    if (em->checked && em->fn && lat__symx_of(em->u, em->fn->sym)->hidden) {
        lat__emit_str(em, "__LAT_TICK, ");
        if (!cond) {
            lat__emit_str(em, "1");
            return;
        }
        lat__emit_expr(em, cond, LAT_PREC_ASSIGN);
        return;
    }
    lat__emit_expr(em, cond, LAT_PREC_COMMA);
}

static void emit_sub(lat__emitter *em, const lat__stmt *s)
{
    if (!s) {
        lat__emit_str(em, ";");
        return;
    }
    lat__emit_stmt(em, s);
}

void lat__emit_stmt(lat__emitter *em, const lat__stmt *s)
{
    if (em->hooks.stmt && em->hooks.stmt(em, s))
        return;
    lat__emit_at(em, s->loc);
    switch (s->kind) {
    case LAT_S_COMPOUND:
        lat__emit_str(em, "{");
        for (size_t i = 0; i < s->items.n; i++) {
            lat__emit_str(em, " ");
            lat__emit_stmt(em, s->items.items[i]);
        }
        lat__emit_at(em, s->end);
        lat__emit_str(em, " }");
        break;
    case LAT_S_EXPR:
        lat__emit_expr(em, s->e, LAT_PREC_COMMA);
        lat__emit_str(em, ";");
        break;
    case LAT_S_DECL:
        if (s->decls)
            lat__emit_decl_group(em, s->decls, false);
        break;
    case LAT_S_NULL:
    case LAT_S_ASM:
        lat__emit_str(em, ";");
        break;
    case LAT_S_IF:
        lat__emit_str(em, "if (");
        lat__emit_expr(em, s->e, LAT_PREC_COMMA);
        lat__emit_str(em, ") ");
        emit_sub(em, s->body);
        if (s->els) {
            lat__emit_str(em, " else ");
            emit_sub(em, s->els);
        }
        break;
    case LAT_S_WHILE:
        lat__emit_str(em, "while (");
        emit_loop_condition(em, s->e);
        lat__emit_str(em, ") ");
        emit_sub(em, s->body);
        break;
    case LAT_S_DO:
        lat__emit_str(em, "do ");
        emit_sub(em, s->body);
        lat__emit_str(em, " while (");
        emit_loop_condition(em, s->e);
        lat__emit_str(em, ");");
        break;
    case LAT_S_FOR: {
        /* Several declarators in the init: declared in a block around the loop. */
        bool wrap = s->init && s->init->kind == LAT_S_DECL && s->init->decls &&
                    (s->init->decls->first && s->init->decls->first->next);
        if (wrap) {
            lat__emit_str(em, "{ ");
            lat__emit_stmt(em, s->init);
            lat__emit_str(em, " for (;");
        } else {
            lat__emit_str(em, "for (");
            if (s->init && s->init->kind == LAT_S_DECL)
                lat__emit_stmt(em, s->init);
            else if (s->init && s->init->e)
                lat__emit_expr(em, s->init->e, LAT_PREC_COMMA);
            if (!s->init || s->init->kind != LAT_S_DECL || !s->init->decls || !s->init->decls->first)
                lat__emit_str(em, ";");
        }
        lat__emit_str(em, " ");
        if (s->e || em->checked)
            emit_loop_condition(em, s->e);
        lat__emit_str(em, "; ");
        if (s->step)
            lat__emit_expr(em, s->step, LAT_PREC_COMMA);
        lat__emit_str(em, ") ");
        emit_sub(em, s->body);
        if (wrap)
            lat__emit_str(em, " }");
        break;
    }
    case LAT_S_SWITCH:
        lat__emit_str(em, "switch (");
        lat__emit_expr(em, s->e, LAT_PREC_COMMA);
        lat__emit_str(em, ") ");
        emit_sub(em, s->body);
        break;
    case LAT_S_CASE:
        if (s->high != s->value)
            lat__emit_fmt(em, "case %lldLL ... %lldLL: ", (long long)s->value, (long long)s->high);
        else
            lat__emit_fmt(em, "case %lldLL: ", (long long)s->value);
        emit_sub(em, s->body);
        break;
    case LAT_S_DEFAULT:
        lat__emit_str(em, "default: ");
        emit_sub(em, s->body);
        break;
    case LAT_S_BREAK:
        lat__emit_str(em, "break;");
        break;
    case LAT_S_CONTINUE:
        lat__emit_str(em, "continue;");
        break;
    case LAT_S_RETURN:
        if (em->mode == 0 /* LAT_EMU_MODE_PLAIN */ && em->fn && (em->fn->sym->cuda & LAT_CU_GLOBAL)) {
            /* A plain kernel's thread ends; the loop goes on with the next. */
            if (s->e) {
                lat__emit_str(em, "{ ");
                lat__emit_expr(em, s->e, LAT_PREC_COMMA);
                lat__emit_str(em, "; goto __lat_next; }");
            } else {
                lat__emit_str(em, "goto __lat_next;");
            }
            break;
        }
        lat__emit_str(em, "return");
        if (s->e) {
            lat__emit_str(em, " ");
            /* A reference to an array (`const T (&get() const)[N]`) is a pointer to it: TinyCC
             * takes &this->a of a const object as dropping the const of the elements, and
             * warned of valid code, so it is told the type. */
            const lat__type *rt = em->fn ? em->fn->sym->type->base : NULL;
            bool cast = rt && rt->kind == LAT_TY_PTR && rt->base && rt->base->kind == LAT_TY_ARRAY;
            if (cast)
                lat__emit_fmt(em, "(%s)", lat__emit_type(em->u, rt, ""));
            lat__emit_expr(em, s->e, cast ? LAT_PREC_UNARY : LAT_PREC_COMMA);
        }
        lat__emit_str(em, ";");
        break;
    case LAT_S_GOTO:
        lat__emit_fmt(em, "goto __lat_l_%s;", s->label->name);
        break;
    case LAT_S_LABEL:
        lat__emit_fmt(em, "__lat_l_%s: ", s->label->name);
        emit_sub(em, s->body);
        break;
    case LAT_S_RAW:
        lat__emit_str(em, s->text);
        break;
    default:
        lat__emit_str(em, ";");
        break;
    }
}
