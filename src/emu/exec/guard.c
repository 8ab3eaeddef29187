/*
 * Faults and hangs in kernels (guard.h), checked or not; an observed launch has no deadline
 * here (its schedule has its own watchdog, turns.c).
 *
 * Faults: one handler for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGTRAP, installed at the first launch. A
 * fault is the kernel's when the faulting thread is a worker inside a block (the
 * worker's in_block) and the signal came from the processor, not from kill(); the handler records the
 * failure and leaves through the worker's trap, as a trap does.
 * Any other fault goes on to the handler installed before ours (the program's, ASan's,
 * or the default action), so the program's own crashes crash as they did.
 *
 * Hangs: a launch stores a new generation, its timeout and the interrupt count its call
 * began with in its host thread's slot, and each of its workers the host's slot in its
 * own; the watchdog thread looks at the slots from time to time (see "the watchdog"
 * below). A launch it has seen running for its whole timeout, or one begun before the
 * latest lat_interrupt() (which wakes it), it marks expired and sends SIGRTMIN +
 * LAT_EMU_GUARD_RT to each worker of the launch; a worker interrupted in the kernel's own
 * code (its module's code range) leaves through its trap. One interrupted anywhere else
 * (printf, malloc, an atomic, a barrier: locks may be held) goes on, and the watchdog
 * tries again RETRY_MS later, until the launch has ended; printf also stops an expired
 * launch on entry, and the executor between blocks and at an observed block's turns.
 *
 * The handlers run on an alternate signal stack, so that a thread whose stack overflowed
 * (a fiber's, above its guard page) can still be reported.
 */
#define _GNU_SOURCE /* REG_RIP, pthread_setname_np */
#include "guard.h"

#include "worker.h"

#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/membarrier.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

enum {
    RETRY_MS = 10,         /* between interruptions of a launch past its deadline */
    ALT_STACK = 256 << 10, /* the handler, and a chained one (ASan's prints traces) */
    /* Inaccessible address space on each side of a signal stack. Valgrind takes a jump
     * of the stack pointer of more than 2 MiB (--max-stackframe) for a switch of stacks,
     * and a shorter one for frames pushed or popped, whose memory it marks: the jump
     * from a handler back to a worker's stack would mark the worker's live frames
     * undefined, or another thread's signal stack unaddressable. (Registering the
     * signal stack with valgrind does not do: a stack pointer update inside the handler
     * is then taken for a switch, its frames left unaddressable.) */
    ALT_PAD = 4 << 20,
};

/* Every signal kernel code can raise: a jump through a smashed return address lands on
 * anything, an illegal instruction or a breakpoint as well as a bad address. */
static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP};
enum { NFAULT = sizeof fault_signals / sizeof fault_signals[0] };
/* What each fault signal and the watchdog's signal did before ours. */
static struct sigaction old_action[NFAULT + 1];
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

_Atomic(lat__emu_guard_describe_fn) lat__emu_guard_describe;

static int watch_signal(void)
{
    return SIGRTMIN + LAT_EMU_GUARD_RT;
}

/* ---- the timeout's value -------------------------------------------------------------------- */

bool lat__emu_guard_parse_timeout(const char *text, uint64_t *ms)
{
    if (!text || !*text) {
        *ms = LAT_EMU_TIMEOUT_DEFAULT_MS;
        return true;
    }
    char *end;
    errno = 0;
    double t = strtod(text, &end);
    if (end == text || *end || errno || !(t >= 0) || t > 1e9)
        return false;
    *ms = t == 0 ? 0 : t < 0.001 ? 1 : (uint64_t)(t * 1000.0 + 0.5);
    return true;
}

/* ---- the interrupted context ---------------------------------------------------------------- */

/* The interrupted context's program counter (pc) or stack pointer (0: not known here). */
static uintptr_t reg_of(const void *ucv, bool pc)
{
    const ucontext_t *uc = ucv;
#if defined(__x86_64__)
    return (uintptr_t)uc->uc_mcontext.gregs[pc ? REG_RIP : REG_RSP];
#elif defined(__aarch64__)
    return pc ? (uintptr_t)uc->uc_mcontext.pc : (uintptr_t)uc->uc_mcontext.sp;
#else
    (void)uc;
    (void)pc;
    return 0;
#endif
}

