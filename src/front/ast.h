/*
 * The tree: one translation unit of CUDA C as the parser understands it. Every name is
 * resolved to its declaration (lat__sym), every expression has its type, every implicit
 * conversion that changes a value's representation is an explicit node, and every node
 * knows its place. Passes read it and annotate it (lat__sym.aux, lat__expr.aux...);
 * the emitter writes it back as C.
 *
 * Designed to grow: C++ constructs in kernels (references, overloads, templates) lower
 * into these same nodes, and the node kinds marked "lowered" exist for the passes.
 */
#ifndef LAT_FRONT_AST_H
#define LAT_FRONT_AST_H

#include "unit.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct lat__type lat__type;
typedef struct lat__expr lat__expr;
typedef struct lat__stmt lat__stmt;
typedef struct lat__sym lat__sym;
typedef struct lat__record lat__record;
typedef struct lat__func lat__func;
typedef struct lat__decl lat__decl;

/* ---- types ------------------------------------------------------------------------------ */

typedef enum lat__tykind {
    LAT_TY_VOID,
    LAT_TY_BOOL,
    LAT_TY_CHAR, /* plain char: signed, as on x86-64 and in nvcc */
    LAT_TY_SCHAR,
    LAT_TY_UCHAR,
    LAT_TY_SHORT,
    LAT_TY_USHORT,
    LAT_TY_INT,
    LAT_TY_UINT,
    LAT_TY_LONG,
    LAT_TY_ULONG,
    LAT_TY_LLONG,
    LAT_TY_ULLONG,
    LAT_TY_FLOAT,
    LAT_TY_DOUBLE,
    LAT_TY_LDOUBLE,
    LAT_TY_ENUM,
    LAT_TY_PTR,
    LAT_TY_ARRAY,
    LAT_TY_FUNC,
    LAT_TY_STRUCT,
    LAT_TY_UNION,
} lat__tykind;

enum { LAT_Q_CONST = 1, LAT_Q_VOLATILE = 2, LAT_Q_RESTRICT = 4 };

typedef struct lat__param_types {
    lat__type **types; /* after adjustment (arrays and functions become pointers) */
    lat__sym **syms;   /* the parameters of a definition or prototype, may hold NULLs */
    int n;
    bool variadic;
    bool unprototyped; /* `f()` in C: any arguments */
    lat__expr **defaults; /* C++'s default arguments: NULL, or one per parameter (NULL: none) */
} lat__param_types;

struct lat__type {
    uint8_t kind;   /* lat__tykind */
    uint8_t quals;  /* LAT_Q_* */
    uint8_t is_signed;
    uint8_t complete;
    uint32_t size;  /* bytes (complete object types) */
    uint32_t align;
    lat__type *base;      /* PTR: pointee; ARRAY: element; FUNC: return; ENUM: underlying */
    int64_t count;        /* ARRAY: elements, -1 unknown ([] or a VLA) */
    lat__expr *vla;       /* ARRAY: the length of a variable-length array */
    lat__param_types params; /* FUNC */
    lat__record *rec;     /* STRUCT, UNION, ENUM */
    lat__sym *named;      /* the typedef this type was written as, for messages and output */
    uint8_t ref;          /* PTR: a C++ reference, lowered to a pointer (1: T &, 2: T &&):
                             names of it read through it, bindings take the address */
    int count_vph;        /* ARRAY in a signature read for deduction: its size is template
                             value parameter count_vph - 1 (float (&v)[N]); else 0 */
    lat__type *member_of; /* PTR to a FUNC: a pointer to a member function of this class
                             (R (C::*)(A...) const, the FUNC const), known to decltype and
                             templates only; NULL for any other type */
};

typedef struct lat__field {
    lat__atom *name; /* NULL: an anonymous struct or union member, or an unnamed bit-field */
    lat__type *type;
    lat__loc loc;
    uint32_t offset;     /* bytes */
    int bits;            /* bit-field width, -1 when not a bit-field */
    uint32_t bit_offset; /* within the storage unit at offset */
    size_t init_at;      /* C++: the token ('=' or '{') of its default member initializer; 0: none */
} lat__field;

