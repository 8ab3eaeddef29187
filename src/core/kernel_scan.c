/*
 * The kernel signature scanner (kernel_scan.h): a token-level reading of the user's
 * source that finds each __global__ function and classifies its parameters, so that
 * lat_launch_args can check arguments before any compiler has run, the same way on both
 * backends. It follows simple typedefs and object-like #defines, skips `#if 0` blocks,
 * and ignores what it does not understand.
 */
#include "kernel_scan.h"

#include "cu_lex.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* An object-like #define: its body is tokens [body, body_end). */
typedef struct define {
    const char *name;
    size_t len;
    size_t body, body_end;
} define;

/* What a type resolves to; for a pointer's element, also its floating components (a
 * float, a double, float2..4, double2..4, a half): fkind, ncomp of them from offset 0. */
typedef struct tinfo {
    lat__param_class cls;
    size_t size;
    unsigned char fkind, ncomp;
} tinfo;

typedef struct tdef {
    const char *name;
    size_t len;
    tinfo info;
} tdef;

typedef struct scanner {
    const lat__toks *toks;
    define *defs;
    size_t ndefs, defs_cap;
    tdef *tdefs;
    size_t ntdefs, tdefs_cap;
    lat__kernel_sigs *out;
    int sigs_cap;
    bool oom;
} scanner;

/* Types every CUDA kernel can name without a typedef of its own. */
typedef struct builtin_type {
    const char *name;
    lat__param_class cls;
    unsigned char size;
    unsigned char fkind, ncomp;
} builtin_type;

static const builtin_type builtins[] = {
    {"size_t", LAT__PARAM_UINT, 8},     {"ptrdiff_t", LAT__PARAM_SINT, 8},
    {"intptr_t", LAT__PARAM_SINT, 8},   {"uintptr_t", LAT__PARAM_UINT, 8},
    {"int8_t", LAT__PARAM_SINT, 1},     {"uint8_t", LAT__PARAM_UINT, 1},
    {"int16_t", LAT__PARAM_SINT, 2},    {"uint16_t", LAT__PARAM_UINT, 2},
    {"int32_t", LAT__PARAM_SINT, 4},    {"uint32_t", LAT__PARAM_UINT, 4},
    {"int64_t", LAT__PARAM_SINT, 8},    {"uint64_t", LAT__PARAM_UINT, 8},
    {"dim3", LAT__PARAM_RECORD, 12},
    {"__half", LAT__PARAM_RECORD, 2, LAT__SCALAR_F16, 1},
    {"half", LAT__PARAM_RECORD, 2, LAT__SCALAR_F16, 1},
    {"__half2", LAT__PARAM_RECORD, 4, LAT__SCALAR_F16, 2},
    {"cudaTextureObject_t", LAT__PARAM_UINT, 8},
    {"cudaSurfaceObject_t", LAT__PARAM_UINT, 8},
};

/* CUDA's vector types: the element's size, times 1 to 4 (float3 is 12 bytes). */
static const struct {
    const char *stem;
    unsigned char elem, fkind;
} vectors[] = {
    {"char", 1},  {"uchar", 1},    {"short", 2},     {"ushort", 2}, {"int", 4},
    {"uint", 4},  {"long", 8},     {"ulong", 8},     {"longlong", 8},
    {"ulonglong", 8}, {"float", 4, LAT__SCALAR_F32}, {"double", 8, LAT__SCALAR_F64},
};

static bool tok_eq(const scanner *sc, const lat__tok *t, const char *s)
{
    return lat__tok_is(sc->toks, t, s);
}

static bool name_eq(const char *a, size_t alen, const char *b)
{
    return strlen(b) == alen && memcmp(a, b, alen) == 0;
}

static const char *tok_text(const scanner *sc, const lat__tok *t)
{
    return sc->toks->src + t->off;
}

