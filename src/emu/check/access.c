/*
 * Every memory access of checked device code comes here (passes/checks.c's __LAT_CK): the
 * address is placed (an allocation, a __shared__ variable, a local or module array, a
 * freed allocation, nothing), then memcheck, initcheck, racecheck and the thread maps
 * look at it. A bad access is not performed: the code gets a scratch buffer instead
 * (zeros to read, a place to write), so the launch goes on and finds more. Each access
 * also counts toward its thread's turn (exec.h's lat__exec_touch).
 */
#include "ck.h"
#include "profile.h"

#include "emu/backend/emu.h"
#include "emu/tier/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>

/* Racecheck compares the bytes a write left with what was there before and with other
 * writes' bytes, which may be memory the kernel never initialised: a comparison of
 * garbage that decides nothing wrong, which valgrind would report as a use of undefined
 * values. The copies are declared defined (free outside valgrind). */
#if defined(LAT_HAVE_VALGRIND_H)
#include <valgrind/memcheck.h>
#define AS_DEFINED(p, n) VALGRIND_MAKE_MEM_DEFINED(p, n)
#else
#define AS_DEFINED(p, n) ((void)(p), (void)(n))
#endif

/* The value thread f's last logged write left: read at its next access once the place
 * has changed (an access of its right-hand side comes before the store), or at an event
 * after which the store is surely done (force). */
static __attribute__((noinline)) void settle_write(lat__ck_launch *L, lat__ck_thread *f,
                                                   bool force)
{
    lat__ck_logged *e = &L->fast.log[f->pend - 1];
    uint64_t v = 0;
    memcpy(&v, (const void *)e->a, e->size);
    AS_DEFINED(&v, sizeof v);
    if (!force && v == f->before)
        return;
    f->pend = 0;
    if (--L->npend == 0)
        L->fast.on = L->region;
    e->after = v;
    e->kind |= LAT__CK_KNOWN;
}

/* Kernel code's inline path (passes/checks.c's __lat_ckx) compares and copies a record's
 * clock and the block's as one 8-byte word, and writes a record in three stores. */
_Static_assert(offsetof(lat__ck_rec, epoch) == offsetof(lat__ck_rec, block) + 4 &&
                   offsetof(lat__ck_fast, epoch) == offsetof(lat__ck_fast, serial) + 4 &&
                   offsetof(lat__ck_rec, value) == offsetof(lat__ck_rec, site) + 4 &&
                   offsetof(lat__ck_rec, wepoch) == offsetof(lat__ck_rec, thread) + 2 &&
                   offsetof(lat__ck_rec, mask) == offsetof(lat__ck_rec, thread) + 3 &&
                   offsetof(lat__ck_rec, thread2) == offsetof(lat__ck_rec, thread) + 4 &&
                   offsetof(lat__ck_rec, mask2) == offsetof(lat__ck_rec, thread) + 7,
               "the inline path's wide loads and stores of a record");

static lat_dim3 dim3_of(lat__emu_u3 u)
{
    return (lat_dim3){u.x, u.y, u.z};
}

/* Where an access fell, for the report. */
typedef struct place {
    lat_check_space space;
    uintptr_t base;
    size_t size;
    const char *name;
    const char *shape; /* a __shared__ array's extents ("[4][8]"), or NULL */
} place;

static void fill_access(const lat__ck_launch *L, const lat__emu_thread *th, const lat__ck_site *s,
                        size_t size, lat_check_access *a)
{
    a->kind = (lat_access_kind)s->kind;
    a->file = s->file;
    a->line = s->line;
    a->expr = s->expr;
    a->size = size;
    a->block = dim3_of(th->block_idx);
    /* From the linear index, which a replayed access carries alone. */
    a->thread = a->thread_last = lat__ck_unlinear(th->lin, L->bdim);
}

static void finding(lat__ck_launch *L, const lat__emu_thread *th, int site, lat__ck_finding code,
                    uintptr_t a, size_t size, const place *pl, const lat__ck_rec *other,
                    int other_kind)
{
    lat_check_report r;
    memset(&r, 0, sizeof r);
    r.kernel = L->k->name;
    r.count = 1;
    const lat__ck_site *s = &L->cm->sites[site];
    fill_access(L, th, s, size, &r.access);
    r.other.file = "";
    r.other.expr = "";
    r.address = a;
    if (pl) {
        r.space = pl->space;
        r.region_base = pl->base;
        r.region_size = pl->size;
        r.offset = (long long)(a - pl->base);
        r.region_name = pl->name ? pl->name : "";
        r.region_shape = pl->shape ? pl->shape : "";
    }
    int other_site = -1;
    if (other) {
        const lat__ck_site *o = &L->cm->sites[other->site];
        other_site = other->site;
        r.other.kind = (lat_access_kind)other_kind;
        r.other.file = o->file;
        r.other.line = o->line;
        r.other.expr = o->expr;
        r.other.size = size;
        r.other.block = other->block == L->fast.serial
                            ? dim3_of(th->block_idx)
                            : lat__ck_unlinear(lat__exec_block_at(L->b, other->block -
                                                                          L->first_serial),
                                               L->grid);
        r.other.thread = r.other.thread_last = lat__ck_unlinear(other->thread, L->bdim);
    }
    if (L->events) {
        /* A shard's replay: kept in its serial place, reported at the launch's end. */
        lat__ck_events *ev = L->events;
        if (ev->n == ev->cap) {
            size_t cap = ev->cap ? ev->cap * 2 : 64;
            lat__ck_event *p = realloc(ev->v, cap * sizeof *p);
            if (!p) {
                ev->lost = true;
                return;
            }
            ev->v = p;
            ev->cap = cap;
        }
        ev->v[ev->n++] = (lat__ck_event){L->step, L->cur_idx, L->cur_sub, code, site,
                                         other_site, r};
        return;
    }
    lat__ck_report_add(L->out, code, &r, site, other_site);
}

