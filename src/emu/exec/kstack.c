/*
 * The stack unobserved plain and region-loop kernels run on (worker.h): a mapping of its
 * own per OS thread, with inaccessible pages above and below, instead of the worker
 * thread's stack. A local array written past its end then overwrites the kernel's own
 * frames and faults at the page above them at worst; it can never reach the worker's
 * state (its jump buffer, its block loop, libgomp's frames), so the fault fails the
 * launch as any other does. A run of blocks costs two stack switches more (about 10 ns
 * each; bench/launch measures it).
 */
#include "worker.h"

#include "fiber.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum {
    /* Usable bytes: as much as a thread's default stack, touched only as used. */
    KSTACK_SIZE = 8 << 20,
    /* Inaccessible address space under the stack, so that a large frame (TinyCC's code
     * does not probe its stack) of a deep recursion still lands in it. */
    KSTACK_GUARD_LO = 1 << 20,
    /* and above: a write past a local array of the outermost frame faults here. */
    KSTACK_GUARD_HI = 64 << 10,
};

bool lat__exec_kstack_map(lat__exec_kstack *s)
{
    if (s->map)
        return true;
    size_t bytes = (size_t)KSTACK_GUARD_LO + KSTACK_SIZE + KSTACK_GUARD_HI;
    char *map = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED)
        return false;
    char *lo = map + KSTACK_GUARD_LO;
    if (mprotect(lo, KSTACK_SIZE, PROT_READ | PROT_WRITE) != 0) {
        munmap(map, bytes);
        return false;
    }
    s->map = map;
    s->map_size = bytes;
    s->lo = lo;
    s->size = KSTACK_SIZE;
    s->valgrind_id = LAT_STACK_REGISTER(lo, lo + KSTACK_SIZE);
    return true;
}

void lat__exec_kstack_unmap(lat__exec_kstack *s)
{
    if (!s->map)
        return;
    LAT_STACK_DEREGISTER(s->valgrind_id);
    lat__emu_fiber_unpoison(s->lo, s->size);
    munmap(s->map, s->map_size);
    memset(s, 0, sizeof *s);
}

bool lat__exec_kstack_guard_hit(const lat__exec_kstack *s, const void *addr)
{
    uintptr_t a = (uintptr_t)addr, lo = (uintptr_t)s->map;
    if (!s->map || a < lo || a - lo >= s->map_size)
        return false;
    return a < (uintptr_t)s->lo || a >= (uintptr_t)s->lo + s->size;
}

static void kstack_main(void *arg)
{
    lat__emu_worker *w = arg;
    lat__exec_kstack *s = w->kstack;
    const void *lo = NULL;
    size_t size = 0;
    lat__emu_fiber_started(&lo, &size);
    s->host_lo = lo;
    s->host_size = size;
    s->run(s->arg);
    void *dead;
    lat__emu_fiber_go(&dead, NULL, s->host_sp, s->host_lo, s->host_size);
    __builtin_unreachable();
}

void lat__exec_kstack_run(lat__emu_worker *w, void (*run)(void *), void *arg)
{
    lat__exec_kstack *s = w->kstack;
    s->run = run;
    s->arg = arg;
    s->failed = false;
    /* Frames of a kernel that was left through a fault keep their poison (ASan). */
    lat__emu_fiber_unpoison(s->lo, s->size);
    void *sp = lat__emu_fiber_init(s->lo + s->size, kstack_main, w);
    w->on_fiber = LAT__EXEC_ON_KSTACK;
    lat__emu_fiber_go(&s->host_sp, &s->host_fake, sp, s->lo, s->size);
    w->on_fiber = LAT__EXEC_ON_HOST;
    if (s->failed)
        siglongjmp(w->trap, 1);
}

_Noreturn void lat__exec_kstack_abandon(lat__emu_worker *w)
{
    lat__exec_kstack *s = w->kstack;
    s->failed = true;
    void *dead;
    lat__emu_fiber_go(&dead, NULL, s->host_sp, s->host_lo, s->host_size);
    __builtin_unreachable();
}

bool lat__exec_guard_hit(const lat__emu_worker *w, const void *addr)
{
    const lat__exec_block *b = w->fb;
    if (!b || !b->stacks.map)
        return false;
    uintptr_t a = (uintptr_t)addr, lo = (uintptr_t)b->stacks.map;
    if (a < lo || a - lo >= b->stacks.map_size)
        return false;
    return (a - lo) % b->stacks.stride < b->stacks.stride - b->stacks.size;
}