static char *dup_range(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

static const define *find_define(const scanner *sc, const char *name, size_t len)
{
    /* The latest definition wins, as after a #undef and #define. */
    for (size_t i = sc->ndefs; i-- > 0;)
        if (sc->defs[i].len == len && memcmp(sc->defs[i].name, name, len) == 0)
            return sc->defs[i].body == SIZE_MAX ? NULL : &sc->defs[i];
    return NULL;
}

static const tdef *find_tdef(const scanner *sc, const char *name, size_t len)
{
    for (size_t i = sc->ntdefs; i-- > 0;)
        if (sc->tdefs[i].len == len && memcmp(sc->tdefs[i].name, name, len) == 0)
            return &sc->tdefs[i];
    return NULL;
}

static bool builtin_info(const char *name, size_t len, tinfo *out)
{
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
        if (name_eq(name, len, builtins[i].name)) {
            *out = (tinfo){builtins[i].cls, builtins[i].size, builtins[i].fkind,
                           builtins[i].ncomp};
            return true;
        }
    }
    for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
        size_t n = strlen(vectors[i].stem);
        if (len == n + 1 && memcmp(name, vectors[i].stem, n) == 0 && name[n] >= '1' &&
            name[n] <= '4') {
            unsigned char k = (unsigned char)(name[n] - '0');
            *out = (tinfo){LAT__PARAM_RECORD, (size_t)vectors[i].elem * k, vectors[i].fkind,
                           vectors[i].fkind ? k : 0};
            return true;
        }
    }
    if (name_eq(name, len, "uint3")) {
        *out = (tinfo){LAT__PARAM_RECORD, 12};
        return true;
    }
    return false;
}

/* The words of a type, accumulated over its tokens and whatever they expand to. */
typedef struct acc {
    int stars, longs;
    bool is_signed, is_unsigned, is_char, is_short, is_int, is_float, is_double, is_bool;
    bool is_void, record, named, unknown, ptr_named;
    tinfo named_info;
} acc;

static bool is_qualifier(const scanner *sc, const lat__tok *t)
{
    return lat__tok_is_qualifier(sc->toks, t);
}

static void accumulate(const scanner *sc, size_t b, size_t e, int depth, acc *a)
{
    const lat__tok *toks = sc->toks->items;
    for (size_t i = b; i < e; i++) {
        const lat__tok *t = &toks[i];
        const char *s = tok_text(sc, t);
        if (t->kind == LAT__TOK_PUNCT) {
            if (tok_eq(sc, t, "*") || tok_eq(sc, t, "&"))
                a->stars++;
            else if (tok_eq(sc, t, "("))
                i = lat__match_close(sc->toks, i); /* __attribute__((...)) and the like */
            continue;
        }
        if (t->kind != LAT__TOK_IDENT) {
            a->unknown = true;
            continue;
        }
        if (is_qualifier(sc, t))
            continue;
        if (tok_eq(sc, t, "__attribute__") || tok_eq(sc, t, "__align__") ||
            tok_eq(sc, t, "__declspec"))
            continue; /* its parenthesised argument is skipped above */
        if (tok_eq(sc, t, "signed") || tok_eq(sc, t, "__signed__"))
            a->is_signed = true;
        else if (tok_eq(sc, t, "unsigned"))
            a->is_unsigned = true;
        else if (tok_eq(sc, t, "char"))
            a->is_char = true;
        else if (tok_eq(sc, t, "short"))
            a->is_short = true;
        else if (tok_eq(sc, t, "int"))
            a->is_int = true;
        else if (tok_eq(sc, t, "long"))
            a->longs++;
        else if (tok_eq(sc, t, "float"))
            a->is_float = true;
        else if (tok_eq(sc, t, "double"))
            a->is_double = true;
        else if (tok_eq(sc, t, "bool") || tok_eq(sc, t, "_Bool"))
            a->is_bool = true;
        else if (tok_eq(sc, t, "void"))
            a->is_void = true;
        else if (tok_eq(sc, t, "struct") || tok_eq(sc, t, "union") || tok_eq(sc, t, "class")) {
            a->record = true;
            if (i + 1 < e && toks[i + 1].kind == LAT__TOK_IDENT)
                i++; /* the tag */
        } else if (tok_eq(sc, t, "enum")) {
            /* An enum parameter is an int on every ABI lattice targets. */
            a->named = true;
            a->named_info = (tinfo){LAT__PARAM_SINT, 4};
            if (i + 1 < e && toks[i + 1].kind == LAT__TOK_IDENT)
                i++;
        } else {
            tinfo info;
            const tdef *td = find_tdef(sc, s, t->len);
            const define *d = depth < 16 ? find_define(sc, s, t->len) : NULL;
            if (td) {
                if (td->info.cls == LAT__PARAM_POINTER)
                    a->ptr_named = true;
                a->named = true;
                a->named_info = td->info;
            } else if (d) {
                accumulate(sc, d->body, d->body_end, depth + 1, a);
            } else if (builtin_info(s, t->len, &info)) {
                a->named = true;
                a->named_info = info;
            } else {
                a->unknown = true;
            }
        }
    }
}