/* The scratch a bad access gets: zeros. */
static void *sink(lat__ck_launch *L, size_t size)
{
    if (size > L->sink_size) {
        char *p = realloc(L->sink, size);
        if (!p) {
            /* Nothing sensible to hand back: the launch stops. */
            lat__emu_fail(L->w, LAT_ERROR_OUT_OF_MEMORY, "kernel '%s': out of host memory "
                          "for a bad access of %zu bytes", L->k->name, size);
            lat__exec_abandon(L->w);
        }
        L->sink = p;
        L->sink_size = size;
    }
    memset(L->sink, 0, size);
    return L->sink;
}

/* Whether the n initcheck bytes at p are all set (written): a word at a time for the
 * usual sizes, which is most of initcheck's cost. */
static inline bool all_set(const uint8_t *p, size_t n)
{
    if (n == 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        return v == 0x01010101u;
    }
    if (n == 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        return v == 0x0101010101010101ull;
    }
    return !memchr(p, 0, n);
}

static inline void set_all(uint8_t *p, size_t n)
{
    if (n == 4) {
        uint32_t v = 0x01010101u;
        memcpy(p, &v, 4);
    } else {
        memset(p, 1, n);
    }
}

/* ---- racecheck ------------------------------------------------------------------------------ */

/* Whether an earlier access (rec) and this one conflict: by another thread, overlapping,
 * with no barrier between them. */
static bool conflicts(const lat__ck_launch *L, const lat__emu_thread *th, const lat__ck_rec *rec,
                      uint8_t mask, bool shared)
{
    if (rec->block == 0 || !(rec->mask & mask))
        return false;
    if (rec->block == L->fast.serial) {
        if (rec->thread == th->lin)
            return false;
        if (rec->epoch != L->fast.epoch)
            return false; /* a barrier between them */
        int w = (int)(th->lin >> 5);
        if ((rec->thread >> 5) == (unsigned)w && rec->wepoch != L->fast.wepoch[w])
            return false; /* a warp synchronisation between them */
        return true;
    }
    if (shared)
        return false; /* another block's shared memory: not this one */
    /* Global memory: another block of this launch. */
    return (uint32_t)(rec->block - L->first_serial) < (uint32_t)(L->fast.serial - L->first_serial);
}

static const char *shared_name(const lat__ck_launch *L, int var);

static const char *shared_shape(const lat__ck_launch *L, int var)
{
    const lat__ck_module *cm = L->cm;
    return var >= 0 && cm->shdims && var < cm->nshared ? cm->shdims[var] : NULL;
}

/* Where a shared or global access fell, made into a report's place only for a finding. */
static place place_of(const lat__ck_launch *L, const lat__ck_shvar *v, const lat__ck_region *r)
{
    if (v)
        return (place){LAT_SPACE_SHARED, v->lo, v->hi - v->lo, shared_name(L, v->var),
                       shared_shape(L, v->var)};
    return (place){LAT_SPACE_GLOBAL, r->base, r->size, r->name ? r->name : "", NULL};
}

static void race_slow(lat__ck_launch *L, const lat__emu_thread *th, int site, int kind,
                      uintptr_t a, size_t size, lat__ck_rec *recs, uintptr_t off,
                      const lat__ck_shvar *v, const lat__ck_region *reg, int shard);

/* Whether an earlier record of a whole word can conflict with no access of thread me:
 * its own (and no second reader's), from before the last barrier, from another block's
 * shared memory, from an earlier launch, or none. */
static inline bool quiet(const lat__ck_launch *L, const lat__ck_rec *rec, uint16_t me, bool shared)
{
    if (rec->block == L->fast.serial)
        return (rec->thread == me && !rec->mask2) || rec->epoch != L->fast.epoch;
    return rec->block == 0 || shared ||
           (uint32_t)(rec->block - L->first_serial) >= (uint32_t)(L->fast.serial - L->first_serial);
}

/* A read record's second reader as a record of its own (conflicts() judges it), or NULL. */
static inline const lat__ck_rec *second_reader(const lat__ck_rec *r, lat__ck_rec *buf)
{
    if (!r->mask2)
        return NULL;
    *buf = (lat__ck_rec){.block = r->block, .epoch = r->epoch, .site = (int)r->value,
                         .thread = r->thread2, .wepoch = r->wepoch2, .mask = r->mask2};
    return buf;
}