struct lat__record {
    lat__atom *tag;     /* NULL when anonymous */
    uint8_t kind;       /* LAT_TY_STRUCT, _UNION or _ENUM */
    bool complete;
    bool packed;
    bool builtin;       /* declared by the implementation (float4, uint3...): not emitted */
    lat__loc loc;
    LAT_VEC(lat__field) fields;
    uint32_t size, align;
    uint32_t min_align; /* from __align__/aligned() on the type */
    const char *emit_tag; /* the tag the emitter writes (a name for anonymous ones) */
    int scope_depth;
    bool emitted;       /* the emitter wrote its definition */
    LAT_VEC(struct lat__sym *) methods; /* C++ member functions, constructors included */
    bool has_ctor;      /* a user-declared constructor: construction calls one */
    bool default_trivial; /* C++: `T() = default;`, a default constructor that does what a
                             class without constructors does */
    /* C++: T __lat_defaults(T init, int given), where a member has a default member
     * initializer or a class type that has one (parse_class.c): init with the members
     * from the given-th on set as the class says. */
    struct lat__sym *defaults;
    /* C++: a class template's instance: the template and its arguments (parse_template.c's);
     * what deduction matches a parameter such as Vec<T, N> against. */
    struct lat__template *tmpl;
    const void *targs;
    /* C++: its base class: its member types, static constants and member functions are
     * r's too; its data members, if any, are r's first nbase_fields (the base subobject
     * at r's start). */
    struct lat__record *base;
    size_t nbase_fields;
    /* C++: with more than one base class, all of them in order (base is the first), each
     * subobject's offset in r as the Itanium C++ ABI places it (0 for one without data),
     * and the index of its first data member among r's fields. Empty with one base. */
    LAT_VEC(struct lat__record *) bases;
    LAT_VEC(uint32_t) base_offsets;
    LAT_VEC(size_t) base_fields_at;
    /* C++: the namespace it was declared in (a class template's instance: the template's),
     * where argument-dependent lookup finds functions taking it; NULL: the global one. */
    struct lat__ns *ns;
    /* C++: its bases are being read or its body parsed (struct D : B<D> { ... }): an
     * instance naming it waits for its end to make its member functions */
    bool defining;
};

/* ---- symbols ------------------------------------------------------------------------------ */

typedef enum lat__symkind {
    LAT_SYM_VAR,
    LAT_SYM_FUNC,
    LAT_SYM_TYPEDEF,
    LAT_SYM_ENUM_CONST,
    LAT_SYM_TAG,     /* struct, union or enum tag: rec */
    LAT_SYM_BUILTIN, /* a built-in whose type depends on its arguments (builtins.h) */
} lat__symkind;

typedef enum lat__storage {
    LAT_ST_NONE,
    LAT_ST_TYPEDEF,
    LAT_ST_EXTERN,
    LAT_ST_STATIC,
    LAT_ST_AUTO,
    LAT_ST_REGISTER,
} lat__storage;

/* CUDA's declaration specifiers. */
enum {
    LAT_CU_GLOBAL = 1 << 0,
    LAT_CU_DEVICE = 1 << 1,
    LAT_CU_HOST = 1 << 2,
    LAT_CU_SHARED = 1 << 3,
    LAT_CU_CONSTANT = 1 << 4,
    LAT_CU_MANAGED = 1 << 5,
    LAT_CU_FORCEINLINE = 1 << 6,
    LAT_CU_NOINLINE = 1 << 7,
    LAT_CU_GRID_CONSTANT = 1 << 8,
    LAT_CU_INLINE = 1 << 9, /* C's inline */
};

