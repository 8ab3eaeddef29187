/* Fiber stacks and the context switch (fiber.h). x86-64 System V only, as TinyCC's
 * code generator here is. */
#include "fiber.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(__x86_64__)
#error "the emulator's fibers are written for x86-64"
#endif

/* The switch pushes the six callee-saved registers, stores the stack pointer, loads the
 * other one and pops its registers; `ret` resumes where that context switched away.
 * A new fiber's stack is laid out by lat__emu_fiber_init so that the first `ret` lands
 * in fiber_start with fn in r13 and arg in r12. */
__asm__(".text\n"
        ".p2align 4\n"
        ".globl lat__emu_fiber_switch\n"
        ".hidden lat__emu_fiber_switch\n"
        ".type lat__emu_fiber_switch, @function\n"
        "lat__emu_fiber_switch:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size lat__emu_fiber_switch, .-lat__emu_fiber_switch\n"
        ".p2align 4\n"
        ".globl lat__emu_fiber_start\n"
        ".hidden lat__emu_fiber_start\n"
        ".type lat__emu_fiber_start, @function\n"
        "lat__emu_fiber_start:\n"
        "    movq %r12, %rdi\n"
        "    callq *%r13\n"
        "    ud2\n"
        ".size lat__emu_fiber_start, .-lat__emu_fiber_start\n");

__attribute__((visibility("hidden"))) void lat__emu_fiber_start(void);

void *lat__emu_fiber_init(char *top, void (*fn)(void *), void *arg)
{
    /* After the six pops and the ret, rsp must be 16-byte aligned for the call in
     * fiber_start: the frame starts 72 bytes under an aligned top. */
    uintptr_t t = (uintptr_t)top & ~(uintptr_t)15;
    uintptr_t *sp = (uintptr_t *)(t - 72);
    void (*start)(void) = lat__emu_fiber_start;
    uintptr_t fn_bits, start_bits;
    memcpy(&fn_bits, &fn, sizeof fn_bits);
    memcpy(&start_bits, &start, sizeof start_bits);
    sp[0] = 0;                /* r15 */
    sp[1] = 0;                /* r14 */
    sp[2] = fn_bits;          /* r13 */
    sp[3] = (uintptr_t)arg;   /* r12 */
    sp[4] = 0;                /* rbx */
    sp[5] = 0;                /* rbp: the end of the frame chain for debuggers */
    sp[6] = start_bits;       /* return address */
    return sp;
}

bool lat__emu_stacks_reserve(lat__emu_stacks *s, int n)
{
    if (s->count >= n)
        return true;
    lat__emu_stacks_free(s);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t size = (LAT_EMU_FIBER_STACK + page - 1) / page * page;
    size_t stride = size + page;
    size_t bytes = stride * (size_t)n;
    char *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED)
        return false;
    /* A guard page under each stack: an overflow faults instead of overwriting the next
     * thread's frames. */
    for (int i = 0; i < n; i++)
        if (mprotect(map + (size_t)i * stride, page, PROT_NONE) != 0) {
            munmap(map, bytes);
            return false;
        }
    unsigned *ids = malloc((size_t)n * sizeof *ids);
    if (!ids) {
        munmap(map, bytes);
        return false;
    }
    *s = (lat__emu_stacks){.map = map, .map_size = bytes, .size = size, .stride = stride,
                           .count = n, .valgrind_ids = ids};
    for (int i = 0; i < n; i++) {
        char *lo = lat__emu_stack_lo(s, i);
        ids[i] = LAT_STACK_REGISTER(lo, lo + size);
    }
    return true;
}

char *lat__emu_stack_lo(const lat__emu_stacks *s, int i)
{
    return s->map + (size_t)i * s->stride + (s->stride - s->size);
}

void lat__emu_stacks_free(lat__emu_stacks *s)
{
    if (s->valgrind_ids)
        for (int i = 0; i < s->count; i++)
            LAT_STACK_DEREGISTER(s->valgrind_ids[i]);
    free(s->valgrind_ids);
    if (s->map) {
        /* Fibers that never returned leave their frames' poison behind; the next mapping
         * of these addresses (a shadow, a buffer) must not inherit it. */
        lat__emu_fiber_unpoison(s->map, s->map_size);
        munmap(s->map, s->map_size);
    }
    memset(s, 0, sizeof *s);
}