/* A read of the bytes `mask` of a granule, into its read record r. The record keeps the
 * first reader a later write can still race with, and the last other thread of its block
 * that read since: a write races with each reader, and the writer may be one of them.
 * Thread me's own later read updates its place in the record (its warp epoch moves on). */
static inline __attribute__((always_inline)) void note_read(const lat__ck_launch *L, uint16_t me, int site, lat__ck_rec *r,
                             uint8_t mask, bool shared)
{
    uint8_t wepoch = L->fast.wepoch[me >> 5];
    if (r->block == L->fast.serial && r->epoch == L->fast.epoch) {
        if (r->thread == me) {
            r->site = site;
            r->wepoch = wepoch;
            r->mask |= mask;
        } else {
            uint8_t kept = r->mask2 && r->thread2 == me ? r->mask2 : 0;
            r->value = (uint32_t)site;
            r->thread2 = me;
            r->wepoch2 = wepoch;
            r->mask2 = (uint8_t)(kept | mask);
        }
        return;
    }
    /* An earlier block's read of these bytes: every later write races with it already. */
    if (!quiet(L, r, me, shared) && (r->mask & mask) == mask)
        return;
    *r = (lat__ck_rec){.block = L->fast.serial, .epoch = L->fast.epoch, .site = site,
                       .thread = me, .wepoch = wepoch, .mask = mask};
}

/* The usual access, one aligned word: when the granule's records are this block's and
 * this thread's, or from before the last barrier, nothing can conflict and only the
 * record changes. Anything else takes the general path. */
/* The bytes of granule g (offset off of the access, size bytes) that the write being
 * replayed left, in their places in the granule. */
static inline uint32_t granule_value(const lat__ck_launch *L, uintptr_t off, uintptr_t g)
{
    uint32_t v = 0;
    for (uintptr_t b = g * 4 > off ? g * 4 : off; b < g * 4 + 4 && b - off < 8; b++)
        v |= (uint32_t)(uint8_t)(L->cur_after >> (8 * (b - off))) << (8 * (b - g * 4));
    return v;
}

static inline __attribute__((always_inline)) void race(lat__ck_launch *L, const lat__emu_thread *th, int site, int kind,
                        uintptr_t a, size_t size, lat__ck_rec *recs, uintptr_t off,
                        const lat__ck_shvar *v, const lat__ck_region *reg)
{
    /* Atomics race with plain accesses in shared memory only, as compute-sanitizer's
     * racecheck (shared memory only) sees them: a CAS loop's plain read of global memory
     * before its atomicCAS is correct code. */
    if (v == NULL && L->cm->sites[site].kind == LAT_ACCESS_ATOMIC)
        return;
    if (size == 4 && !(off & 3)) {
        lat__ck_rec *w = &recs[off / 2], *r = w + 1;
        uint16_t me = (uint16_t)th->lin;
        bool shared = v != NULL;
        if (quiet(L, w, me, shared)) {
            if (kind == LAT_ACCESS_READ) {
                note_read(L, me, site, r, 0xf, shared);
                return;
            }
            if (quiet(L, r, me, shared)) {
                *w = (lat__ck_rec){.block = L->fast.serial, .epoch = L->fast.epoch, .site = site,
                                   .value = (uint32_t)L->cur_after, .thread = me,
                                   .wepoch = L->fast.wepoch[me >> 5],
                                   .mask = L->cur_known ? 0xf | LAT__CK_KNOWN : 0xf};
                return;
            }
        }
    }
    race_slow(L, th, site, kind, a, size, recs, off, v, reg, -1);
}

