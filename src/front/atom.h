/*
 * Interned names. Every identifier of a translation is one lat__atom, so that names
 * compare by pointer, and each atom carries what the preprocessor and the parser bind to
 * it (its macro, its innermost declaration): lookups cost nothing.
 */
#ifndef LAT_FRONT_ATOM_H
#define LAT_FRONT_ATOM_H

#include "arena.h"

#include <stdbool.h>
#include <stdint.h>

/* Keywords: X(id, spelling, what). what: C for C11 (and GNU spellings), CUDA for CUDA's
 * qualifiers, CXX for C++ words (the dialect accepts some, names the rest). */
#define LAT_KEYWORDS(X)                                                                    \
    X(AUTO, "auto", CXX) X(BREAK, "break", C) X(CASE, "case", C) X(CHAR, "char", C)       \
    X(CONST, "const", C) X(CONTINUE, "continue", C) X(DEFAULT, "default", C)               \
    X(DO, "do", C) X(DOUBLE, "double", C) X(ELSE, "else", C) X(ENUM, "enum", C)           \
    X(EXTERN, "extern", C) X(FLOAT, "float", C) X(FOR, "for", C) X(GOTO, "goto", C)       \
    X(IF, "if", C) X(INLINE, "inline", C) X(INT, "int", C) X(LONG, "long", C)             \
    X(REGISTER, "register", C) X(RESTRICT, "restrict", C) X(RETURN, "return", C)           \
    X(SHORT, "short", C) X(SIGNED, "signed", C) X(SIZEOF, "sizeof", C)                     \
    X(STATIC, "static", C) X(STRUCT, "struct", C) X(SWITCH, "switch", C)                   \
    X(TYPEDEF, "typedef", C) X(UNION, "union", C) X(UNSIGNED, "unsigned", C)               \
    X(VOID, "void", C) X(VOLATILE, "volatile", C) X(WHILE, "while", C)                     \
    X(BOOL_, "_Bool", C) X(COMPLEX, "_Complex", C) X(ALIGNAS_, "_Alignas", C)              \
    X(ALIGNOF_, "_Alignof", C) X(ATOMIC, "_Atomic", C) X(GENERIC, "_Generic", C)           \
    X(NORETURN, "_Noreturn", C) X(STATIC_ASSERT_, "_Static_assert", C)                     \
    X(THREAD_LOCAL_, "_Thread_local", C) X(ATTRIBUTE, "__attribute__", C)                  \
    X(ATTRIBUTE2, "__attribute", C) X(RESTRICT2, "__restrict", C)                          \
    X(RESTRICT3, "__restrict__", C) X(INLINE2, "__inline", C) X(INLINE3, "__inline__", C)  \
    X(VOLATILE2, "__volatile__", C) X(CONST2, "__const", C) X(ASM, "asm", C)              \
    X(ASM2, "__asm__", C) X(ASM3, "__asm", C) X(TYPEOF, "typeof", C)                      \
    X(TYPEOF2, "__typeof__", C) X(TYPEOF3, "__typeof", C) X(ALIGNOF2, "__alignof__", C)   \
    X(ALIGNOF3, "__alignof", C) X(EXTENSION, "__extension__", C)                           \
    X(INT128, "__int128", C) X(DECLSPEC, "__declspec", C)                                  \
    X(UNDERLYING_TYPE, "__underlying_type", C)                                             \
    X(GLOBAL, "__global__", CUDA) X(DEVICE, "__device__", CUDA) X(HOST, "__host__", CUDA)  \
    X(SHARED, "__shared__", CUDA) X(CONSTANT, "__constant__", CUDA)                        \
    X(MANAGED, "__managed__", CUDA) X(FORCEINLINE, "__forceinline__", CUDA)                \
    X(NOINLINE, "__noinline__", CUDA) X(LAUNCH_BOUNDS, "__launch_bounds__", CUDA)          \
    X(ALIGN, "__align__", CUDA) X(BUILTIN_ALIGN, "__builtin_align__", CUDA)                \
    X(GRID_CONSTANT, "__grid_constant__", CUDA) X(CLUSTER_DIMS, "__cluster_dims__", CUDA)  \
    X(MAXNREG, "__maxnreg__", CUDA) X(DEVICE_BUILTIN, "__device_builtin__", CUDA)          \
    X(CUDART_CB, "CUDART_CB", CUDA)                                                        \
    X(BOOL, "bool", CXX) X(TRUE, "true", CXX) X(FALSE, "false", CXX)                       \
    X(NULLPTR, "nullptr", CXX) X(STATIC_ASSERT, "static_assert", CXX)                      \
    X(ALIGNAS, "alignas", CXX) X(ALIGNOF, "alignof", CXX) X(TEMPLATE, "template", CXX)    \
    X(TYPENAME, "typename", CXX) X(CLASS, "class", CXX) X(NAMESPACE, "namespace", CXX)    \
    X(USING, "using", CXX) X(NEW, "new", CXX) X(DELETE, "delete", CXX)                    \
    X(OPERATOR, "operator", CXX) X(THIS, "this", CXX) X(VIRTUAL, "virtual", CXX)          \
    X(FRIEND, "friend", CXX) X(PUBLIC, "public", CXX) X(PRIVATE, "private", CXX)          \
    X(PROTECTED, "protected", CXX) X(TRY, "try", CXX) X(CATCH, "catch", CXX)              \
    X(THROW, "throw", CXX) X(CONSTEXPR, "constexpr", CXX) X(CONSTEVAL, "consteval", CXX)  \
    X(CONSTINIT, "constinit", CXX) X(DECLTYPE, "decltype", CXX)                            \
    X(STATIC_CAST, "static_cast", CXX) X(DYNAMIC_CAST, "dynamic_cast", CXX)                \
    X(REINTERPRET_CAST, "reinterpret_cast", CXX) X(CONST_CAST, "const_cast", CXX)          \
    X(EXPLICIT, "explicit", CXX) X(MUTABLE, "mutable", CXX) X(NOEXCEPT, "noexcept", CXX)  \
    X(THREAD_LOCAL, "thread_local", CXX) X(WCHAR_T, "wchar_t", CXX)                        \
    X(CHAR16_T, "char16_t", CXX) X(CHAR32_T, "char32_t", CXX) X(TYPEID, "typeid", CXX)    \
    X(EXPORT, "export", CXX) X(CONCEPT, "concept", CXX) X(REQUIRES, "requires", CXX)

