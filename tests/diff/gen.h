/*
 * A seeded generator of random, well-defined CUDA C kernels, for differential tests of the
 * emulator (tests/diff/README.md).
 *
 * A program is a tree of statements and expressions, kept so that it can be checked and
 * shrunk, and written out as CUDA C that NVRTC and the emulator both accept. Every
 * program is well defined on a GPU: unsigned (wrapping) arithmetic, no division by zero,
 * shifts below 32, barriers only in block-uniform control flow, warp operations with the
 * warp's whole mask only in warp-uniform control flow, early returns only where no thread
 * left behind waits for them, and no data race on shared memory (each thread writes its
 * own slot; other slots are read only after a barrier separates the write). Each thread
 * folds the values it computes into slots of its own in the output array:
 * o[gt * K + j] = o[gt * K + j] * 31 + value, so any difference shows.
 *
 * dg_generate() is deterministic: the same seed and feature mask give the same program,
 * on every machine (its own PRNG, no rand()).
 */
#ifndef LAT_DIFF_GEN_H
#define LAT_DIFF_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The feature classes, each switchable. XX(NAME, "name", "what it adds"). */
#define DG_FEATURES(XX)                                                                    \
    XX(IF, "if", "if/else, nested, on uniform and divergent conditions")                  \
    XX(LOOP, "loop", "for, while and do loops with bounded trip counts")                  \
    XX(SWITCH, "switch", "switch with fallthrough, break and default")                    \
    XX(LOGIC, "logic", "?:, && and || in expressions")                                    \
    XX(LNEG, "lneg", "~ and unary - of (unsigned)(a && b) and (unsigned)(a || b), which "  \
                     "TinyCC takes as signed")                                            \
    XX(JUMP, "jump", "break and continue")                                                \
    XX(BARRIER, "barrier", "__syncthreads() statements in block-uniform control flow")     \
    XX(BVOTE, "bvote", "__syncthreads_count/_and/_or, the value kept in a variable")       \
    XX(WVOTE, "wvote", "__all_sync, __any_sync, __ballot_sync, __syncwarp")               \
    XX(SHFL, "shfl", "__shfl_sync, __shfl_down_sync, __shfl_xor_sync, with widths")       \
    XX(SHFLUP, "shflup", "__shfl_up_sync (its delta unsigned, as CUDA declares it)")       \
    XX(MATCH, "match", "__match_any_sync and __reduce_{add,min,max,and,or,xor}_sync")      \
    XX(MASKED, "masked", "collectives under conditions uniform only when run (data read "  \
                         "alike, values of collectives, variables, warp indices), where "  \
                         "today's translator keeps a mask per thread; without it, only "   \
                         "under constants, built-ins, parameters and their loops")        \
    XX(COND, "cond", "collectives in conditions of if, while, do, for and switch, "        \
                     "alone or (with nest) inside the condition's expression")            \
    XX(NEST, "nest", "collectives nested in expressions: operands, call arguments, "       \
                     "return values, && / || operands, ?: conditions and arms")           \
    XX(INNER, "inner", "collectives in the arguments of other collectives")               \
    XX(SHARED, "shared", "a __shared__ array: own slots written, others read after a barrier") \
    XX(LOCAL, "local", "local arrays")                                                    \
    XX(HELPER, "helper", "__device__ functions without collectives")                      \
    XX(HCOLL, "hcoll", "__device__ functions with barriers and warp operations")          \
    XX(SRET, "sret", "helpers (of odd seeds) that return a 12-byte struct by value, read "  \
                     "by .x: what TinyCC stored over the local before the call")          \
    XX(CXX, "cxx", "helpers (of seeds 2 mod 4) whose returns go through a class, an "      \
                   "explicit and a deduced instance of overloaded function templates in a " \
                   "namespace, inside extern \"C++\"")                                   \
    XX(RET, "ret", "early return of whole blocks or warps, before later collectives")     \
    XX(TAIL, "tail", "early return of single threads after their last collective")        \
    XX(WRET, "wret", "returns (ret, tail) in the stretch after a warp operation, with no " \
                     "__syncthreads() between them")                                     \
    XX(DIMS, "dims", "2-D and 3-D blocks and grids")                                      \
    XX(PARTIAL, "partial", "blocks whose size is not a multiple of 32 (masks of the partial warp)")