/* shard >= 0: a split access's copy, judging the granules of that shard only. */
static void race_slow(lat__ck_launch *L, const lat__emu_thread *th, int site, int kind,
                      uintptr_t a, size_t size, lat__ck_rec *recs, uintptr_t off,
                      const lat__ck_shvar *v, const lat__ck_region *reg, int shard)
{
    bool shared = v != NULL;
    bool writes = kind != LAT_ACCESS_READ;
    uintptr_t end = off + size;
    for (uintptr_t g = off / 4; g * 4 < end; g++) {
        if (shard >= 0 && lat__ck_shard_of(reg, g * 4, L->nshards) != (unsigned)shard)
            continue;
        L->cur_sub = (uint32_t)(1 + g - off / 4);
        uintptr_t lo = g * 4 > off ? g * 4 : off, hi = g * 4 + 4 < end ? g * 4 + 4 : end;
        uint8_t mask = (uint8_t)(((1u << (hi - lo)) - 1) << (lo - g * 4));
        lat__ck_rec *w = &recs[2 * g], *r = &recs[2 * g + 1];
        uint32_t val = L->cur_known ? granule_value(L, off, g) : 0;
        /* Atomics never race with each other; with plain accesses they do, as in
         * compute-sanitizer's racecheck. */
        bool both_atomic = L->cm->sites[site].kind == LAT_ACCESS_ATOMIC &&
                           L->cm->sites[w->site].kind == LAT_ACCESS_ATOMIC;
        if (!both_atomic && conflicts(L, th, w, mask, shared)) {
            /* Two plain writes that left the same bytes: a note (Rodinia BFS's flags). */
            uint32_t m = 0;
            for (int k = 0; k < 4; k++)
                m |= (mask & w->mask & (1u << k)) ? 0xffu << (8 * k) : 0;
            bool same = kind == LAT_ACCESS_WRITE && L->cur_known && (w->mask & LAT__CK_KNOWN) &&
                        L->cm->sites[w->site].kind == LAT_ACCESS_WRITE && ((val ^ w->value) & m) == 0;
            place pl = place_of(L, v, reg);
            finding(L, th, site, same ? LAT__CK_RACE_SAME_VALUE : LAT__CK_RACE, a, size, &pl, w,
                    L->cm->sites[w->site].kind);
        } else if (writes) {
            lat__ck_rec buf;
            const lat__ck_rec *r2 = second_reader(r, &buf);
            const lat__ck_rec *other = conflicts(L, th, r, mask, shared)          ? r
                                       : r2 && conflicts(L, th, r2, mask, shared) ? r2
                                                                                  : NULL;
            if (other) {
                place pl = place_of(L, v, reg);
                finding(L, th, site, LAT__CK_RACE, a, size, &pl, other, LAT_ACCESS_READ);
            }
        }
        if (writes)
            *w = (lat__ck_rec){.block = L->fast.serial, .epoch = L->fast.epoch, .site = site,
                               .value = val, .thread = (uint16_t)th->lin,
                               .wepoch = L->fast.wepoch[th->lin >> 5],
                               .mask = (uint8_t)(L->cur_known ? mask | LAT__CK_KNOWN : mask)};
        else
            note_read(L, (uint16_t)th->lin, site, r, mask, shared);
    }
}

/* ---- the maps -------------------------------------------------------------------------------- */

static void map_note(lat__ck_launch *L, const lat__emu_thread *th, lat__ck_map *m, uintptr_t a,
                     size_t size, int kind)
{
    size_t first = (a - m->base) / m->elem_size, last = (a + size - 1 - m->base) / m->elem_size;
    long long b = (long long)L->block_lin, tl = (long long)th->lin;
    for (size_t e = first; e <= last && e < m->count; e++) {
        lat_check_map_cell *c = &m->cells[e];
        if (kind != LAT_ACCESS_WRITE) {
            c->read_block = b;
            c->read_thread = tl;
            c->reads++;
        }
        if (kind != LAT_ACCESS_READ) {
            c->write_block = b;
            c->write_thread = tl;
            c->writes++;
        }
    }
}

/* ---- placing an address ------------------------------------------------------------------------- */

/* Whether [a, a+size) is on the running fiber's stack (its locals), or, in region loops,
 * in the block's scratch (the locals kept across barriers). */
static bool on_stack(const lat__ck_launch *L, uintptr_t a, size_t size)
{
    const lat__exec_block *b = L->b;
    uintptr_t lo = (uintptr_t)lat__emu_stack_lo(&b->stacks, lat__exec_running(b));
    if (a >= lo && a + size <= lo + b->stacks.size)
        return true;
    lo = (uintptr_t)L->w->scratch;
    return L->region && a >= lo && a + size <= lo + L->w->scratch_used;
}

static bool within(uintptr_t lo, uintptr_t hi, uintptr_t a, size_t size)
{
    return a >= lo && a < hi && size <= hi - a;
}

/* Whether [a, a+size) is the module's data, which a kernel may read (its variables,
 * string literals, constants). Not its code; and a write counts only in a variable
 * (lat__ck_extra_find has every module's): a write elsewhere in the module is an error (an
 * allocation's overrun into an object mapped next to it), and TinyCC's code is writable. */
static bool in_module_data(const lat__ck_launch *L, uintptr_t a, size_t size)
{
    if (within(L->cm->data_lo, L->cm->data_hi, a, size))
        return true;
    for (int i = 0; L->opt && i < L->opt->ndata; i++)
        if (within(L->opt->data[i].lo, L->opt->data[i].hi, a, size))
            return true;
    return false;
}

/* Whether a is in the module's instructions, on either tier. */
static bool in_code(const lat__ck_launch *L, uintptr_t a)
{
    if (a >= L->cm->code_lo && a < L->cm->data_lo)
        return true;
    return L->opt && a - (uintptr_t)L->opt->text < L->opt->text_size;
}

static lat_check_space space_of(const lat__ck_launch *L, uintptr_t a)
{
    if (a - (uintptr_t)L->sh < L->sh_size)
        return LAT_SPACE_SHARED;
    if (on_stack(L, a, 1))
        return LAT_SPACE_LOCAL;
    if (in_module_data(L, a, 1))
        return LAT_SPACE_MODULE;
    return LAT_SPACE_GLOBAL;
}