static tinfo resolve(const acc *a)
{
    if (a->stars > 0 || a->ptr_named)
        return (tinfo){LAT__PARAM_POINTER, sizeof(void *)};
    if (a->unknown)
        return (tinfo){LAT__PARAM_UNKNOWN, 0};
    if (a->record)
        return (tinfo){LAT__PARAM_RECORD, 0};
    if (a->named)
        return a->named_info;
    if (a->is_float)
        return (tinfo){LAT__PARAM_FLOAT, 4, LAT__SCALAR_F32, 1};
    if (a->is_double)
        return a->longs ? (tinfo){LAT__PARAM_UNKNOWN, 0}
                        : (tinfo){LAT__PARAM_FLOAT, 8, LAT__SCALAR_F64, 1};
    if (a->is_bool)
        return (tinfo){LAT__PARAM_UINT, 1};
    lat__param_class cls = a->is_unsigned ? LAT__PARAM_UINT : LAT__PARAM_SINT;
    if (a->is_char)
        return (tinfo){cls, 1};
    if (a->is_short)
        return (tinfo){cls, 2};
    if (a->longs)
        return (tinfo){cls, 8};
    if (a->is_int || a->is_signed || a->is_unsigned)
        return (tinfo){cls, 4};
    return (tinfo){LAT__PARAM_UNKNOWN, 0};
}

/* Appends tokens [b, e) but token `skip` to a normalised type string. */
static char *type_string(const scanner *sc, size_t b, size_t e, size_t skip)
{
    const lat__tok *toks = sc->toks->items;
    size_t cap = 1;
    for (size_t i = b; i < e; i++)
        cap += toks[i].len + 1;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    size_t n = 0;
    const lat__tok *prev = NULL;
    for (size_t i = b; i < e; i++) {
        if (i == skip)
            continue;
        const lat__tok *t = &toks[i];
        if (prev) {
            bool glue = (tok_eq(sc, t, "*") && tok_eq(sc, prev, "*")) || tok_eq(sc, prev, "(") ||
                        tok_eq(sc, prev, "[") || tok_eq(sc, t, ")") || tok_eq(sc, t, "]") ||
                        tok_eq(sc, t, "[") || tok_eq(sc, t, ",") ||
                        (tok_eq(sc, t, "(") && tok_eq(sc, prev, ")"));
            if (!glue)
                s[n++] = ' ';
        }
        memcpy(s + n, tok_text(sc, t), t->len);
        n += t->len;
        prev = t;
    }
    s[n] = '\0';
    return s;
}

/* The layout of what pointer parameter [b, e) points to, for cross-checking: its size and
 * its floating components, where the element type resolves to a scalar, a CUDA vector
 * type or a typedef or #define of one. Anything else (a struct, void, a pointer typedef,
 * a parenthesised declarator) stays unknown (size 0). The front end replaces this.
 * Returns false only when out of memory. */
static bool pointee_layout(const scanner *sc, size_t b, size_t e, const lat__param_decl *decl,
                           lat__elem_layout *out)
{
    memset(out, 0, sizeof *out);
    bool array = decl->array != SIZE_MAX;
    if (decl->pointer && !array)
        return true; /* float (*f)(int), float (*a)[4] */
    size_t stop = array ? decl->array : e;
    acc a;
    memset(&a, 0, sizeof a);
    if (decl->name != SIZE_MAX && decl->name < stop) {
        accumulate(sc, b, decl->name, 0, &a);
        accumulate(sc, decl->name + 1, stop, 0, &a);
    } else {
        accumulate(sc, b, stop, 0, &a);
    }
    int levels = a.stars - (array ? 0 : 1); /* pointers between the parameter and the data */
    if (a.ptr_named || levels < 0)
        return true;
    if (levels > 0) {
        out->size = sizeof(void *); /* a buffer of pointers: compared exactly */
        return true;
    }
    a.stars = 0;
    tinfo t = resolve(&a);
    if (t.cls == LAT__PARAM_UNKNOWN || t.cls == LAT__PARAM_POINTER || t.size == 0)
        return true;
    out->size = (uint32_t)t.size;
    if (t.fkind && t.ncomp) {
        out->fields = calloc(t.ncomp, sizeof *out->fields);
        if (!out->fields) {
            out->size = 0;
            return false;
        }
        size_t each = t.size / t.ncomp;
        for (unsigned i = 0; i < t.ncomp; i++)
            out->fields[i] = (lat__elem_field){(uint32_t)(i * each), t.fkind};
        out->nfields = t.ncomp;
    }
    return true;
}