static uintptr_t pc_of(const void *uc)
{
    return reg_of(uc, true);
}

static uintptr_t sp_of(const void *uc)
{
    return reg_of(uc, false);
}

/* Whether pc is in the code TinyCC compiled for the kernel's module. */
static bool in_kernel_code(const lat__emu_kernel *k, uintptr_t pc)
{
    uintptr_t lo = (uintptr_t)k->code;
    return lo && pc >= lo && pc - lo < k->code_size;
}

/* ---- leaving through the trap ------------------------------------------------------------------ */

/* From a handler, on the worker's thread: the signal was blocked on entry and the trap's
 * jump buffer does not restore the mask (a system call per block otherwise). */
static void unblock(int sig)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

_Noreturn static void leave(lat__emu_worker *w, int sig)
{
    unblock(sig);
    if (w->on_fiber)
        lat__exec_abandon(w); /* back on the worker's stack, which jumps to the trap */
    siglongjmp(w->trap, 1);
}

static void where(const lat__emu_worker *w, unsigned b[3], unsigned t[3])
{
    const lat__emu_thread *c = w->cur;
    b[0] = c->block_idx.x, b[1] = c->block_idx.y, b[2] = c->block_idx.z;
    t[0] = c->thread_idx.x, t[1] = c->thread_idx.y, t[2] = c->thread_idx.z;
}

/* Whether l was stopped by lat_interrupt() rather than by its deadline. */
static bool interrupted(const lat__emu_launch *l)
{
    return atomic_load(&l->host->expired) & 1;
}

void lat__emu_guard_fail_stop(lat__emu_worker *w)
{
    unsigned b[3], t[3];
    where(w, b, t);
    const lat__emu_launch *l = w->launch;
    if (interrupted(l))
        lat__emu_fail(w, LAT_ERROR_INTERRUPTED,
                      "kernel '%s' was interrupted (lat_interrupt(): Ctrl-C?) while block "
                      "(%u,%u,%u), thread (%u,%u,%u) was running; the blocks not yet run were "
                      "skipped", l->kernel->name, b[0], b[1], b[2], t[0], t[1], t[2]);
    else
        lat__emu_fail(w, LAT_ERROR_LAUNCH_FAILED,
                      "kernel '%s' did not finish within %g s (LATTICE_EMU_TIMEOUT): block "
                      "(%u,%u,%u), thread (%u,%u,%u) was still running (a spin on a flag no "
                      "thread sets? LATTICE_CHECK=synccheck names the line)",
                      l->kernel->name, (double)l->timeout_ms / 1000.0, b[0], b[1], b[2], t[0],
                      t[1], t[2]);
}