static const char *shared_name(const lat__ck_launch *L, int var)
{
    const lat__ck_module *cm = L->cm;
    if (var < 0 || !cm->shname || var >= cm->nshared)
        return "";
    return cm->shname[var];
}

/* A shared access: checked against the variables' bounds, then the shadows. */
/* The __shared__ variable holding byte a, or NULL. */
static const lat__ck_shvar *shared_var_at(const lat__ck_launch *L, uintptr_t a)
{
    /* The variable whose 16-byte chunks hold a (variables start on 16 bytes and red
     * zones separate them: a chunk has at most one). */
    uintptr_t chunk = (a - (uintptr_t)L->sh) / 16;
    if (chunk < L->sh_size / 16 + 1 && L->sh_var[chunk]) {
        const lat__ck_shvar *in = &L->shv[L->sh_var[chunk] - 1];
        if (a - in->lo < in->hi - in->lo)
            return in;
    }
    return NULL;
}

static void *shared_access(lat__ck_launch *L, const lat__emu_thread *th, int site, int kind, uintptr_t a,
                           size_t size)
{
    const lat__ck_shvar *in = shared_var_at(L, a);
    if (!in || a + size > in->hi) {
        if (!(L->modes & LAT_CHECK_MEMCHECK))
            return in ? (void *)a : sink(L, size);
        const lat__ck_shvar *v = in;
        uintptr_t best = UINTPTR_MAX;
        for (int i = 0; i < L->nshv && !in; i++) {
            const lat__ck_shvar *w = &L->shv[i];
            if (w->lo == w->hi && L->nshv > 1)
                continue; /* no dynamic shared memory: not a neighbour */
            uintptr_t d = a < w->lo ? w->lo - a : a - w->hi + 1;
            /* Past an end is nearer than before a start at the same distance. */
            if (d < best || (d == best && a >= w->hi)) {
                best = d;
                v = w;
            }
        }
        place pl = v ? place_of(L, v, NULL) : (place){LAT_SPACE_SHARED, 0, 0, ""};
        finding(L, th, site, LAT__CK_OOB_SHARED, a, size, &pl, NULL, 0);
        return sink(L, size);
    }
    uintptr_t off = a - (uintptr_t)L->sh;
    if (L->sh_init) {
        if (kind != LAT_ACCESS_WRITE && !all_set(L->sh_init + off, size)) {
            place pl = place_of(L, in, NULL);
            finding(L, th, site, LAT__CK_UNINIT_SHARED, a, size, &pl, NULL, 0);
        }
        if (kind != LAT_ACCESS_READ)
            set_all(L->sh_init + off, size);
    }
    if (L->sh_race)
        race(L, th, site, kind, a, size, L->sh_race, off, in, NULL);
    return (void *)a;
}

/* Initcheck, racecheck and the thread map of a global access, judged as its block's log
 * is replayed in the schedule's order (launch.c); shard >= 0: a split access's copy, which
 * judges the bytes of that shard only (a finding names the whole access). */
static void global_judge(lat__ck_launch *L, const lat__emu_thread *th, int site, int kind,
                         uintptr_t a, size_t size, lat__ck_region *r, int shard)
{
    uintptr_t off = a - r->base;
    L->cur_sub = 0;
    if (r->init) {
        bool unset = false;
        if (shard < 0) {
            unset = kind != LAT_ACCESS_WRITE && !all_set(r->init + off, size);
            if (kind != LAT_ACCESS_READ)
                set_all(r->init + off, size);
        } else {
            for (uintptr_t b = off; b < off + size; b++) {
                if (lat__ck_shard_of(r, b, L->nshards) != (unsigned)shard)
                    continue;
                unset |= kind != LAT_ACCESS_WRITE && !r->init[b];
                if (kind != LAT_ACCESS_READ)
                    r->init[b] = 1;
            }
        }
        if (unset) {
            place pl = place_of(L, NULL, r);
            finding(L, th, site, LAT__CK_UNINIT_GLOBAL, a, size, &pl, NULL, 0);
        }
    }
    if (r->race) {
        if (shard < 0)
            race(L, th, site, kind, a, size, r->race, off, NULL, r);
        else
            race_slow(L, th, site, kind, a, size, r->race, off, NULL, r, shard);
    }
    if (r->map)
        map_note(L, th, r->map, a, size, kind);
}

void lat__ck_replay(lat__ck_launch *L, const lat__ck_logged *log, size_t n, unsigned shard)
{
    lat__emu_thread th;
    memset(&th, 0, sizeof th);
    th.block_idx = L->bidx;
    for (size_t i = 0; i < n; i++) {
        const lat__ck_logged *e = &log[i];
        th.lin = e->thread;
        L->fast.epoch = e->epoch;
        L->fast.wepoch[e->thread >> 5] = e->wepoch;
        L->cur_known = (e->kind & LAT__CK_KNOWN) != 0;
        L->cur_after = e->after;
        L->cur_idx = e->idx;
        global_judge(L, &th, e->site, e->kind & 3, e->a, e->size, e->r,
                     (e->kind & LAT__CK_SPLIT) ? (int)shard : -1);
    }
    L->cur_known = false;
    L->cur_after = 0;
}