/* Parses one parameter declaration, tokens [b, e). */
static bool parse_param(scanner *sc, size_t b, size_t e, lat__param *p)
{
    const lat__tok *toks = sc->toks->items;
    lat__param_decl decl;
    lat__parse_param_decl(sc->toks, b, e, &decl);
    size_t name = decl.name;
    bool pointer = decl.pointer;
    tinfo info;
    if (pointer) {
        info = (tinfo){LAT__PARAM_POINTER, sizeof(void *)};
    } else {
        acc a;
        memset(&a, 0, sizeof a);
        if (name != SIZE_MAX) {
            accumulate(sc, b, name, 0, &a);
            accumulate(sc, name + 1, e, 0, &a);
        } else {
            accumulate(sc, b, e, 0, &a);
        }
        info = resolve(&a);
    }
    p->cls = info.cls;
    p->size = info.size;
    if (info.cls == LAT__PARAM_POINTER && !pointee_layout(sc, b, e, &decl, &p->pointee))
        return false;
    p->name = name == SIZE_MAX ? dup_range("", 0) : dup_range(tok_text(sc, &toks[name]), toks[name].len);
    p->type = type_string(sc, b, e, name);
    return p->name && p->type;
}

static void free_sig(lat__kernel_sig *k)
{
    for (int i = 0; i < k->nparams; i++) {
        free(k->params[i].name);
        free(k->params[i].type);
        free(k->params[i].pointee.fields);
    }
    free(k->params);
    free(k->name);
    memset(k, 0, sizeof *k);
}

/* Parses the parameter list between tokens open and close (the parentheses). */
static bool parse_params(scanner *sc, size_t open, size_t close, lat__kernel_sig *k)
{
    const lat__tok *toks = sc->toks->items;
    if (close == open + 1 || (close == open + 2 && tok_eq(sc, &toks[open + 1], "void")))
        return true;
    int n = 1;
    for (size_t i = open + 1; i < close; i++) {
        if (tok_eq(sc, &toks[i], "(") || tok_eq(sc, &toks[i], "[") || tok_eq(sc, &toks[i], "{"))
            i = lat__match_close(sc->toks, i);
        else if (tok_eq(sc, &toks[i], ","))
            n++;
    }
    k->params = calloc((size_t)n, sizeof *k->params);
    if (!k->params)
        return false;
    size_t b = open + 1;
    for (size_t i = open + 1; i <= close; i++) {
        if (i < close && (tok_eq(sc, &toks[i], "(") || tok_eq(sc, &toks[i], "[") ||
                          tok_eq(sc, &toks[i], "{"))) {
            i = lat__match_close(sc->toks, i);
            if (i > close)
                i = close - 1;
            continue;
        }
        if (i == close || tok_eq(sc, &toks[i], ",")) {
            if (!parse_param(sc, b, i, &k->params[k->nparams++]))
                return false;
            b = i + 1;
        }
    }
    return true;
}

static bool add_sig(scanner *sc, lat__kernel_sig *k, bool definition)
{
    lat__kernel_sigs *out = sc->out;
    for (int i = 0; i < out->count; i++) {
        if (strcmp(out->items[i].name, k->name) == 0) {
            /* A definition's parameter names are the ones to report. */
            if (definition) {
                int line = out->items[i].line;
                free_sig(&out->items[i]);
                out->items[i] = *k;
                out->items[i].line = line;
            } else {
                free_sig(k);
            }
            return true;
        }
    }
    if (out->count == sc->sigs_cap) {
        int cap = sc->sigs_cap ? sc->sigs_cap * 2 : 8;
        lat__kernel_sig *p = realloc(out->items, (size_t)cap * sizeof *p);
        if (!p)
            return false;
        out->items = p;
        sc->sigs_cap = cap;
    }
    out->items[out->count++] = *k;
    return true;
}

/* Whether token i is __global__, or an object-like macro whose body holds one. */
static bool is_global(const scanner *sc, size_t i, int depth)
{
    const lat__tok *t = &sc->toks->items[i];
    if (t->kind != LAT__TOK_IDENT)
        return false;
    if (tok_eq(sc, t, "__global__"))
        return true;
    const define *d = depth < 16 ? find_define(sc, tok_text(sc, t), t->len) : NULL;
    if (d)
        for (size_t j = d->body; j < d->body_end; j++)
            if (is_global(sc, j, depth + 1))
                return true;
    return false;
}