enum {
    LAT_SF_PARAM = 1 << 0,
    LAT_SF_FILE_SCOPE = 1 << 1,
    LAT_SF_ADDRESS_TAKEN = 1 << 2, /* &x, or an array that decays */
    LAT_SF_MODIFIED = 1 << 3,      /* assigned after its declaration */
    LAT_SF_USED = 1 << 4,
    LAT_SF_BUILTIN = 1 << 5,       /* declared by the implementation: not emitted */
    LAT_SF_DEFINED = 1 << 6,       /* functions: has a body; variables: a definition */
    LAT_SF_THREAD_VARYING = 1 << 7, /* built-in values that differ between threads */
    LAT_SF_BLOCK_UNIFORM = 1 << 8,  /* built-in values every thread of a block shares */
    LAT_SF_METHOD = 1 << 9,  /* FUNC: a member function of rec (its first parameter is this,
                                unless static) */
    LAT_SF_CTOR = 1 << 10,   /* FUNC: a constructor of rec, returning the object it makes */
    LAT_SF_MEMBER = 1 << 11, /* VAR: a member's name inside a member function: this->field
                                (rec, field index in value) */
    LAT_SF_TRANSPARENT = 1 << 12, /* TYPEDEF: types written with it are spelled as what it
                                     stands for (a template's type parameter in an instance,
                                     a struct's member type: the emitted C has no such name) */
    LAT_SF_EXPLICIT = 1 << 13, /* FUNC: an `explicit` constructor: no implicit conversion */
    LAT_SF_CONSTEXPR = 1 << 14, /* FUNC: declared constexpr (its calls may be constants) */
};

struct lat__sym {
    uint8_t kind;    /* lat__symkind */
    uint8_t storage; /* lat__storage */
    uint16_t cuda;   /* LAT_CU_* */
    uint32_t flags;  /* LAT_SF_* */
    lat__atom *name;
    lat__type *type;
    lat__loc loc;
    int depth;         /* scope depth of its declaration: 0 file scope */
    lat__sym *shadow;  /* the declaration of the same name it hides, restored at scope end */
    lat__record *rec;  /* LAT_SYM_TAG */
    int64_t value;     /* LAT_SYM_ENUM_CONST */
    lat__func *fn;     /* LAT_SYM_FUNC with a definition */
    lat__decl *def;    /* LAT_SYM_VAR: its defining declarator */
    int builtin;       /* LAT_SYM_BUILTIN: its id (builtins.h); others: 0 */
    unsigned align;    /* alignas / __align__ on a variable */
    const char *emit_name; /* the emitter's spelling, when not the name */
    const char *expr_name; /* a kernel template's instance: the name expression that made
                              it (what finds it: "reduce<256>") */
    struct lat__ns *ns;    /* the C++ namespace it was declared in (NULL: the global one) */
    struct lat__template *tmpl; /* a template's name (FUNC: a function template; TYPEDEF: a
                                   class template), or NULL */
    lat__sym *overloads;   /* FUNC: the next older function of the same name and scope
                              with other parameters (C++ overloading), or NULL */
    lat__sym *builtin_of;  /* FUNC: the built-in of the same name the program's overloads
                              add to (helper_math.h's make_float3(float) beside CUDA's
                              make_float3(x, y, z)), or NULL */
    int tparam;        /* ENUM_CONST: a template value parameter's placeholder while a
                          signature is read for deduction: its index + 1; else 0 */
    void *aux;         /* a pass's own */
};

/* ---- expressions -------------------------------------------------------------------------- */

typedef enum lat__exprkind {
    LAT_E_INT,      /* an integer constant (ival), spelled as lit */
    LAT_E_FLOAT,    /* a floating constant (fval), spelled as lit */
    LAT_E_STRING,   /* lit: the literals' spellings, concatenated as written */
    LAT_E_NAME,     /* sym */
    LAT_E_UNARY,    /* op a */
    LAT_E_POSTFIX,  /* a op: ++, -- */
    LAT_E_BINARY,   /* a op b (also , && ||) */
    LAT_E_ASSIGN,   /* a op b: = or a compound assignment (op LAT_P_ADD_ASSIGN...) */
    LAT_E_COND,     /* a ? b : c (b NULL: GNU's a ?: c) */
    LAT_E_CALL,     /* a(args) */
    LAT_E_INDEX,    /* a[b] */
    LAT_E_MEMBER,   /* a.field or a->field (arrow) */
    LAT_E_CAST,     /* (to)a; implicit when LAT_EF_IMPLICIT, functional when LAT_EF_FUNCTIONAL */
    LAT_E_SIZEOF,   /* sizeof a, or sizeof(to) when a is NULL; ival when constant */
    LAT_E_ALIGNOF,  /* _Alignof(to) or of a */
    LAT_E_COMPOUND, /* (to){init}: init is an LAT_E_INIT */
    LAT_E_INIT,     /* { items } with designators: an initializer list */
    LAT_E_STMT,     /* ({ stmt }): GNU statement expression */
    LAT_E_OFFSETOF, /* __builtin_offsetof(to, member): ival */
    LAT_E_VA_ARG,   /* __builtin_va_arg(a, to) */
    /* lowered, made by passes */
    LAT_E_RAW,      /* text, written as it is (with type) */
} lat__exprkind;