/* How many of r's first bytes an access of this launch needs no log for: its replay would
 * judge nothing there. None with r's own thread map, nor with racecheck where the launch
 * may write r; with initcheck, those written before the launch (a read of them finds them
 * written on every schedule, a write changes nothing); else all (only a thread map of
 * another allocation logs, or racecheck of an allocation nothing writes: its reads race
 * with nothing). */
static size_t quiet_bytes(const lat__ck_launch *L, const lat__ck_region *r)
{
    if (r->map || ((L->modes & LAT_CHECK_RACECHECK) && r->written_now))
        return 0;
    return r->init ? r->init_prefix : r->size;
}

/* Grows the block's log; false when out of memory (the access goes unjudged). */
static __attribute__((noinline)) bool log_grow(lat__ck_launch *L)
{
    size_t cap = L->fast.log_cap ? L->fast.log_cap * 2 : 1024;
    lat__ck_logged *p = realloc(L->fast.log, cap * sizeof *p);
    if (!p)
        return false;
    L->fast.log = p;
    L->fast.log_cap = cap;
    return true;
}

static void *global_access(lat__ck_launch *L, const lat__emu_thread *th, int site, int kind, uintptr_t a,
                           size_t size, lat__ck_region *r)
{
    if (a + size > r->base + r->size) {
        if (!(L->modes & LAT_CHECK_MEMCHECK))
            return (void *)a; /* unchecked, as without memcheck; no shadow past the end */
        place pl = place_of(L, NULL, r);
        finding(L, th, site, LAT__CK_OOB_ALLOCATION, a, size, &pl, NULL, 0);
        return sink(L, size);
    }
    if (L->fast.logging && a - r->base + size > quiet_bytes(L, r) &&
        (L->fast.nlog < L->fast.log_cap || log_grow(L))) {
        lat__ck_logged *e = &L->fast.log[L->fast.nlog++];
        e->a = a;
        e->r = r;
        e->site = site;
        e->epoch = L->fast.epoch;
        e->size = (uint32_t)size;
        e->thread = (uint16_t)th->lin;
        e->kind = (uint8_t)kind;
        e->wepoch = L->fast.wepoch[th->lin >> 5];
        if (kind == LAT_ACCESS_WRITE && size <= 8) {
            lat__ck_thread *f = &L->th[th->lin];
            if (f->pend)
                settle_write(L, f, true);
            if (L->given) { /* an assignment's value, given with it */
                uint64_t v = 0;
                memcpy(&v, L->given, size);
                AS_DEFINED(&v, sizeof v);
                e->after = v;
                e->kind |= LAT__CK_KNOWN;
                return (void *)a;
            }
            /* Otherwise its value is read once stored: at the thread's next access that
             * finds the place changed, or its next event (lat__ck_settle). */
            f->pend = L->fast.nlog;
            L->npend++;
            L->fast.on = false; /* the host code settles it, at the next access */
            L->pth = (int)th->lin;
            f->before = 0;
            memcpy(&f->before, (const void *)a, size);
            AS_DEFINED(&f->before, sizeof f->before);
        }
    }
    return (void *)a;
}

/* The cold paths of an access, out of line so that the common one stays short. */
static __attribute__((noinline)) void misaligned(lat__ck_launch *L, const lat__emu_thread *th, int site,
                                                 uintptr_t a, size_t size)
{
    /* In shared memory, the variable holding it (it was called a byte of the dynamic
     * shared memory, of 0 bytes). */
    const lat__ck_shvar *v = shared_var_at(L, a);
    if (v) {
        place pl = place_of(L, v, NULL);
        finding(L, th, site, LAT__CK_MISALIGNED, a, size, &pl, NULL, 0);
        return;
    }
    lat__ck_region *r = lat__ck_region_find(L->ck, a);
    place pl = {space_of(L, a), r ? r->base : a, r ? r->size : 0, r && r->name ? r->name : ""};
    finding(L, th, site, LAT__CK_MISALIGNED, a, size, &pl, NULL, 0);
}

/* The variable an access names: its expression's first word (`a` of `a[i + 1]`). */
static const char *named(const char *expr, char *buf, size_t size)
{
    size_t n = strcspn(expr, "[ ");
    if (n >= size)
        n = size - 1;
    memcpy(buf, expr, n);
    buf[n] = '\0';
    return buf;
}

/* An access outside the array named in it. */
static __attribute__((noinline)) void *array_overrun(lat__ck_launch *L, const lat__emu_thread *th,
                                                     int site, uintptr_t a, size_t size,
                                                     uintptr_t b, size_t bsize)
{
    lat_check_space sp = space_of(L, b);
    const lat__ck_site *s = &L->cm->sites[site];
    place pl = {sp, b, bsize, s->expr};
    char name[64];
    pl.name = named(s->expr, name, sizeof name);
    if (sp == LAT_SPACE_GLOBAL) {
        lat__ck_region *r = lat__ck_region_find(L->ck, b);
        pl.name = r && r->name ? r->name : "";
    }
    finding(L, th, site, LAT__CK_OOB_ARRAY, a, size, &pl, NULL, 0);
    return sink(L, size);
}

