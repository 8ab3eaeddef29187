/*
 * What keeps a buggy kernel from taking the host program down (guard.c): a fault in
 * kernel code (SIGSEGV, SIGBUS, SIGFPE) and a launch past its deadline (the watchdog)
 * both end the launch with LAT_ERROR_LAUNCH_FAILED through the worker's trap, as a
 * failed assert does, naming the kernel, the block and the thread. A launch that
 * lat_interrupt() interrupts ends the same way, with LAT_ERROR_INTERRUPTED.
 *
 * Nothing runs in kernel code for this: the handlers are process-wide and installed
 * once; a launch writes its deadline to a word of its host thread's slot, and a worker
 * the launch it works on; one watchdog thread sleeps until the earliest deadline.
 */
#ifndef LAT_EMU_GUARD_H
#define LAT_EMU_GUARD_H

#include "core.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The signal the watchdog interrupts a worker with: SIGRTMIN + this. glibc keeps the
 * two real-time signals below SIGRTMIN for itself; libgomp, ASan and valgrind use none
 * of the others. */
enum { LAT_EMU_GUARD_RT = 7 };

/* The default deadline of a launch, in ms (LATTICE_EMU_TIMEOUT says it in seconds). */
#define LAT_EMU_TIMEOUT_DEFAULT_MS 60000

/* One per OS thread that runs blocks, kept in the thread's cache (grid.c). */
typedef struct lat__emu_gslot {
    pthread_t thread;
    struct lat__emu_gslot *prev, *next; /* the watchdog's list, under its lock */
    /* As the host of launches: (generation << 1) | 1 while one runs, (generation << 1)
     * after it; its timeout (0: none) and lat__interrupt_count() when its call began.
     * Written by the owner only. */
    _Atomic uint64_t run;
    _Atomic uint64_t timeout_ms;
    _Atomic uint64_t interrupts;
    uint64_t gen;
    /* (generation << 1) | why for the launch the watchdog stopped: why is 1 when it was
     * interrupted, 0 when it ran past its deadline. */
    _Atomic uint64_t expired;
    /* As a worker: the host of the launch it works on, NULL between launches. */
    _Atomic(struct lat__emu_gslot *) work_host;
    /* The watchdog's own: the generation it saw running last, and when it first did. */
    uint64_t seen_gen, seen_at;
    /* The alternate signal stack this file gave the thread, if it had none: the mapping
     * and its size. */
    char *altstack;
    size_t altstack_map;
} lat__emu_gslot;

/* Parses LATTICE_EMU_TIMEOUT's value, seconds (0 for none; NULL or "" is the default),
 * into ms (at least 1 when not 0). false when it is not a number of seconds from 0 to
 * 10^9. */
bool lat__emu_guard_parse_timeout(const char *text, uint64_t *ms);

/* Installs the fault handlers, once per process (thread-safe; later calls cost a load). */
void lat__emu_guard_install(void);

/* Installs the handlers (once per process), registers the calling thread's slot with the
 * watchdog and gives the thread an alternate signal stack when it has none (so an
 * overflowing stack is reported too). fini undoes the last two, on the same thread (the
 * cache's destructor). Called before the thread runs its first block. */
void lat__emu_guard_thread_init(lat__emu_gslot *s);
void lat__emu_guard_thread_fini(lat__emu_gslot *s);

/* The host thread starts a launch with a deadline timeout_ms from now (0: none): it is
 * stopped between timeout_ms and 1.25 timeout_ms, or within RETRY_MS of an interrupt
 * when lat__interrupt_count() differs from `interrupts`, the count its call began with.
 * Returns its generation, or 0 when the watchdog thread cannot be started. end ends it. */
uint64_t lat__emu_guard_begin(lat__emu_gslot *host, uint64_t timeout_ms, uint64_t interrupts);
void lat__emu_guard_end(lat__emu_gslot *host);

/* Whether the launch of host's generation gen is to stop: past its deadline, or
 * interrupted. */
static inline bool lat__emu_guard_expired(const lat__emu_gslot *host, uint64_t gen)
{
    return gen && atomic_load_explicit(&host->expired, memory_order_relaxed) >> 1 == gen;
}

/* lat__backend.interrupt: wakes the watchdog, which stops the launches begun before the
 * latest lat_interrupt(). Async-signal-safe. */
void lat__emu_guard_interrupt(void);

/* Words where addr lies relative to the nearest device allocation when it is in a guard
 * of device memory, into buf; false otherwise. Safe in a signal handler. The device
 * memory's allocator (a layer above, backend/memory.c) sets it before its first
 * allocation, so that a fault's report can name the allocation; NULL until then. */
typedef bool (*lat__emu_guard_describe_fn)(uintptr_t addr, char *buf, size_t size);
extern _Atomic(lat__emu_guard_describe_fn) lat__emu_guard_describe;

struct lat__emu_worker;
struct lat__emu_launch;
/* Records why w's expired launch stops (it did not finish in time, or was interrupted),
 * naming w's current thread. */
void lat__emu_guard_fail_stop(struct lat__emu_worker *w);
/* The same, recorded by a thread between blocks (no thread to name). */
void lat__emu_guard_fail_between(struct lat__emu_launch *l);
/* A place in the runtime kernel code calls where the thread may be stopped (no lock
 * held): leaves through the trap when the launch is to stop. For runtime functions a
 * spin may spend most of its time in (printf). */
void lat__emu_guard_safe_point(struct lat__emu_worker *w);

#endif