static void fail_launch(lat__emu_launch *l, lat_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail_launch(lat__emu_launch *l, lat_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lat__exec_launch_vfail(l, status, fmt, ap);
    va_end(ap);
}

void lat__emu_guard_fail_between(lat__emu_launch *l)
{
    if (interrupted(l))
        fail_launch(l, LAT_ERROR_INTERRUPTED,
                    "kernel '%s' was interrupted (lat_interrupt(): Ctrl-C?) between blocks; "
                    "the blocks not yet run were skipped", l->kernel->name);
    else
        fail_launch(l, LAT_ERROR_LAUNCH_FAILED,
                    "kernel '%s' did not finish within %g s (LATTICE_EMU_TIMEOUT): its grid "
                    "has %llu blocks, too many to run in that time", l->kernel->name,
                    (double)l->timeout_ms / 1000.0, (unsigned long long)l->grid_blocks);
}

void lat__emu_guard_safe_point(lat__emu_worker *w)
{
    if (!w || !w->in_block || !lat__emu_guard_expired(w->launch->host, w->launch->gen))
        return;
    w->in_block = false;
    lat__emu_guard_fail_stop(w);
    if (w->on_fiber)
        lat__exec_abandon(w);
    siglongjmp(w->trap, 1);
}

/* ---- chaining ----------------------------------------------------------------------------------- */

static struct sigaction *old_of(int sig)
{
    for (int i = 0; i < NFAULT; i++)
        if (fault_signals[i] == sig)
            return &old_action[i];
    return &old_action[NFAULT];
}

/* Hands a signal that is not the emulator's to whoever had it before. */
static void chain(int sig, siginfo_t *info, void *uc)
{
    const struct sigaction *o = old_of(sig);
    if (o->sa_flags & SA_SIGINFO) {
        if (o->sa_sigaction) {
            o->sa_sigaction(sig, info, uc);
            return;
        }
    } else if (o->sa_handler == SIG_IGN) {
        /* A fault from the processor cannot be ignored: it would recur for ever. */
        if (info->si_code <= 0 || sig == watch_signal())
            return;
    } else if (o->sa_handler != SIG_DFL) {
        o->sa_handler(sig);
        return;
    }
    /* The default action: restore it; a fault recurs when the handler returns, a signal
     * from kill() is sent again and arrives then. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    if (info->si_code <= 0)
        raise(sig);
}

/* ---- the handler -------------------------------------------------------------------------------- */

/* w: the worker whose block faulted. An observed launch's (the checks') gets no advice
 * to turn memcheck on. */
static void describe_fault(const lat__emu_worker *w, int sig, const siginfo_t *info,
                           uintptr_t sp, char *what, size_t size)
{
    unsigned long addr = (unsigned long)(uintptr_t)info->si_addr;
    if (sig == SIGFPE) {
        if (info->si_code == FPE_INTDIV || info->si_code == FPE_INTOVF)
            snprintf(what, size, "integer division by zero (or of the most negative value by "
                                 "-1)");
        else
            snprintf(what, size, "floating-point exception (SIGFPE, code %d)", info->si_code);
        return;
    }
    /* Above the kernel stack's top: only a write past a local array gets there. */
    if (w->kstack && w->kstack->map && lat__exec_kstack_guard_hit(w->kstack, info->si_addr) &&
        (uintptr_t)info->si_addr >= (uintptr_t)w->kstack->lo + w->kstack->size) {
        snprintf(what, size, "write past the top of the kernel's stack at address 0x%lx (a "
                 "local array written past its end?%s)", addr,
                 !w->obs ? " LATTICE_CHECK=memcheck names the line" : "");
        return;
    }
    /* A fiber's guard page, or just below the thread's stack pointer: the stack. */
    if (lat__exec_guard_hit(w, info->si_addr) ||
        (w->kstack && lat__exec_kstack_guard_hit(w->kstack, info->si_addr)) ||
        (sp && addr + 4096 >= sp && addr < sp + (64u << 10))) {
        char stacks[64];
        snprintf(stacks, sizeof stacks, " a fiber kernel's threads have %d KiB stacks",
                 LAT_EMU_FIBER_STACK / 1024);
        snprintf(what, size, "stack overflow at address 0x%lx (a deep or endless recursion, "
                             "or large local arrays?%s)", addr, stacks);
        return;
    }
    if (sig == SIGILL || sig == SIGTRAP) {
        char at[40] = "";
        if (addr) /* a breakpoint trap gives no address */
            snprintf(at, sizeof at, " at address 0x%lx", addr);
        snprintf(what, size, "%s%s (a jump to data: a return address overwritten by a "
                 "write past a local array?%s)",
                 sig == SIGILL ? "illegal instruction" : "breakpoint trap", at,
                 !w->obs ? " LATTICE_CHECK=memcheck names the line" : "");
        return;
    }
    /* Device memory's guards (memory.c), or a module's (compile.c): say which allocation
     * or module the access ran out of. */
    char near[256];
    lat__emu_guard_describe_fn describe = atomic_load(&lat__emu_guard_describe);
    if (describe && describe((uintptr_t)info->si_addr, near, sizeof near)) {
        snprintf(what, size, "out-of-bounds access at address 0x%lx, %s%s", addr, near,
                 !w->obs ? " (LATTICE_CHECK=memcheck names the line and the element)" : "");
        return;
    }
    snprintf(what, size, "%s at address 0x%lx%s", sig == SIGBUS ? "bus error"
             : "segmentation fault", addr, !w->obs ? " (a wild or out-of-bounds access; "
             "LATTICE_CHECK=memcheck names the line and the element)" : "");
}

_Noreturn static void kernel_fault(lat__emu_worker *w, int sig, const siginfo_t *info, void *uc)
{
    char what[400];
    describe_fault(w, sig, info, sp_of(uc), what, sizeof what);
    unsigned b[3], t[3];
    where(w, b, t);
    const lat__emu_kernel *k = w->launch->kernel;
    lat__emu_fail(w, LAT_ERROR_LAUNCH_FAILED,
                  "kernel '%s' crashed in block (%u,%u,%u), thread (%u,%u,%u)%s%s: %s", k->name,
                  b[0], b[1], b[2], t[0], t[1], t[2],
                  k->inexact_threads ? " or a thread of its block near it (optimised code: "
                                       "LATTICE_EMU_OPT=off or LATTICE_CHECK=memcheck names "
                                       "the thread exactly)"
                                     : "",
                  in_kernel_code(k, pc_of(uc)) ? ""
                                               : " in a library function it called",
                  what);
    leave(w, sig);
}

/* The watchdog's signal: true when it was ours (acted on or stale). */
static bool timeout_signal(lat__emu_worker *w, int sig, const siginfo_t *info, void *uc)
{
    if (info->si_code != SI_TKILL || info->si_pid != getpid()) {
        /* Someone else's: theirs to handle, or dropped when nobody handles it. */
        const struct sigaction *o = old_of(sig);
        return !(o->sa_flags & SA_SIGINFO) &&
               (o->sa_handler == SIG_DFL || o->sa_handler == SIG_IGN);
    }
    if (!w || !w->in_block)
        return true; /* between blocks, or after the launch: stale */
    const lat__emu_launch *l = w->launch;
    if (!lat__emu_guard_expired(l->host, l->gen) || !in_kernel_code(l->kernel, pc_of(uc)))
        return true; /* not expired, or not safe to leave here: the watchdog retries */
    w->in_block = false;
    lat__emu_guard_fail_stop(w);
    leave(w, sig);
}

static void on_signal(int sig, siginfo_t *info, void *uc)
{
    int saved = errno;
    lat__emu_worker *w = lat__emu_current_worker();
    if (sig == watch_signal()) {
        if (!timeout_signal(w, sig, info, uc))
            chain(sig, info, uc);
    } else if (w && w->in_block && info->si_code > 0) {
        /* Nothing else may leave the block now: the watchdog's signal finds it done. */
        w->in_block = false;
        kernel_fault(w, sig, info, uc);
    } else {
        chain(sig, info, uc);
    }
    errno = saved;
}

static void fork_prepare(void);
static void fork_parent(void);
static void fork_child(void);

static void install(void)
{
    pthread_atfork(fork_prepare, fork_parent, fork_child);
    int sigs[NFAULT + 1];
    for (int i = 0; i < NFAULT; i++)
        sigs[i] = fault_signals[i];
    sigs[NFAULT] = watch_signal();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NFAULT + 1; i++) {
        /* The old action first, so that a fault on another thread meanwhile finds it. */
        sigaction(sigs[i], NULL, &old_action[i]);
        sigaction(sigs[i], &sa, NULL);
    }
}

void lat__emu_guard_install(void)
{
    pthread_once(&install_once, install);
}

/* ---- the watchdog ------------------------------------------------------------------------------- */

/* The watchdog looks at the slots every eighth of the shortest timeout among the running
 * launches: a launch it sees running under the same generation for a whole timeout is
 * past its deadline. So a launch is stopped between timeout_s and 1.25 timeout_s after
 * it began, and a launch reads no clock. With no launch since its last look, it sleeps
 * until one wakes it; lat_interrupt() wakes it too. It sleeps on a semaphore, not a
 * condition variable: sem_post is the one wake-up a signal handler may make. */
enum { TICKS_PER_TIMEOUT = 8 };

static struct {
    pthread_mutex_t lock; /* the slots; the watchdog holds it except while it sleeps */
    sem_t wake;
    lat__emu_gslot *slots;
    atomic_bool started;
    bool failed;
    /* How long the watchdog sleeps between looks (ms): 0 while it looks, UINT64_MAX while
     * it sleeps until woken. A launch whose timeout needs closer looks wakes it. */
    _Atomic uint64_t tick;
    uint64_t last_tick;
    uint64_t interrupts; /* lat__interrupt_count() at the last look */
    /* membarrier() works: the watchdog's side of the fence is a barrier on every thread
     * of the process, so a launch's side costs nothing. */
    atomic_bool heavy;
} wd = {.lock = PTHREAD_MUTEX_INITIALIZER, .tick = UINT64_MAX};

/* A full fence on every thread of the process that runs now (membarrier), else on this
 * one (the launches then fence themselves). */
static void heavy_fence(void)
{
#ifdef SYS_membarrier
    if (atomic_load_explicit(&wd.heavy, memory_order_relaxed) &&
        syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
        return;
#endif
    atomic_thread_fence(memory_order_seq_cst);
}

/* Lets heavy_fence use membarrier(): before the first launch reads wd.heavy. */
static void register_heavy(void)
{
#ifdef SYS_membarrier
    long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
        syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0)
        atomic_store(&wd.heavy, true);
#endif
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static uint64_t tick_of(uint64_t timeout_ms)
{
    uint64_t t = timeout_ms / TICKS_PER_TIMEOUT;
    return t ? t : 1;
}

/* Interrupts the workers of a launch to stop (why: 1 interrupted, 0 past its deadline);
 * the first reason found stays. */
static void expire(lat__emu_gslot *s, uint64_t gen, uint64_t why)
{
    if (atomic_load(&s->expired) >> 1 != gen)
        atomic_store(&s->expired, gen << 1 | why);
    for (lat__emu_gslot *t = wd.slots; t; t = t->next)
        if (atomic_load_explicit(&t->work_host, memory_order_relaxed) == s)
            pthread_kill(t->thread, watch_signal());
}

/* One look at every slot: returns how long to sleep (UINT64_MAX: until woken). A launch
 * without a deadline needs no looks until an interrupt. */
static uint64_t look(uint64_t now, uint64_t interrupts)
{
    bool active = false;
    uint64_t tick = UINT64_MAX;
    for (lat__emu_gslot *s = wd.slots; s; s = s->next) {
        uint64_t run = atomic_load(&s->run), gen = run >> 1;
        uint64_t timeout = atomic_load_explicit(&s->timeout_ms, memory_order_relaxed);
        if (gen != s->seen_gen) {
            active = active || timeout;
            s->seen_gen = gen;
            s->seen_at = now;
        }
        if (!(run & 1))
            continue;
        uint64_t t = UINT64_MAX;
        if (atomic_load_explicit(&s->interrupts, memory_order_relaxed) != interrupts) {
            expire(s, gen, 1);
            t = RETRY_MS; /* until the launch has ended */
        } else if (timeout) {
            t = tick_of(timeout);
            if (now - s->seen_at >= timeout) {
                expire(s, gen, 0);
                t = RETRY_MS;
            }
        }
        active = active || t != UINT64_MAX;
        tick = t < tick ? t : tick;
    }
    if (!active)
        return UINT64_MAX;
    /* Launches come and go between looks: keep looking at the last pace. */
    if (tick == UINT64_MAX)
        tick = wd.last_tick ? wd.last_tick : RETRY_MS;
    else if (tick != RETRY_MS)
        wd.last_tick = tick;
    return tick;
}

/* Whether a launch began since the last look that needs a closer look than `tick`. */
static bool missed(uint64_t tick)
{
    for (lat__emu_gslot *s = wd.slots; s; s = s->next) {
        uint64_t run = atomic_load(&s->run);
        uint64_t timeout = atomic_load_explicit(&s->timeout_ms, memory_order_relaxed);
        if ((run & 1) && run >> 1 != s->seen_gen && timeout && tick_of(timeout) < tick)
            return true;
    }
    return false;
}

/* Sleeps until woken, or until `at` (now_ms()'s clock; UINT64_MAX: no limit), the lock
 * released. */
static void sleep_until(uint64_t at)
{
    pthread_mutex_unlock(&wd.lock);
    if (at == UINT64_MAX) {
        while (sem_wait(&wd.wake) != 0 && errno == EINTR)
            ;
    } else {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 30)
        struct timespec ts = {.tv_sec = (time_t)(at / 1000), .tv_nsec = (long)(at % 1000) * 1000000};
        while (sem_clockwait(&wd.wake, CLOCK_MONOTONIC, &ts) != 0 && errno == EINTR)
            ;
#else
        /* No wait on the monotonic clock: the real-time one, which only a clock set
         * meanwhile makes sleep longer or shorter. */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t ms = at > now_ms() ? at - now_ms() : 0;
        ts.tv_sec += (time_t)(ms / 1000);
        ts.tv_nsec += (long)(ms % 1000) * 1000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        while (sem_timedwait(&wd.wake, &ts) != 0 && errno == EINTR)
            ;
#endif
    }
    /* Every wake-up posted meanwhile: one look serves them all. */
    while (sem_trywait(&wd.wake) == 0)
        ;
    pthread_mutex_lock(&wd.lock);
}

static void *watch(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&wd.lock);
    for (;;) {
        atomic_store(&wd.tick, 0);
        /* An interrupt: a launch whose call began before it may not have shown its slot
         * yet; the fence makes it visible, or makes the launch see the new count itself
         * (lat__emu_guard_begin). */
        uint64_t interrupts = lat__interrupt_count();
        if (interrupts != wd.interrupts) {
            heavy_fence();
            wd.interrupts = interrupts;
        }
        uint64_t now = now_ms(), tick = look(now, interrupts);
        atomic_store(&wd.tick, tick);
        /* A launch that began while tick was 0 did not wake us: both sides store, then
         * load what the other stores, with a full fence between on one side at least, so
         * one of them sees the other. */
        heavy_fence();
        if (missed(tick))
            continue;
        sleep_until(tick == UINT64_MAX ? UINT64_MAX : now + tick);
    }
    return NULL;
}