/* An address in no allocation and no shared memory: a local or module variable, or an
 * error. */
static __attribute__((noinline)) void *elsewhere(lat__ck_launch *L, const lat__emu_thread *th, int site,
                                                 uintptr_t a, size_t size)
{
    const lat__emu_ctx *c = L->ctx->impl;
    bool read = L->cm->sites[site].kind == LAT_ACCESS_READ;
    if (on_stack(L, a, size) || (read && in_module_data(L, a, size)) ||
        lat__ck_extra_find(L->ck, a, size) ||
        lat__emu_heap_holds(&c->heap, a, size))
        return (void *)a;
    if (!(L->modes & LAT_CHECK_MEMCHECK))
        return (void *)a;
    const lat__ck_freed *fr = lat__ck_freed_find(L->ck, a, size);
    /* Freed and handed out again (the allocator reuses places): an overrun of the new one. */
    if (fr && lat__ck_region_find(L->ck, fr->base))
        fr = NULL;
    if (fr) {
        place pl = {LAT_SPACE_GLOBAL, fr->base, fr->size, fr->name ? fr->name : ""};
        finding(L, th, site, LAT__CK_USE_AFTER_FREE, a, size, &pl, NULL, 0);
        return sink(L, size);
    }
    lat__ck_region *nr = lat__ck_region_nearest(L->ck, a);
    if (nr) {
        place pl = {LAT_SPACE_GLOBAL, nr->base, nr->size, nr->name ? nr->name : ""};
        finding(L, th, site, LAT__CK_OOB_ALLOCATION, a, size, &pl, NULL, 0);
        return sink(L, size);
    }
    /* In the code: named as such (a function's address used as data, most likely). */
    place code = {LAT_SPACE_MODULE, a, 0, ""};
    finding(L, th, site, LAT__CK_WILD_ADDRESS, a, size, in_code(L, a) ? &code : NULL, NULL, 0);
    return sink(L, size);
}

/* A use by name of a local variable declared without an initializer (passes/checks.c
 * tracks it): its bytes read before any write are reported (initcheck); an array's
 * bounds are exact (memcheck). b, bsize: the variable. */
static __attribute__((noinline)) void *local_access(lat__ck_launch *L,
                                                    const lat__emu_thread *th, int site,
                                                    int kind, uintptr_t a, size_t size,
                                                    uintptr_t b, size_t bsize)
{
    if ((L->modes & LAT_CHECK_MEMCHECK) && (a < b || a + size > b + bsize))
        return array_overrun(L, th, site, a, size, b, bsize);
    uintptr_t lo = L->poison_lo;
    if (!L->stack_poison || a < lo || a + size > lo + L->poison_size)
        return (void *)a;
    uint8_t *poison = L->stack_poison + (a - lo);
    if (kind != LAT_ACCESS_WRITE && memchr(poison, 1, size)) {
        char name[64];
        place pl = {LAT_SPACE_LOCAL, b, bsize, named(L->cm->sites[site].expr, name, sizeof name)};
        finding(L, th, site, LAT__CK_UNINIT_LOCAL, a, size, &pl, NULL, 0);
    }
    if (kind != LAT_ACCESS_READ)
        memset(poison, 0, size);
    return (void *)a;
}

/* The allocation holding a, looked for first among the few the block touched last, which
 * kernel code's inline path looks at too (a matrix product reads two in turn). */
static inline lat__ck_region *recent_region(lat__ck_launch *L, uintptr_t a)
{
    lat__ck_fast *f = &L->fast;
    enum { RECENT = sizeof f->g_base / sizeof f->g_base[0] };
    for (int i = 0; i < RECENT; i++)
        if (a - f->g_base[i] < f->g_size[i])
            return f->g_region[i];
    lat__ck_region *r = lat__ck_region_find(L->ck, a);
    if (r && r->size) {
        int i = L->recent_next++ % RECENT;
        f->g_base[i] = r->base;
        f->g_size[i] = r->size;
        f->g_region[i] = r;
        f->g_quiet[i] = quiet_bytes(L, r);
    }
    return r;
}