/* Reads the kernel whose __global__ is at index g; returns the index to go on from. */
static size_t scan_kernel(scanner *sc, size_t g, size_t decl_start)
{
    const lat__toks *tk = sc->toks;
    const lat__tok *toks = tk->items;
    for (size_t i = decl_start; i < g; i++)
        if (tok_eq(sc, &toks[i], "template"))
            return g + 1; /* a template has no plain name to launch by */
    size_t i = g + 1;
    for (; i + 1 < tk->count; i++) {
        const lat__tok *t = &toks[i];
        if (t->flags & LAT__TOK_PP)
            return i;
        if (tok_eq(sc, t, ";") || tok_eq(sc, t, "{") || tok_eq(sc, t, "}") || tok_eq(sc, t, "="))
            return i;
        if (t->kind == LAT__TOK_IDENT && tok_eq(sc, &toks[i + 1], "(")) {
            if (tok_eq(sc, t, "__launch_bounds__") || tok_eq(sc, t, "__attribute__") ||
                tok_eq(sc, t, "__align__") || tok_eq(sc, t, "__declspec")) {
                i = lat__match_close(tk, i + 1);
                continue;
            }
            break;
        }
    }
    if (i + 1 >= tk->count)
        return i;
    size_t open = i + 1, close = lat__match_close(tk, open);
    if (close >= tk->count)
        return tk->count;
    lat__kernel_sig k;
    memset(&k, 0, sizeof k);
    k.name = dup_range(tok_text(sc, &toks[i]), toks[i].len);
    k.line = toks[i].line;
    if (!k.name || !parse_params(sc, open, close, &k)) {
        free_sig(&k);
        sc->oom = true;
        return tk->count;
    }
    bool definition = tok_eq(sc, &toks[close + 1], "{");
    if (!add_sig(sc, &k, definition)) {
        free_sig(&k);
        sc->oom = true;
        return tk->count;
    }
    return definition ? lat__match_close(tk, close + 1) + 1 : close + 1;
}

static bool push_define(scanner *sc, const lat__tok *name, size_t body, size_t body_end)
{
    if (sc->ndefs == sc->defs_cap) {
        size_t cap = sc->defs_cap ? sc->defs_cap * 2 : 16;
        define *p = realloc(sc->defs, cap * sizeof *p);
        if (!p)
            return false;
        sc->defs = p;
        sc->defs_cap = cap;
    }
    sc->defs[sc->ndefs++] = (define){tok_text(sc, name), name->len, body, body_end};
    return true;
}

/* Handles a directive [i, end): records #define / #undef, and skips an #if 0 block.
 * Returns the index to go on from. */
static size_t directive(scanner *sc, size_t i, size_t end)
{
    const lat__toks *tk = sc->toks;
    const lat__tok *toks = tk->items;
    if (i + 1 >= end)
        return end;
    const lat__tok *d = &toks[i + 1];
    if (tok_eq(sc, d, "define") && i + 2 < end && toks[i + 2].kind == LAT__TOK_IDENT) {
        const lat__tok *name = &toks[i + 2];
        bool function_like = i + 3 < end && tok_eq(sc, &toks[i + 3], "(") &&
                             !(toks[i + 3].flags & LAT__TOK_SPACE);
        /* A function-like macro shadows any object-like one of that name. */
        if (!push_define(sc, name, function_like ? SIZE_MAX : i + 3, end))
            sc->oom = true;
    } else if (tok_eq(sc, d, "undef") && i + 2 < end && toks[i + 2].kind == LAT__TOK_IDENT) {
        if (!push_define(sc, &toks[i + 2], SIZE_MAX, SIZE_MAX))
            sc->oom = true;
    } else if (tok_eq(sc, d, "if") && i + 3 == end && tok_eq(sc, &toks[i + 2], "0")) {
        /* Skip to the matching #else, #elif or #endif. */
        int depth = 0;
        size_t j = end;
        while (j < tk->count) {
            size_t e = lat__directive_end(tk, j);
            if ((toks[j].flags & LAT__TOK_PP) && (toks[j].flags & LAT__TOK_BOL) && j + 1 < e) {
                const lat__tok *k = &toks[j + 1];
                if (tok_eq(sc, k, "if") || tok_eq(sc, k, "ifdef") || tok_eq(sc, k, "ifndef"))
                    depth++;
                else if (tok_eq(sc, k, "endif") && depth-- == 0)
                    return e;
                else if (depth == 0 && (tok_eq(sc, k, "else") || tok_eq(sc, k, "elif")))
                    return e;
                j = e;
            } else {
                j++;
            }
        }
        return tk->count;
    }
    return end;
}