/* Starts the watchdog thread; false when it cannot be. */
static bool start(void)
{
    if (atomic_load_explicit(&wd.started, memory_order_acquire))
        return true;
    pthread_mutex_lock(&wd.lock);
    bool ok = atomic_load(&wd.started);
    if (!ok && !wd.failed) {
        register_heavy();
        wd.interrupts = lat__interrupt_count();
        bool sem = sem_init(&wd.wake, 0, 0) == 0;
        pthread_attr_t ta;
        if (sem && pthread_attr_init(&ta) == 0) {
            pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
            /* Every signal blocked: none meant for the program's threads lands here. */
            sigset_t all, mask;
            sigfillset(&all);
            pthread_sigmask(SIG_SETMASK, &all, &mask);
            pthread_t th;
            ok = pthread_create(&th, &ta, watch, NULL) == 0;
            pthread_sigmask(SIG_SETMASK, &mask, NULL);
            pthread_attr_destroy(&ta);
            if (ok)
                pthread_setname_np(th, "lattice-watch");
        }
        if (sem && !ok)
            sem_destroy(&wd.wake);
        wd.failed = !ok;
        atomic_store_explicit(&wd.started, ok, memory_order_release);
    }
    pthread_mutex_unlock(&wd.lock);
    return ok;
}