static inline __attribute__((always_inline)) void *
access(lat__emu_thread *t, void *addr, unsigned long size, unsigned long align, int code,
       void *base, unsigned long bsize, bool has_base)
{
    lat__ck_launch *L = lat__ck_of(t);
    const lat__emu_thread *th = t; /* on fibers the fiber's own; in region loops the
                                      block's, at the thread running */
    int site = code / LAT__CK_CODE_SITE, kind = code & 3; /* passes/checks.c's codes */
    if (code & LAT__CK_CODE_PACKED)
        align = 1; /* a member of a packed struct may be anywhere */
    uintptr_t a = (uintptr_t)addr;
    if (L->pf)
        lat__pf_access(L->pf, L, t->lin, a, size, code);
    /* Another thread's access: the last writer's store is done (it ran to a hook, a
     * barrier or its exit since), read now, before other blocks can write there. */
    if (L->pth >= 0 && L->pth != (int)t->lin && L->th[L->pth].pend)
        settle_write(L, &L->th[L->pth], true);
    if (L->th[t->lin].pend)
        settle_write(L, &L->th[t->lin], false);

    if (!L->region) {
        /* Where the thread is, for a hang's report; then its turn goes on, or gives way. */
        lat__ck_thread *f = &L->th[t->lin];
        f->last_site = site;
        f->last_addr = a;
        lat__exec_touch(L->b, (int)t->lin, a, kind != LAT_ACCESS_READ);
    }

    if (code & LAT__CK_CODE_LOCAL)
        return has_base ? local_access(L, th, site, kind, a, size, (uintptr_t)base, bsize)
                        : local_access(L, th, site, kind, a, size, a, size);
    if (L->modes & LAT_CHECK_MEMCHECK) {
        if (a & (align - 1))
            misaligned(L, th, site, a, size);
        /* An array named in the access: its bounds are exact. */
        if (has_base && (a < (uintptr_t)base || a + size > (uintptr_t)base + bsize))
            return array_overrun(L, th, site, a, size, (uintptr_t)base, bsize);
    }
    /* Shared memory, and a window past it: an overrun of the last variable. */
    if (a - ((uintptr_t)L->sh - LAT__CK_SHARED_WINDOW) < L->sh_size + 2 * LAT__CK_SHARED_WINDOW)
        return shared_access(L, th, site, kind, a, size);
    lat__ck_region *r = recent_region(L, a);
    if (r)
        return global_access(L, th, site, kind, a, size, r);
    return elsewhere(L, th, site, a, size);
}

/* What checked code calls (passes/checks.c's __LAT_CK and __LAT_CKA): an access, and an
 * access through an array whose bounds are known (base NULL: a pointer after all). */
void *lat__ck_access_plain(lat__emu_thread *t, void *addr, unsigned long size,
                           unsigned long align, int site)
{
    return access(t, addr, size, align, site, NULL, 0, false);
}

void *lat__ck_access_value(lat__emu_thread *t, void *addr, unsigned long size,
                           unsigned long align, int site, const void *value)
{
    lat__ck_launch *L = lat__ck_of(t);
    L->given = value;
    void *p = access(t, addr, size, align, site, NULL, 0, false);
    L->given = NULL;
    return p;
}

void *lat__ck_access_array(lat__emu_thread *t, void *addr, unsigned long size,
                           unsigned long align, int site, void *base, unsigned long bsize)
{
    return access(t, addr, size, align, site, base, bsize, base != NULL);
}

/* Whether [p, p + n) may be accessed as site code says: checked as accesses of up to 8
 * bytes each, so that racecheck and initcheck see every byte; stops at the first bad
 * one (reported). */
static bool range_ok(lat__emu_thread *t, void *p, unsigned long n, int code)
{
    for (unsigned long i = 0; i < n;) {
        unsigned long len = n - i < 8 ? n - i : 8;
        char *at = (char *)p + i;
        if (access(t, at, len, 1, code, NULL, 0, false) != at)
            return false;
        i += len;
    }
    return true;
}

void *lat__ck_memset(lat__emu_thread *t, void *d, int c, unsigned long n, int w)
{
    if (range_ok(t, d, n, w))
        memset(d, c, n);
    return d;
}

void *lat__ck_memcpy(lat__emu_thread *t, void *d, const void *s, unsigned long n, int w, int r)
{
    if (range_ok(t, (void *)s, n, r) && range_ok(t, d, n, w))
        memcpy(d, s, n);
    return d;
}

void *lat__ck_memmove(lat__emu_thread *t, void *d, const void *s, unsigned long n, int w, int r)
{
    if (range_ok(t, (void *)s, n, r) && range_ok(t, d, n, w))
        memmove(d, s, n);
    return d;
}

void lat__ck_local(lat__emu_thread *t, void *p, unsigned long n)
{
    lat__ck_launch *L = lat__ck_of(t);
    if (!(L->modes & LAT_CHECK_INITCHECK))
        return;
    const lat__emu_stacks *st = &L->b->stacks;
    uintptr_t lo = (uintptr_t)st->map, a = (uintptr_t)p;
    if (a < lo || a + n > lo + st->map_size)
        return; /* not on a fiber's stack: kept across barriers in region loops */
    if (!L->stack_poison) {
        void *m = mmap(NULL, st->map_size, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED)
            return; /* unchecked locals, as without initcheck */
        L->stack_poison = m;
        L->poison_lo = lo;
        L->poison_size = st->map_size;
    }
    memset(L->stack_poison + (a - L->poison_lo), 1, n);
}

void lat__ck_settle(lat__ck_launch *L, int i)
{
    if (!L->th || L->npend == 0)
        return; /* a barrier's look at every thread cost 18% of a checked reduction */
    if (i >= 0) {
        if (L->th[i].pend)
            settle_write(L, &L->th[i], true);
        return;
    }
    for (int k = 0; k < L->n; k++)
        if (L->th[k].pend)
            settle_write(L, &L->th[k], true);
}
