/*
 * Texture and surface calls through texture objects, and texture references.
 *
 * CUDA declares tex2D<T> and its kin as C++ templates whose argument is the result type.
 * Until the front end reads templates in general, this file reads these calls on its own:
 * `name < type-name > ( args )` (or the pointer forms, tex2D(&v, t, x, y) and
 * surf2Dread(&v, s, x, y), and surf*write(v, s, ...), which need no template argument),
 * and turns each into a typed call of one of four built-ins of the emulator's prelude
 * (__lat_tex, __lat_tex1, __lat_surfr, __lat_surfw), whose first argument is a null T *
 * that gives the result its type and whose second encodes T for the runtime
 * (the emulator's texobj.h). A pointer form becomes `(void)(*p = <the value form>)`, so that the
 * store is an ordinary access of the tree (the checks see it).
 *
 * parse_expr.c calls lat__texture_call_at / lat__parse_texture_call from one place in
 * primary(); parse.c calls lat__texture_reference for each external declaration.
 */
#include "parse.h"

#include <stdio.h>
#include <string.h>

/* What a call reads or writes. */
typedef enum tex_family { F_TEX, F_FETCH, F_SURF_READ, F_SURF_WRITE } tex_family;

typedef struct tex_fn {
    const char *name;
    tex_family family;
    int op;      /* texobj.h's LAT__TEXOP_* (0 for tex1Dfetch) */
    int ncoords; /* coordinates, the layer included */
} tex_fn;

static const tex_fn fns[] = {
    {"tex1Dfetch", F_FETCH, 0, 1},
    {"tex1D", F_TEX, 1, 1},
    {"tex2D", F_TEX, 2, 2},
    {"tex3D", F_TEX, 3, 3},
    {"tex1DLayered", F_TEX, 4, 2},
    {"tex2DLayered", F_TEX, 5, 3},
    {"surf1Dread", F_SURF_READ, 1, 1},
    {"surf2Dread", F_SURF_READ, 2, 2},
    {"surf3Dread", F_SURF_READ, 3, 3},
    {"surf1DLayeredread", F_SURF_READ, 4, 2},
    {"surf2DLayeredread", F_SURF_READ, 5, 3},
    {"surf1Dwrite", F_SURF_WRITE, 1, 1},
    {"surf2Dwrite", F_SURF_WRITE, 2, 2},
    {"surf3Dwrite", F_SURF_WRITE, 3, 3},
    {"surf1DLayeredwrite", F_SURF_WRITE, 4, 2},
    {"surf2DLayeredwrite", F_SURF_WRITE, 5, 3},
};

static const tex_fn *find_fn(const lat__atom *a)
{
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (strcmp(fns[i].name, a->name) == 0)
            return &fns[i];
    return NULL;
}

bool lat__texture_call_at(lat__parser *p, const lat__tok *t)
{
    /* A declaration of the program's own of the name wins, as for any built-in. */
    (void)p;
    return t->kind == LAT_TK_IDENT && !t->atom->sym && find_fn(t->atom) != NULL;
}

/* ---- nodes ------------------------------------------------------------------------------ */

static lat__expr *error_node(lat__parser *p, lat__loc loc)
{
    lat__expr *e = lat__expr_new(p, LAT_E_INT, loc);
    e->flags = LAT_EF_ERROR;
    e->text = "0";
    e->len = 1;
    return e;
}

static lat__expr *int_const(lat__parser *p, int64_t v, lat__loc loc)
{
    lat__expr *e = lat__expr_new(p, LAT_E_INT, loc);
    e->type = &lat__ty_int;
    e->ival = v;
    e->flags |= LAT_EF_CONST;
    e->text = lat__arena_printf(&p->u->arena, "%lld", (long long)v);
    e->len = (uint32_t)strlen(e->text);
    return e;
}

