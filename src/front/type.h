/* Types of the tree (ast.h): the basic ones, derived ones, C's conversions, and their
 * spelling for messages. */
#ifndef LAT_FRONT_TYPE_H
#define LAT_FRONT_TYPE_H

#include "ast.h"

/* The unqualified basic types, shared by every unit (never modified). */
extern lat__type lat__ty_void, lat__ty_bool, lat__ty_char, lat__ty_schar, lat__ty_uchar,
    lat__ty_short, lat__ty_ushort, lat__ty_int, lat__ty_uint, lat__ty_long, lat__ty_ulong,
    lat__ty_llong, lat__ty_ullong, lat__ty_float, lat__ty_double, lat__ty_ldouble;

lat__type *lat__type_new(lat__unit *u, lat__tykind kind);
/* A complete void type standing for one the parser fills in later (auto, a deduced return
 * type, a template parameter's dependent type): mark, in its count, says which. */
lat__type *lat__marker_type(lat__unit *u, int64_t mark);
/* The classes of the emulator's cuda_fp16.h and cuda_bf16.h (fp16_header.c), by their
 * reserved names: what a record of type t is (a pointer or reference read through). */
typedef enum lat__half_class {
    LAT_HALF_NONE,
    LAT_HALF_F16,    /* __half */
    LAT_HALF_BF16,   /* __nv_bfloat16 */
    LAT_HALF_F16X2,  /* __half2 */
    LAT_HALF_BF16X2, /* __nv_bfloat162 */
} lat__half_class;
lat__half_class lat__half_class_of(const lat__type *t);
lat__type *lat__type_copy(lat__unit *u, const lat__type *t);
lat__type *lat__pointer_to(lat__unit *u, lat__type *base);
/* A C++ reference to base: a pointer marked ref (ast.h). */
lat__type *lat__reference_to(lat__unit *u, lat__type *base);
lat__type *lat__array_of(lat__unit *u, lat__type *elem, int64_t count);
lat__type *lat__func_type(lat__unit *u, lat__type *ret);
/* t with quals added (the same node when there is nothing to add). */
lat__type *lat__qualified(lat__unit *u, lat__type *t, unsigned quals);
/* t without top-level qualifiers and typedef sugar. */
lat__type *lat__unqualified(lat__unit *u, lat__type *t);
/* The basic type of a kind. */
lat__type *lat__basic(lat__tykind kind);

static inline bool lat__is_integer(const lat__type *t)
{
    return t->kind >= LAT_TY_BOOL && t->kind <= LAT_TY_ULLONG ? true : t->kind == LAT_TY_ENUM;
}
static inline bool lat__is_floating(const lat__type *t)
{
    return t->kind >= LAT_TY_FLOAT && t->kind <= LAT_TY_LDOUBLE;
}
static inline bool lat__is_arith(const lat__type *t)
{
    return lat__is_integer(t) || lat__is_floating(t);
}
static inline bool lat__is_pointer(const lat__type *t)
{
    return t->kind == LAT_TY_PTR;
}
static inline bool lat__is_scalar(const lat__type *t)
{
    return lat__is_arith(t) || t->kind == LAT_TY_PTR;
}
static inline bool lat__is_record(const lat__type *t)
{
    return t->kind == LAT_TY_STRUCT || t->kind == LAT_TY_UNION;
}
static inline bool lat__is_void(const lat__type *t)
{
    return t->kind == LAT_TY_VOID;
}
/* Size, alignment and completeness, read through to a struct's record (which may have
 * been completed after the type was made). */
static inline uint32_t lat__sizeof(const lat__type *t)
{
    return (t->kind == LAT_TY_STRUCT || t->kind == LAT_TY_UNION) && t->rec ? t->rec->size : t->size;
}
static inline uint32_t lat__alignof(const lat__type *t)
{
    if ((t->kind == LAT_TY_STRUCT || t->kind == LAT_TY_UNION) && t->rec)
        return t->rec->align ? t->rec->align : 1;
    if (t->kind == LAT_TY_ARRAY)
        return t->base ? lat__alignof(t->base) : 1;
    return t->align ? t->align : 1;
}
bool lat__is_complete(const lat__type *t);

/* Whether an integer type is unsigned (enums: their underlying type's). */
bool lat__is_unsigned(const lat__type *t);
/* Integer conversion rank (C11 6.3.1.1), bool lowest. */
int lat__int_rank(const lat__type *t);

/* C's integer promotion and usual arithmetic conversions (unqualified results). */
lat__type *lat__promote(lat__type *t);
lat__type *lat__usual_arith(lat__type *a, lat__type *b);
/* The type an expression of type t has as an rvalue: arrays and functions decay. */
lat__type *lat__decay(lat__unit *u, lat__type *t);

/* Whether two types are compatible (C11 6.2.7), ignoring top-level qualifiers when
 * ignore_quals. */
bool lat__type_compatible(const lat__type *a, const lat__type *b, bool ignore_quals);
/* The same type, typedefs seen through (qualifiers compared too). */
bool lat__type_same(const lat__type *a, const lat__type *b);

/* Lays out a struct or union once its fields are known (sizes, offsets, alignment, as
 * gcc does on x86-64, bit-fields included). */
void lat__record_layout(lat__record *r);

/* How lat__type_spell names what a type refers to. */
typedef struct lat__type_names {
    bool resolve_typedefs; /* write what a typedef stands for, not its name */
    bool emit;             /* for the emitted C: _Bool for bool, enums as their integer
                              type, typedefs and tags by the two callbacks below */
    const char *(*typedef_name)(void *data, lat__sym *typedef_sym);
    const char *(*record_name)(void *data, lat__record *rec); /* "struct S" */
    void *data;
    /* A parameter every function type takes first, or NULL: the emulator's thread
     * context, which its translated device functions take (abi.h). */
    const char *func_context;
} lat__type_names;

/* The type with a declarator around it, as C spells it ("float *x", "int (*p)[4]"). */
const char *lat__type_spell(lat__unit *u, const lat__type *t, const char *declarator,
                            const lat__type_names *names);

/* The type as C spells it, with name as the declarator's name (NULL: abstract), e.g.
 * "const float *", "int (*)[4]", "DATA_TYPE *" (typedef names kept when resolve_typedefs
 * is false). Allocated in the unit. */
const char *lat__type_str(lat__unit *u, const lat__type *t, const char *name, bool resolve_typedefs);

#endif