enum {
    LAT_EF_LVALUE = 1 << 0,
    LAT_EF_IMPLICIT = 1 << 1,   /* a conversion C makes implicitly */
    LAT_EF_FUNCTIONAL = 1 << 2, /* T(x) as written */
    LAT_EF_ARROW = 1 << 3,      /* MEMBER: -> */
    LAT_EF_CONST = 1 << 4,      /* an integer constant expression; ival holds its value */
    LAT_EF_PAREN = 1 << 5,      /* written in parentheses */
    LAT_EF_ERROR = 1 << 6,      /* an erroneous expression (already reported) */
    LAT_EF_CHOSEN = 1 << 7,     /* NAME: this member of an overload set, chosen already */
};

/* One designated or positional item of an initializer list. */
typedef struct lat__init_item {
    lat__expr *value;      /* an expression or a nested LAT_E_INIT */
    struct lat__designator *desig; /* NULL: positional */
} lat__init_item;

typedef struct lat__designator {
    struct lat__designator *next;
    lat__field *field; /* .name (the field), or NULL for [index] */
    lat__atom *name;
    lat__expr *index;
    int64_t at;        /* resolved index */
} lat__designator;

struct lat__expr {
    uint8_t kind;   /* lat__exprkind */
    uint8_t op;     /* lat__punct for UNARY, POSTFIX, BINARY, ASSIGN */
    uint16_t flags; /* LAT_EF_* */
    lat__type *type;
    lat__loc loc;
    lat__expr *a, *b, *c;
    lat__expr **args; /* CALL: arguments (after conversion to the parameters' types) */
    int nargs;
    lat__sym *sym;    /* NAME; CALL: the function called when it is a plain name */
    lat__type *to;    /* CAST, SIZEOF, ALIGNOF, COMPOUND, OFFSETOF, VA_ARG */
    lat__field *field; /* MEMBER: the field (in a nested anonymous member: the innermost) */
    lat__expr *path;   /* MEMBER through anonymous members: the outer member expression */
    union {
        int64_t ival;  /* INT, constants */
        double fval;   /* FLOAT */
    };
    const char *text;  /* INT, FLOAT, STRING: the spelling; RAW: the text */
    uint32_t len;
    LAT_VEC(lat__init_item) items; /* INIT */
    lat__stmt *stmt;   /* STMT */
    void *aux;         /* a pass's own */
    int32_t site;      /* the checks: this access's site code + 1 (0: not checked) */
    const struct lat__bound *bound; /* the checks: its proof of being in bounds (a pass's) */
};

/* ---- statements and declarations ------------------------------------------------------------- */

/* One declarator of a declaration: a variable, typedef, function prototype... */
struct lat__decl {
    lat__sym *sym;
    lat__expr *init; /* NULL: none */
    lat__loc loc;    /* the declarator's name */
    lat__decl *next; /* the next declarator of the same declaration */
};

/* A declaration: `static const float a = 1, *b;` is one group of two declarators. */
typedef struct lat__decl_group {
    lat__type *base;     /* the type the specifiers name */
    lat__record *defines; /* a struct/union/enum this declaration defines, or NULL */
    lat__decl *first;
    lat__loc loc;
    bool static_assert_;  /* a _Static_assert (checked, nothing to emit) */
} lat__decl_group;