/* A child of fork() has only the thread that forked: no watchdog, and no other thread
 * to interrupt (their slots are dropped, not freed: their memory is theirs). The next
 * launch with a deadline starts a watchdog again. membarrier()'s registration is the
 * parent's address space's. */
static void fork_prepare(void)
{
    pthread_mutex_lock(&wd.lock);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&wd.lock);
}

static void fork_child(void)
{
    lat__emu_gslot *self = NULL;
    for (lat__emu_gslot *s = wd.slots; s; s = s->next)
        if (pthread_equal(s->thread, pthread_self()))
            self = s;
    if (self)
        self->prev = self->next = NULL;
    wd.slots = self;
    atomic_store(&wd.started, false);
    atomic_store(&wd.heavy, false);
    atomic_store(&wd.tick, UINT64_MAX);
    wd.failed = false;
    wd.last_tick = 0;
    pthread_mutex_unlock(&wd.lock);
}

uint64_t lat__emu_guard_begin(lat__emu_gslot *host, uint64_t timeout_ms, uint64_t interrupts)
{
    if (!atomic_load_explicit(&wd.started, memory_order_acquire) && !start())
        return 0;
    if (atomic_load_explicit(&host->timeout_ms, memory_order_relaxed) != timeout_ms)
        atomic_store_explicit(&host->timeout_ms, timeout_ms, memory_order_relaxed);
    atomic_store_explicit(&host->interrupts, interrupts, memory_order_relaxed);
    uint64_t gen = ++host->gen; /* 2^64 launches do not happen: never 0 */
    /* Store, then load the watchdog's tick: the watchdog stores its tick, then loads every
     * slot's run. The store-load order needs a full fence on one side at least: the
     * watchdog's membarrier() when the kernel has it, else this seq_cst store. */
    if (atomic_load_explicit(&wd.heavy, memory_order_relaxed)) {
        atomic_store_explicit(&host->run, gen << 1 | 1, memory_order_relaxed);
        atomic_signal_fence(memory_order_seq_cst);
    } else {
        atomic_store(&host->run, gen << 1 | 1);
    }
    /* The same fence pairs this load with the watchdog's look after an interrupt: an
     * interrupt it may not have seen the slot of, the launch sees here. */
    if (lat__interrupt_count() != interrupts)
        atomic_store(&host->expired, gen << 1 | 1);
    if (timeout_ms && tick_of(timeout_ms) < atomic_load(&wd.tick))
        sem_post(&wd.wake);
    return gen;
}