typedef enum lat__kw {
    LAT_KW_NONE = 0,
#define LAT_KW_ENUM(id, spelling, what) LAT_KW_##id,
    LAT_KEYWORDS(LAT_KW_ENUM)
#undef LAT_KW_ENUM
    LAT_KW_COUNT
} lat__kw;

struct lat__macro;
struct lat__sym;

typedef struct lat__atom {
    const char *name; /* NUL-terminated */
    uint32_t len;
    uint32_t hash;
    uint16_t kw;      /* lat__kw */
    struct lat__macro *macro; /* the preprocessor's current definition, or NULL */
    struct lat__sym *sym;     /* the parser's innermost ordinary declaration in scope */
    struct lat__sym *tag;     /* the innermost struct/union/enum tag in scope */
    void *aux;                /* a pass's own use (cleared by that pass) */
} lat__atom;

typedef struct lat__atoms {
    lat__arena *arena;
    lat__atom **slots;
    size_t cap, n;
} lat__atoms;

/* Sets up the table with every keyword interned. */
void lat__atoms_init(lat__atoms *t, lat__arena *arena);
/* The atom for [s, s + n), interned on first use. */
lat__atom *lat__atom_get(lat__atoms *t, const char *s, size_t n);
/* The atom if the name was interned, else NULL. */
lat__atom *lat__atom_find(const lat__atoms *t, const char *s, size_t n);
/* Whether a keyword is C++ only (the "what" column above). */
bool lat__kw_is_cxx(lat__kw kw);
bool lat__kw_is_cuda(lat__kw kw);

#endif