typedef enum lat__stmtkind {
    LAT_S_COMPOUND, /* { items } */
    LAT_S_EXPR,     /* e; */
    LAT_S_DECL,     /* a declaration in a block (decls) */
    LAT_S_NULL,     /* ; */
    LAT_S_IF,       /* if (cond) then else */
    LAT_S_WHILE,    /* while (cond) body */
    LAT_S_DO,       /* do body while (cond); */
    LAT_S_FOR,      /* for (init_decls or init; cond; step) body */
    LAT_S_SWITCH,   /* switch (cond) body; cases listed */
    LAT_S_CASE,     /* case value (... high): body */
    LAT_S_DEFAULT,  /* default: body */
    LAT_S_BREAK,
    LAT_S_CONTINUE,
    LAT_S_RETURN,   /* return e; */
    LAT_S_GOTO,     /* goto label */
    LAT_S_LABEL,    /* label: body */
    LAT_S_ASM,      /* rejected; kept for the message */
    /* lowered, made by passes */
    LAT_S_RAW,      /* text */
} lat__stmtkind;

struct lat__stmt {
    uint8_t kind;
    lat__loc loc;
    lat__loc end;          /* COMPOUND: its closing brace */
    LAT_VEC(lat__stmt *) items; /* COMPOUND */
    lat__expr *e;          /* EXPR, RETURN; IF, WHILE, DO, FOR, SWITCH: the condition */
    lat__expr *step;       /* FOR */
    lat__stmt *init;       /* FOR: an EXPR or DECL statement, or NULL */
    lat__stmt *body;       /* loops, SWITCH, CASE, DEFAULT, LABEL; IF: then */
    lat__stmt *els;        /* IF */
    lat__decl_group *decls; /* DECL */
    int64_t value, high;   /* CASE */
    lat__atom *label;      /* GOTO, LABEL */
    lat__stmt *target;     /* BREAK, CONTINUE: the loop or switch; GOTO: the LABEL */
    LAT_VEC(lat__stmt *) cases; /* SWITCH: its CASE and DEFAULT statements */
    const char *text;      /* RAW */
    const char *pragma;    /* a #pragma just before it (unroll...), or NULL */
    void *aux;
};

/* ---- functions and the unit ---------------------------------------------------------------- */

struct lat__func {
    lat__sym *sym;
    lat__sym **params; /* params[i] may have a NULL name (unnamed) */
    int nparams;
    lat__stmt *body;
    lat__loc loc, end;
    int launch_bounds[3]; /* __launch_bounds__ (0: not given) */
    LAT_VEC(lat__sym *) locals;   /* every block-scope variable, in order */
    LAT_VEC(lat__sym *) calls;    /* the functions it calls directly (each once) */
    LAT_VEC(lat__sym *) shared;   /* its __shared__ variables */
    LAT_VEC(lat__stmt *) labels;
    bool has_error;       /* a part of it was not understood (reported) */
    bool calls_collective; /* computed: can reach a barrier or a warp operation */
    bool calls_indirect;   /* computed: calls through a pointer to a function */
    void *aux;
};

typedef enum lat__extkind {
    LAT_X_DECL, /* a declaration at file scope */
    LAT_X_FUNC, /* a function definition */
} lat__extkind;

typedef struct lat__ext {
    uint8_t kind;
    lat__decl_group *decls;
    lat__func *fn;
} lat__ext;

/* A __global__ function template: no kernel until an instance is named. */
typedef struct lat__kernel_template {
    const char *name; /* as a name expression starts: "ops::reduce" */
    const char *decl; /* "template <typename T, int N> __global__ void reduce(T *out, int n)" */
    int line;
} lat__kernel_template;

typedef struct lat__tu {
    LAT_VEC(lat__ext) items;
    LAT_VEC(lat__sym *) kernels;  /* every __global__ function declared, in order */
    LAT_VEC(lat__kernel_template) kernel_templates; /* in order of declaration */
    LAT_VEC(lat__sym *) globals;  /* __device__, __constant__ variables at file scope */
    LAT_VEC(lat__sym *) shared;   /* every __shared__ variable of the unit */
    LAT_VEC(lat__record *) records; /* every struct, union and enum, in order of definition */
    LAT_VEC(lat__sym *) builtins_used; /* implementation names the program uses */
    struct lat__ns **top_ns; /* the global namespace's children, for names looked up */
    size_t ntop_ns;          /* after the parse (a name expression's ns::k<int>) */
} lat__tu;

#endif