/* The prelude's built-in `name`, called with args; of type t. */
static lat__expr *builtin_call(lat__parser *p, const char *name, lat__expr **args, int nargs,
                               lat__type *t, lat__loc loc)
{
    lat__sym *fn = lat__lookup(p, lat__atom_get(&p->u->atoms, name, strlen(name)));
    if (!fn)
        return error_node(p, loc); /* cannot happen: builtins.c declares it */
    fn->flags |= LAT_SF_USED;
    lat__expr *callee = lat__expr_new(p, LAT_E_NAME, loc);
    callee->sym = fn;
    callee->type = fn->type;
    lat__expr *e = lat__expr_new(p, LAT_E_CALL, loc);
    e->a = callee;
    e->sym = fn;
    e->args = args;
    e->nargs = nargs;
    e->type = t;
    for (int i = 0; i < nargs; i++)
        e->flags |= args[i]->flags & LAT_EF_ERROR;
    return e;
}

/* ---- the result type ------------------------------------------------------------------------- */

/* T's code for the runtime (texobj.h): channels in bits 0-2, a vector type in bit 3, the
 * scalar in bits 4-7; 0 when T cannot be read or written so (*why says why). */
static unsigned type_code(lat__parser *p, lat__type *t, bool surface, const char **why)
{
    lat__type *u = lat__unqualified(p->u, t);
    unsigned channels = 1, vector = 0;
    lat__type *s = u;
    if (lat__is_record(u)) {
        const lat__record *r = u->rec;
        s = NULL;
        if (r && r->builtin && r->tag && r->fields.n >= 1) {
            size_t len = strlen(r->tag->name);
            char last = len ? r->tag->name[len - 1] : 0;
            if (last >= '1' && last <= '4') {
                channels = (unsigned)(last - '0');
                vector = 8;
                s = lat__unqualified(p->u, r->fields.items[0].type);
            }
        }
        if (!s) {
            *why = "a struct";
            return 0;
        }
        if (channels == 3) {
            *why = "a 3-component vector (textures and surfaces have 1, 2 or 4 channels)";
            return 0;
        }
    }
    unsigned code;
    switch (s->kind) {
    case LAT_TY_CHAR: case LAT_TY_SCHAR: code = 1; break;
    case LAT_TY_UCHAR: code = 2; break;
    case LAT_TY_SHORT: code = 3; break;
    case LAT_TY_USHORT: code = 4; break;
    case LAT_TY_INT: code = 5; break;
    case LAT_TY_UINT: code = 6; break;
    case LAT_TY_FLOAT: code = 7; break;
    case LAT_TY_LONG: case LAT_TY_LLONG: code = surface ? 8 : 0; break;
    case LAT_TY_ULONG: case LAT_TY_ULLONG: code = surface ? 9 : 0; break;
    default: code = 0; break;
    }
    if (code == 0) {
        *why = surface ? "not a type surfaces read and write (char, short, int, long long, float, "
                         "their unsigned forms, and their 1-, 2- and 4-component vectors)"
                       : "not a type textures return (char, short, int, float, their unsigned "
                         "forms, and their 1-, 2- and 4-component vectors)";
        return 0;
    }
    if (lat__sizeof(u) > 16) {
        *why = "larger than 16 bytes";
        return 0;
    }
    return channels | vector | code << 4;
}

/* ---- the call ----------------------------------------------------------------------------- */