enum {
#define DG_IDX_(name, text, desc) DG_I_##name,
    DG_FEATURES(DG_IDX_)
#undef DG_IDX_
    DG_NFEATURES
};

enum {
#define DG_BIT_(name, text, desc) DG_F_##name = 1u << DG_I_##name,
    DG_FEATURES(DG_BIT_)
#undef DG_BIT_
    DG_F_ALL = (1u << DG_NFEATURES) - 1
};

/* The classes the CI test (test_diff.c) runs: all of them since the front end's one
 * parse fixed bugs A to G and the lowering writes around TinyCC's H and J. A class a new
 * bug is found in may leave this set only with a reproducer in repro/ that fails. */
#define DG_F_CI DG_F_ALL

/* The short name ("shfl") and description of feature i (0 <= i < DG_NFEATURES). */
const char *dg_feature_name(int i);
const char *dg_feature_desc(int i);

/* Parses a feature list into a mask: names separated by commas, "all", "none", "ci" (the
 * classes the CI test runs), a name with a leading '-' removes it ("all,-shfl"), and a
 * number (0x...) is a mask. Returns 0, or -1 naming the bad word in `why`. */
int dg_parse_features(const char *text, unsigned *mask, char *why, size_t why_size);

/* Writes a mask as names separated by commas ("none" for 0). */
void dg_format_features(unsigned mask, char *buf, size_t size);

typedef struct dg_program dg_program;

/* A new random program (never NULL; exits on out of memory, as a test tool may). */
dg_program *dg_generate(uint64_t seed, unsigned features);
dg_program *dg_copy(const dg_program *p);
void dg_free(dg_program *p); /* NULL is a no-op */
uint64_t dg_seed(const dg_program *p);
unsigned dg_features(const dg_program *p);

/* What it takes to run a program: its launch, its inputs, and its output's layout. */
typedef struct dg_run_info {
    unsigned grid[3], block[3];
    unsigned threads;       /* per block */
    unsigned slots;         /* K: output words per thread */
    size_t out_words;       /* blocks * threads * slots */
    const uint32_t *in;     /* the input array `in` */
    size_t in_words;
    uint32_t params[2];     /* p0, p1 */
} dg_run_info;

/* The program as CUDA C (malloc'd), kernel "k"(unsigned *o, const unsigned *in,
 * unsigned p0, unsigned p1); *info receives the launch (may be NULL). */
char *dg_render(const dg_program *p, dg_run_info *info);

/* 0 when the program keeps every rule above; -1 otherwise, saying which in `why`. The
 * generator's programs always pass (a failure is a bug of the generator); shrinking uses
 * it to refuse edits that would make a program undefined. */
int dg_verify(const dg_program *p, char *why, size_t why_size);

/* Whether some threads (whole warps) may return and others then reach a barrier: defined
 * on a GPU (exited threads count as arrived), but what synccheck reports by design. */
bool dg_exits_before_barrier(const dg_program *p);

/* Statements and expression nodes, for reports. */
size_t dg_size(const dg_program *p);

/* Shrinking: the program's candidate edits are numbered 0 .. dg_edit_count() - 1 (delete
 * a statement, keep one branch of an if, replace an expression by a constant or by one
 * of its operands...). dg_edited() returns a copy with edit i made, or NULL when that
 * program would not pass dg_verify(). */
size_t dg_edit_count(const dg_program *p);
dg_program *dg_edited(const dg_program *p, size_t i);

#endif