void lat__emu_guard_interrupt(void)
{
    /* Before the watchdog started no launch needs it: each sees the count itself. */
    if (atomic_load_explicit(&wd.started, memory_order_acquire))
        sem_post(&wd.wake);
}

void lat__emu_guard_end(lat__emu_gslot *host)
{
    atomic_store_explicit(&host->run, host->gen << 1, memory_order_release);
}

/* ---- per thread --------------------------------------------------------------------------------- */

void lat__emu_guard_thread_init(lat__emu_gslot *s)
{
    s->thread = pthread_self();
    lat__emu_guard_install();
    atomic_init(&s->run, 0);
    atomic_init(&s->timeout_ms, 0);
    atomic_init(&s->interrupts, 0);
    atomic_init(&s->expired, 0);
    atomic_init(&s->work_host, NULL);
    s->gen = s->seen_gen = s->seen_at = 0;
    stack_t cur;
    if (sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE)) {
        s->altstack = NULL; /* the program's or ASan's: fine */
    } else {
        /* Address space only: the pads and the guard page below the stack (so an
         * overflow of the handler faults at once) are never accessible. */
        size_t bytes = ALT_PAD + ALT_STACK + ALT_PAD;
        char *p = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
        if (p != MAP_FAILED) {
            char *lo = p + ALT_PAD;
            stack_t ss = {.ss_sp = lo, .ss_size = ALT_STACK, .ss_flags = 0};
            if (mprotect(lo, ALT_STACK, PROT_READ | PROT_WRITE) == 0 &&
                sigaltstack(&ss, NULL) == 0) {
                s->altstack = p;
                s->altstack_map = bytes;
            } else {
                munmap(p, bytes);
            }
        }
    }
    pthread_mutex_lock(&wd.lock);
    s->prev = NULL;
    s->next = wd.slots;
    if (wd.slots)
        wd.slots->prev = s;
    wd.slots = s;
    pthread_mutex_unlock(&wd.lock);
}

void lat__emu_guard_thread_fini(lat__emu_gslot *s)
{
    pthread_mutex_lock(&wd.lock);
    if (s->prev)
        s->prev->next = s->next;
    else if (wd.slots == s)
        wd.slots = s->next;
    if (s->next)
        s->next->prev = s->prev;
    pthread_mutex_unlock(&wd.lock);
    if (s->altstack) {
        stack_t cur;
        if (sigaltstack(NULL, &cur) == 0 && cur.ss_sp == s->altstack + ALT_PAD) {
            stack_t off = {.ss_flags = SS_DISABLE};
            sigaltstack(&off, NULL);
        }
        munmap(s->altstack, s->altstack_map);
        s->altstack = NULL;
    }
}