/* Records `typedef ... name;` (tokens [i, semi)). */
static bool scan_typedef(scanner *sc, size_t i, size_t semi)
{
    const lat__tok *toks = sc->toks->items;
    if (semi <= i + 2 || toks[semi - 1].kind != LAT__TOK_IDENT)
        return true; /* function pointer typedefs and the like: unknown to us */
    size_t name = semi - 1;
    bool braces = false;
    for (size_t j = i + 1; j < name; j++)
        if (tok_eq(sc, &toks[j], "{"))
            braces = true;
    tinfo info;
    if (braces) {
        /* typedef struct { ... } name; or typedef enum { ... } name; */
        bool is_enum = tok_eq(sc, &toks[i + 1], "enum");
        bool stars = tok_eq(sc, &toks[name - 1], "*");
        info = stars ? (tinfo){LAT__PARAM_POINTER, sizeof(void *)}
               : is_enum ? (tinfo){LAT__PARAM_SINT, 4}
                         : (tinfo){LAT__PARAM_RECORD, 0};
    } else {
        acc a;
        memset(&a, 0, sizeof a);
        accumulate(sc, i + 1, name, 0, &a);
        info = resolve(&a);
    }
    if (sc->ntdefs == sc->tdefs_cap) {
        size_t cap = sc->tdefs_cap ? sc->tdefs_cap * 2 : 16;
        tdef *p = realloc(sc->tdefs, cap * sizeof *p);
        if (!p)
            return false;
        sc->tdefs = p;
        sc->tdefs_cap = cap;
    }
    sc->tdefs[sc->ntdefs++] = (tdef){tok_text(sc, &toks[name]), toks[name].len, info};
    return true;
}

int lat__scan_kernels(const char *source, lat__kernel_sigs *out)
{
    memset(out, 0, sizeof *out);
    lat__toks toks;
    if (lat__lex(source, &toks) != 0)
        return -1;
    scanner sc;
    memset(&sc, 0, sizeof sc);
    sc.toks = &toks;
    sc.out = out;
    size_t decl_start = 0;
    for (size_t i = 0; i < toks.count && !sc.oom;) {
        const lat__tok *t = &toks.items[i];
        if ((t->flags & LAT__TOK_PP) && (t->flags & LAT__TOK_BOL)) {
            i = directive(&sc, i, lat__directive_end(&toks, i));
            decl_start = i;
            continue;
        }
        if (tok_eq(&sc, t, ";") || tok_eq(&sc, t, "{") || tok_eq(&sc, t, "}")) {
            decl_start = i + 1;
        } else if (tok_eq(&sc, t, "typedef")) {
            size_t semi = i;
            while (semi < toks.count && !tok_eq(&sc, &toks.items[semi], ";")) {
                if (tok_eq(&sc, &toks.items[semi], "{"))
                    semi = lat__match_close(&toks, semi);
                else
                    semi++;
            }
            if (semi < toks.count && !scan_typedef(&sc, i, semi))
                sc.oom = true;
            i = semi;
            continue;
        } else if (is_global(&sc, i, 0)) {
            size_t next = scan_kernel(&sc, i, decl_start);
            /* A definition's body was skipped whole: the next token starts a declaration. */
            if (next > i + 1 && next <= toks.count && tok_eq(&sc, &toks.items[next - 1], "}"))
                decl_start = next;
            i = next;
            continue;
        }
        i++;
    }
    free(sc.defs);
    free(sc.tdefs);
    lat__toks_free(&toks);
    if (sc.oom) {
        lat__kernel_sigs_free(out);
        return -1;
    }
    return 0;
}

void lat__kernel_sigs_free(lat__kernel_sigs *sigs)
{
    for (int i = 0; i < sigs->count; i++)
        free_sig(&sigs->items[i]);
    free(sigs->items);
    memset(sigs, 0, sizeof *sigs);
}

const lat__kernel_sig *lat__kernel_sigs_find(const lat__kernel_sigs *sigs, const char *name)
{
    for (int i = 0; i < sigs->count; i++)
        if (strcmp(sigs->items[i].name, name) == 0)
            return &sigs->items[i];
    return NULL;
}