lat__expr *lat__parse_texture_call(lat__parser *p)
{
    lat__tok *name = lat__next(p);
    const tex_fn *f = find_fn(name->atom);
    lat__loc loc = name->loc;
    const char *fname = name->atom->name;
    lat__type *T = NULL;
    bool bad = false;
    if (lat__accept(p, LAT_P_LT)) {
        T = lat__parse_type_name(p);
        if (!lat__expect(p, LAT_P_GT, "to close the template argument"))
            bad = true;
        if (!T)
            bad = true;
    }
    if (!lat__expect(p, LAT_P_LPAREN, "after the texture function's name")) {
        if (p->fn)
            p->fn->has_error = true;
        return error_node(p, loc);
    }
    lat__expr **argv;
    size_t argc = lat__parse_arguments(p, LAT_P_RPAREN, "to close the call", &argv);
    for (size_t i = 0; i < argc; i++) {
        argv[i] = lat__rvalue(p, argv[i]);
        bad |= (argv[i]->flags & LAT_EF_ERROR) != 0;
    }
    if (bad) {
        if (p->fn)
            p->fn->has_error = true;
        return error_node(p, loc);
    }
    bool surface = f->family == F_SURF_READ || f->family == F_SURF_WRITE;
    /* The arguments: [the value written | the result's pointer], the object, the
     * coordinates, [the boundary mode]. */
    int base = f->ncoords + 1;
    int n = (int)argc, at = 0;
    lat__expr *ptr = NULL, *value = NULL;
    bool lead = f->family == F_SURF_WRITE ||
                (n >= base + 1 && lat__is_pointer(argv[0]->type) &&
                 (n == base + 1 || (surface && n == base + 2)));
    if (lead && f->family != F_SURF_WRITE)
        ptr = argv[at++];
    else if (lead && n > 0)
        value = argv[at++];
    int rest = n - at;
    if (rest != base && !(surface && rest == base + 1)) {
        lat__error_at(p->u, loc, "'%s' takes %s%d argument%s%s (%d given)", fname,
                      f->family == F_SURF_WRITE ? "the value, then " : "", base,
                      base == 1 ? "" : "s", surface ? " and an optional boundary mode" : "", n);
        return error_node(p, loc);
    }
    if (ptr) {
        lat__type *pt = ptr->type->base;
        if (pt->quals & LAT_Q_CONST) {
            lat__error_at(p->u, ptr->loc, "'%s' stores its result through a pointer to const",
                          fname);
            return error_node(p, loc);
        }
        if (T && !lat__type_same(lat__unqualified(p->u, T), lat__unqualified(p->u, pt))) {
            lat__error_at(p->u, ptr->loc, "'%s<%s>' stores its result through %s", fname,
                          lat__type_str(p->u, T, NULL, false), lat__type_str(p->u, ptr->type, NULL, false));
            return error_node(p, loc);
        }
        T = pt;
    }
    if (value && !T)
        T = value->type;
    if (!T) {
        lat__error_at(p->u, loc,
                      "'%s' needs its result type as a template argument, e.g. %s<float>(...) "
                      "(the texture-reference form %s(texref, ...) was removed in CUDA 12)",
                      fname, fname, fname);
        return error_node(p, loc);
    }
    const char *why = NULL;
    unsigned code = type_code(p, T, surface, &why);
    if (!code) {
        lat__error_at(p->u, loc, "'%s<%s>': %s is %s", fname, lat__type_str(p->u, T, NULL, false),
                      lat__type_str(p->u, T, NULL, false), why);
        return error_node(p, loc);
    }
    lat__type *R = lat__unqualified(p->u, T);
    lat__expr *call_args[9];
    int k = 0;
    call_args[k++] = lat__cast_to(p, int_const(p, 0, loc), lat__pointer_to(p->u, R), false);
    call_args[k++] = int_const(p, code, loc);
    char what[96];
    if (value) {
        snprintf(what, sizeof what, "passing the value to '%s' as", fname);
        call_args[k++] = lat__convert_assign(p, value, R, what);
    }
    snprintf(what, sizeof what, "passing the %s object to '%s' as", surface ? "surface" : "texture",
             fname);
    call_args[k++] = lat__convert_assign(p, argv[at++], &lat__ty_ullong, what);
    if (f->family != F_FETCH)
        call_args[k++] = int_const(p, f->op, loc);
    /* Coordinates: floats for textures, ints for surfaces and tex1Dfetch, and the layer
     * an int; absent ones 0. */
    int ncoord_slots = f->family == F_FETCH ? 1 : f->family == F_TEX ? 4 : 3;
    bool layered = f->op == 4 || f->op == 5;
    for (int c = 0; c < ncoord_slots; c++) {
        int src = -1;
        bool is_layer_slot = f->family == F_TEX && c == 3;
        if (f->family == F_TEX) {
            int spatial = f->ncoords - (layered ? 1 : 0);
            if (c < spatial)
                src = c;
            else if (is_layer_slot && layered)
                src = f->ncoords - 1;
        } else if (c < f->ncoords) {
            src = c;
        }
        if (src < 0) {
            call_args[k++] = int_const(p, 0, loc);
            continue;
        }
        lat__type *ct = f->family == F_TEX && !is_layer_slot ? &lat__ty_float : &lat__ty_int;
        snprintf(what, sizeof what, "passing coordinate %d of '%s' as", src + 1, fname);
        call_args[k++] = lat__convert_assign(p, argv[at + src], ct, what);
    }
    at += f->ncoords;
    if (surface) {
        lat__expr *mode = at < n ? argv[at] : NULL;
        call_args[k++] = mode ? lat__convert_assign(p, mode, &lat__ty_int, "passing the boundary mode as")
                              : int_const(p, 2, loc); /* cudaBoundaryModeTrap */
    }
    lat__expr **heap = lat__arena_alloc(&p->u->arena, (size_t)k * sizeof *heap);
    memcpy(heap, call_args, (size_t)k * sizeof *heap);
    const char *builtin = f->family == F_TEX ? "__lat_tex"
                          : f->family == F_FETCH ? "__lat_tex1"
                          : f->family == F_SURF_READ ? "__lat_surfr"
                                                     : "__lat_surfw";
    lat__expr *e = builtin_call(p, builtin, heap, k,
                                f->family == F_SURF_WRITE ? &lat__ty_void : R, loc);
    if (!ptr)
        return e;
    /* (void)(*ptr = e) */
    lat__expr *deref = lat__expr_new(p, LAT_E_UNARY, ptr->loc);
    deref->op = LAT_P_STAR;
    deref->a = ptr;
    deref->type = ptr->type->base;
    deref->flags |= LAT_EF_LVALUE;
    lat__expr *store = lat__expr_new(p, LAT_E_ASSIGN, loc);
    store->op = LAT_P_ASSIGN;
    store->a = deref;
    store->b = e;
    store->type = R;
    return lat__cast_to(p, store, &lat__ty_void, false);
}

