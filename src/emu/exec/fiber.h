/*
 * Fibers for the emulator's kernels that need them (barriers or warp operations the
 * region loops cannot handle): each CUDA thread of a block runs on a small stack of its
 * own, and a hand-written x86-64 switch saves the callee-saved registers and the stack
 * pointer, nothing else (ucontext's swapcontext makes a sigprocmask system call, about
 * 1 us). Stacks are mapped once per OpenMP worker, with a guard page under each, and
 * reused by every block the worker runs.
 */
#ifndef LAT_EMU_FIBER_H
#define LAT_EMU_FIBER_H

#include <stdbool.h>
#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__)
#define LAT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LAT_ASAN 1
#endif
#endif
#ifdef LAT_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
enum { LAT_EMU_ASAN = 1 };
#else
enum { LAT_EMU_ASAN = 0 };
#endif

/* Valgrind follows a stack switch only into memory it knows is a stack; without this it
 * reports every access of a fiber's (or a kernel stack's, kstack.c) frames as invalid.
 * The requests cost nothing when the program does not run under valgrind. */
#if defined(LAT_HAVE_VALGRIND_H)
#include <valgrind/valgrind.h>
#define LAT_STACK_REGISTER(lo, hi) VALGRIND_STACK_REGISTER(lo, hi)
#define LAT_STACK_DEREGISTER(id) VALGRIND_STACK_DEREGISTER(id)
#else
#define LAT_STACK_REGISTER(lo, hi) ((void)(lo), (void)(hi), 0u)
#define LAT_STACK_DEREGISTER(id) ((void)(id))
#endif

/* Saves the current context, storing its stack pointer in *save, and resumes the one
 * whose stack pointer is `to` (from an earlier switch or lat__emu_fiber_init). */
void lat__emu_fiber_switch(void **save, void *to);

/* Switches from the context whose stack pointer goes to *save to `to`, whose stack is
 * [lo, lo + size), telling ASan (fake: the leaving context's fake-stack slot, NULL when
 * that context is finished). Inline: it is most of a barrier's cost. */
static inline void lat__emu_fiber_go(void **save, void **fake, void *to, const void *lo,
                                     size_t size)
{
#ifdef LAT_ASAN
    __sanitizer_start_switch_fiber(fake, lo, size);
#else
    (void)fake;
    (void)lo;
    (void)size;
#endif
    lat__emu_fiber_switch(save, to);
#ifdef LAT_ASAN
    __sanitizer_finish_switch_fiber(fake ? *fake : NULL, NULL, NULL);
#endif
}

/* A fiber's first moment: ASan learns the switch is done, and *lo and *size the stack it
 * left (unchanged without ASan). */
static inline void lat__emu_fiber_started(const void **lo, size_t *size)
{
#ifdef LAT_ASAN
    __sanitizer_finish_switch_fiber(NULL, lo, size);
#else
    (void)lo;
    (void)size;
#endif
}

/* Forgets ASan's poison of [lo, lo + size): frames of a fiber that never returned. */
static inline void lat__emu_fiber_unpoison(const void *lo, size_t size)
{
#ifdef LAT_ASAN
    __asan_unpoison_memory_region(lo, size);
#else
    (void)lo;
    (void)size;
#endif
}

/* Prepares a stack whose usable memory ends at top (exclusive) so that switching to the
 * returned stack pointer calls fn(arg). fn must never return. */
void *lat__emu_fiber_init(char *top, void (*fn)(void *), void *arg);

/* The stacks of one worker: count stacks of `size` usable bytes, each above a guard page. */
typedef struct lat__emu_stacks {
    char *map;
    size_t map_size;
    size_t size;   /* usable bytes per stack */
    size_t stride; /* size + guard */
    int count;
    unsigned *valgrind_ids; /* one per stack, when built with valgrind's header */
} lat__emu_stacks;

/* Makes room for at least n stacks; false when the memory cannot be mapped. */
bool lat__emu_stacks_reserve(lat__emu_stacks *s, int n);
/* The lowest usable address of stack i. */
char *lat__emu_stack_lo(const lat__emu_stacks *s, int i);
void lat__emu_stacks_free(lat__emu_stacks *s);

/* Usable bytes of each fiber's stack. */
enum { LAT_EMU_FIBER_STACK = 128 * 1024 };

#endif