/* ---- texture references --------------------------------------------------------------------- */

bool lat__texture_reference(lat__parser *p)
{
    size_t k = 0;
    while (lat__tok_kw(lat__peek_at(p, k), LAT_KW_STATIC) || lat__tok_kw(lat__peek_at(p, k), LAT_KW_EXTERN))
        k++;
    lat__tok *t = lat__peek_at(p, k);
    if (t->kind != LAT_TK_IDENT || t->atom->sym || t->atom->kw ||
        !lat__tok_is_punct(lat__peek_at(p, k + 1), LAT_P_LT))
        return false;
    bool surface = strcmp(t->atom->name, "surface") == 0;
    if (!surface && strcmp(t->atom->name, "texture") != 0)
        return false;
    lat__diag_at(p->u, t->loc, LAT_SEV_ERROR, LAT_ERROR_UNSUPPORTED,
                 surface ? "surface references (removed in CUDA 12): use surface objects "
                           "(cudaSurfaceObject_t)"
                         : "texture references (removed in CUDA 12): use texture objects "
                           "(cudaTextureObject_t)");
    while (k-- > 0)
        lat__next(p);
    lat__next(p);
    lat__skip_angles(p);
    /* The names it declares: as objects, so that their uses say nothing more. */
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_SEMI)) {
        lat__tok *n = lat__next(p);
        if (n->kind == LAT_TK_IDENT && !n->atom->kw && !n->atom->sym) {
            lat__sym *s = lat__sym_new(p, LAT_SYM_VAR, n->atom, n->loc);
            s->type = &lat__ty_ullong;
            lat__bind(p, s);
        }
    }
    lat__accept(p, LAT_P_SEMI);
    return true;
}
