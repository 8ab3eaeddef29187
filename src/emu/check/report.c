/*
 * Reports (ck.h): a finding is kept once per code (one per diagnosis) and source place
 * (and, for races and mismatched barriers, the other place) with a count, and worded when
 * the launch ends, so that a loop over a million threads that all overrun the same array
 * makes one line, not a million.
 *
 * The words are part of lattice's interface (the bug zoo's tests compare them), so they
 * hold no addresses, which change from run to run: the allocation is named by its label,
 * its size and the offset into it.
 */
#include "ck.h"

#include "error.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    lat_check_kind kind;
    const char *words;
} findings[LAT__CK_NFINDINGS] = {
#define FINDING(name, kind, words) [LAT__CK_##name] = {kind, words},
    LAT__CK_FINDINGS(FINDING)
#undef FINDING
};

lat_check_kind lat__ck_finding_kind(lat__ck_finding code)
{
    return findings[code].kind;
}

const char *lat__ck_finding_words(lat__ck_finding code)
{
    return findings[code].words;
}

unsigned lat__ck_kind_check(lat_check_kind kind)
{
    switch (kind) {
    case LAT_CHECK_OUT_OF_BOUNDS:
    case LAT_CHECK_MISALIGNED:
    case LAT_CHECK_USE_AFTER_FREE:
    case LAT_CHECK_WILD_ADDRESS:
    case LAT_CHECK_LEAK:
        return LAT_CHECK_MEMCHECK;
    case LAT_CHECK_RACE:
        return LAT_CHECK_RACECHECK;
    case LAT_CHECK_BARRIER_DIVERGENCE:
    case LAT_CHECK_BARRIER_MISMATCH:
    case LAT_CHECK_WARP_MASK:
        return LAT_CHECK_SYNCCHECK;
    case LAT_CHECK_UNINITIALIZED:
        return LAT_CHECK_INITCHECK;
    case LAT_CHECK_HANG:
        return 0;
    }
    return 0;
}

const char *lat_check_kind_name(lat_check_kind kind)
{
    LAT__API();
    switch (kind) {
    case LAT_CHECK_OUT_OF_BOUNDS:
        return "out-of-bounds";
    case LAT_CHECK_MISALIGNED:
        return "misaligned";
    case LAT_CHECK_USE_AFTER_FREE:
        return "use-after-free";
    case LAT_CHECK_WILD_ADDRESS:
        return "wild-address";
    case LAT_CHECK_LEAK:
        return "leak";
    case LAT_CHECK_RACE:
        return "race";
    case LAT_CHECK_BARRIER_DIVERGENCE:
        return "barrier-divergence";
    case LAT_CHECK_BARRIER_MISMATCH:
        return "barrier-mismatch";
    case LAT_CHECK_WARP_MASK:
        return "warp-mask";
    case LAT_CHECK_UNINITIALIZED:
        return "uninitialized";
    case LAT_CHECK_HANG:
        return "hang";
    }
    return "unknown";
}

static const char *check_name(unsigned check)
{
    switch (check) {
    case LAT_CHECK_MEMCHECK:
        return "memcheck";
    case LAT_CHECK_RACECHECK:
        return "racecheck";
    case LAT_CHECK_SYNCCHECK:
        return "synccheck";
    case LAT_CHECK_INITCHECK:
        return "initcheck";
    }
    return "hang";
}

static const char *access_word(lat_access_kind k)
{
    switch (k) {
    case LAT_ACCESS_READ:
        return "read";
    case LAT_ACCESS_WRITE:
        return "write";
    case LAT_ACCESS_READ_WRITE:
        return "read-write";
    case LAT_ACCESS_ATOMIC:
        return "atomic read-write";
    default:
        return "access";
    }
}

void lat__ck_dim(char *buf, size_t size, lat_dim3 d)
{
    snprintf(buf, size, "(%u,%u,%u)", d.x, d.y, d.z);
}

static bool dim_eq(lat_dim3 a, lat_dim3 b)
{
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

/* "thread (1,0,0)" or "threads (0,0,0) to (15,0,0)" */
static void threads(char *buf, size_t size, const lat_check_access *a)
{
    char x[40], y[40];
    lat__ck_dim(x, sizeof x, a->thread);
    lat__ck_dim(y, sizeof y, a->thread_last);
    if (dim_eq(a->thread, a->thread_last))
        snprintf(buf, size, "thread %s", x);
    else
        snprintf(buf, size, "threads %s to %s", x, y);
}

/* What the access fell in: "'out'", "a 4000-byte allocation", "__shared__ 'tile'"... */
static void region_words(char *buf, size_t size, const lat_check_report *r)
{
    const char *n = r->region_name ? r->region_name : "";
    switch (r->space) {
    case LAT_SPACE_SHARED:
        if (*n)
            snprintf(buf, size, "__shared__ '%s'", n);
        else
            snprintf(buf, size, "the dynamic shared memory");
        return;
    case LAT_SPACE_LOCAL:
        snprintf(buf, size, "the local array '%s'", n);
        return;
    case LAT_SPACE_MODULE:
        snprintf(buf, size, "the module's array '%s'", n);
        return;
    default:
        if (*n)
            snprintf(buf, size, "'%s'", n);
        else
            snprintf(buf, size, "a %zu-byte allocation", r->region_size);
    }
}

/* An element's subscripts in an array of the extents shape ("[4][8]") of size bytes
 * whose innermost elements have len bytes: "[3][7]". false when shape does not describe
 * such an array (an access of another size). */
static bool subscripts(char *buf, size_t size, const char *shape, long long size_bytes,
                       long long len, long long index)
{
    long long dims[8], all = 1;
    int n = 0;
    for (const char *p = shape; *p == '[' && n < 8;) {
        char *end;
        dims[n] = strtoll(p + 1, &end, 10);
        if (*end != ']' || dims[n] <= 0)
            return false;
        all *= dims[n++];
        p = end + 1;
    }
    if (n < 2 || len <= 0 || all * len != size_bytes)
        return false;
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        long long inner = 1;
        for (int j = i + 1; j < n; j++)
            inner *= dims[j];
        at += (size_t)snprintf(buf + at, at < size ? size - at : 0, "[%lld]", index / inner);
        index %= inner;
    }
    return at < size;
}

/* Where in the region: "element [1000] of 'out', which has 1000 elements of 4 bytes",
 * "byte 4001 of 'out' (4000 bytes), 1 byte past its end"... */
static void place_words(char *buf, size_t size, const lat_check_report *r)
{
    char reg[200], sub[100];
    region_words(reg, sizeof reg, r);
    long long off = r->offset, n = (long long)r->region_size;
    long long len = (long long)r->access.size;
    bool elem = len > 0 && off % len == 0 && n % len == 0 && n > 0;
    bool inside = off >= 0 && off + len <= n;
    if (r->space == LAT_SPACE_LOCAL && off == 0 && len == n && r->access.expr &&
        strcspn(r->access.expr, "[") == strlen(r->access.expr))
        snprintf(buf, size, "the local variable '%s'", r->region_name ? r->region_name : "");
    else if (elem && inside && r->region_shape && *r->region_shape &&
             subscripts(sub, sizeof sub, r->region_shape, n, len, off / len))
        snprintf(buf, size, "element %s of %s", sub, reg);
    else if (elem && inside)
        snprintf(buf, size, "element [%lld] of %s", off / len, reg);
    else if (elem)
        snprintf(buf, size, "element [%lld] of %s, which has %lld element%s of %lld bytes",
                 off / len, reg, n / len, n / len == 1 ? "" : "s", len);
    else if (inside)
        snprintf(buf, size, "byte %lld of %s (%lld bytes)", off, reg, n);
    else if (off < 0)
        snprintf(buf, size, "byte %lld of %s (%lld bytes), %lld byte%s before its start", off,
                 reg, n, -off, -off == 1 ? "" : "s");
    else if (off >= n)
        snprintf(buf, size, "byte %lld of %s (%lld bytes), %lld byte%s past its end", off, reg,
                 n, off - n, off - n == 1 ? "" : "s");
    else
        snprintf(buf, size, "bytes %lld to %lld of %s (%lld bytes), across its end", off,
                 off + len - 1, reg, n);
}

char *lat__ck_report_format(const lat_check_report *r, const char *given)
{
    char head[400], body[1200] = "", who[100], blk[40], place[400];
    const lat_check_access *a = &r->access;
    lat__ck_dim(blk, sizeof blk, a->block);
    threads(who, sizeof who, a);
    if (r->kind == LAT_CHECK_LEAK)
        snprintf(head, sizeof head, "memcheck: ");
    else if (a->file && *a->file)
        snprintf(head, sizeof head, "%s:%d: %s: kernel '%s', block %s, %s: ", a->file, a->line,
                 check_name(r->check), r->kernel, blk, who);
    else
        snprintf(head, sizeof head, "%s: kernel '%s', block %s: ", check_name(r->check),
                 r->kernel, blk);
    const char *acc = access_word(a->kind);
    switch (r->kind) {
    case LAT_CHECK_OUT_OF_BOUNDS:
        place_words(place, sizeof place, r);
        snprintf(body, sizeof body, "out-of-bounds %s of %zu bytes by `%s`: %s", acc, a->size,
                 a->expr, place);
        break;
    case LAT_CHECK_MISALIGNED:
        place_words(place, sizeof place, r);
        snprintf(body, sizeof body,
                 "misaligned %s of %zu bytes by `%s`: the address is not a multiple of %zu (%s)",
                 acc, a->size, a->expr, a->size, place);
        break;
    case LAT_CHECK_USE_AFTER_FREE:
        place_words(place, sizeof place, r);
        snprintf(body, sizeof body, "%s of %zu bytes by `%s` touches freed memory: %s, freed "
                 "before the launch", acc, a->size, a->expr, place);
        break;
    case LAT_CHECK_WILD_ADDRESS:
        if (r->space == LAT_SPACE_MODULE)
            snprintf(body, sizeof body, "%s of %zu bytes by `%s` at address 0x%" PRIx64
                     ", which is in the module's code, not its variables (a function's "
                     "address used as a data pointer?)", acc, a->size, a->expr, r->address);
        else
            snprintf(body, sizeof body, "%s of %zu bytes by `%s` at address 0x%" PRIx64
                     ", which is in no device allocation, shared or local variable (a NULL "
                     "or host pointer?)", acc, a->size, a->expr, r->address);
        break;
    case LAT_CHECK_UNINITIALIZED:
        place_words(place, sizeof place, r);
        snprintf(body, sizeof body, "%s of %zu bytes by `%s` reads memory never written: %s",
                 acc, a->size, a->expr, place);
        break;
    case LAT_CHECK_RACE: {
        char owho[100], oblk[40], where[400];
        threads(owho, sizeof owho, &r->other);
        lat__ck_dim(oblk, sizeof oblk, r->other.block);
        place_words(place, sizeof place, r);
        if (dim_eq(r->other.block, a->block))
            snprintf(where, sizeof where, "%s of the same block", owho);
        else
            snprintf(where, sizeof where, "%s of block %s", owho, oblk);
        snprintf(body, sizeof body,
                 "data race%s: %s of `%s` after the %s of `%s` at %s:%d by %s, with no barrier "
                 "between them, on %s%s", r->note ? " between writes of the same value" : "",
                 acc, a->expr, access_word(r->other.kind), r->other.expr, r->other.file,
                 r->other.line, where, place,
                 r->note ? " (benign on every GPU today, but undefined: a note, not an error)"
                         : "");
        break;
    }
    case LAT_CHECK_BARRIER_DIVERGENCE: {
        char owho[100];
        threads(owho, sizeof owho, &r->other);
        snprintf(body, sizeof body,
                 "divergent barrier: %s wait at __syncthreads() while %s have exited (every "
                 "thread of a block must reach each barrier)", who, owho);
        break;
    }
    case LAT_CHECK_BARRIER_MISMATCH: {
        char owho[100];
        threads(owho, sizeof owho, &r->other);
        snprintf(body, sizeof body,
                 "%s wait at __syncthreads() here while %s wait at the one at %s:%d (every "
                 "thread of a block must reach the same barrier)", who, owho, r->other.file,
                 r->other.line);
        break;
    }
    case LAT_CHECK_WARP_MASK:
    case LAT_CHECK_HANG:
    case LAT_CHECK_LEAK:
        snprintf(body, sizeof body, "%s", given ? given : "");
        break;
    }
    char tail[80] = "";
    if (r->count > 1)
        snprintf(tail, sizeof tail, " [%llu times]", r->count);
    size_t n = strlen(head) + strlen(body) + strlen(tail) + 1;
    char *m = malloc(n);
    if (m)
        snprintf(m, n, "%s%s%s", head, body, tail);
    return m;
}

static char *dup_or_empty(const char *s, bool *oom)
{
    char *d = lat__strdup(s ? s : "");
    if (!d)
        *oom = true;
    return d;
}

static void free_report(lat__ck_report *k)
{
    free(k->message);
    free(k->region_name);
    free(k->region_shape);
    free(k->kernel);
    free(k->file);
    free(k->expr);
    free(k->ofile);
    free(k->oexpr);
    free(k->body);
}

void lat__ck_reports_clear(lat__ck_list *l)
{
    for (size_t i = 0; i < l->nreports; i++)
        free_report(&l->reports[i]);
    l->nreports = 0;
    l->dropped = 0;
}

static bool same_text(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

/* Whether kept report k is finding `code` at r's place. */
static bool same_finding(const lat__ck_report *k, lat__ck_finding code, const lat_check_report *r,
                         int site, int other_site)
{
    return k->code == code && k->site == site && k->other_site == other_site &&
           k->r.access.line == r->access.line && k->r.other.line == r->other.line &&
           same_text(k->r.access.file, r->access.file) &&
           same_text(k->r.other.file, r->other.file) && same_text(k->kernel, r->kernel);
}

/* Counts n more findings like k's in kept report k (found in block `blk`). */
static void count_in(lat__ck_report *k, lat__ck_finding code, const lat_check_access *a,
                     unsigned long long n)
{
    k->r.count += n;
    /* The range of threads that did the same. */
    if (code != LAT__CK_RACE && code != LAT__CK_RACE_SAME_VALUE &&
        dim_eq(k->r.access.block, a->block))
        k->r.access.thread_last = a->thread_last;
}

static lat__ck_report *find(lat__ck_list *l, lat__ck_finding code, const lat_check_report *r,
                            int site, int other_site)
{
    /* Newest first: a finding is most often the one just kept. */
    for (size_t i = l->nreports; i-- > 0;)
        if (same_finding(&l->reports[i], code, r, site, other_site))
            return &l->reports[i];
    return NULL;
}

/* Whether l has room for another report (else the finding is counted in the last). */
static bool room(lat__ck_list *l, unsigned long long n)
{
    int max = l->max > 0 ? l->max : 100;
    if (l->nreports < (size_t)max)
        return true;
    l->dropped += n;
    if (l->nreports > 0)
        l->reports[l->nreports - 1].r.count += n;
    return false;
}

static bool grow(lat__ck_list *l)
{
    if (l->nreports < l->reports_cap)
        return true;
    size_t cap = l->reports_cap ? l->reports_cap * 2 : 8;
    lat__ck_report *p = realloc(l->reports, cap * sizeof *p);
    if (!p)
        return false;
    l->reports = p;
    l->reports_cap = cap;
    return true;
}

bool lat__ck_report_add(lat__ck_list *l, lat__ck_finding code, const lat_check_report *r,
                        int site, int other_site)
{
    unsigned long long n = r->count ? r->count : 1;
    lat__ck_report *found = find(l, code, r, site, other_site);
    if (found) {
        count_in(found, code, &r->access, n);
        return true;
    }
    if (!room(l, n) || !grow(l))
        return false;
    lat__ck_report k;
    memset(&k, 0, sizeof k);
    bool oom = false;
    k.r = *r;
    k.r.kind = lat__ck_finding_kind(code);
    k.code = code;
    k.site = site;
    k.other_site = other_site;
    k.kernel = dup_or_empty(r->kernel, &oom);
    k.region_name = dup_or_empty(r->region_name, &oom);
    k.region_shape = dup_or_empty(r->region_shape, &oom);
    k.file = dup_or_empty(r->access.file, &oom);
    k.expr = dup_or_empty(r->access.expr, &oom);
    k.ofile = dup_or_empty(r->other.file, &oom);
    k.oexpr = dup_or_empty(r->other.expr, &oom);
    /* A message given by the finder (hangs, warp masks, leaks) is the body. */
    k.body = r->message ? lat__strdup(r->message) : NULL;
    if (r->message && !k.body)
        oom = true;
    if (oom) {
        free_report(&k);
        return false;
    }
    k.r.kernel = k.kernel;
    k.r.region_name = k.region_name;
    k.r.region_shape = k.region_shape;
    k.r.access.file = k.file;
    k.r.access.expr = k.expr;
    k.r.other.file = k.ofile;
    k.r.other.expr = k.oexpr;
    k.r.check = lat__ck_kind_check(k.r.kind);
    k.r.count = n;
    k.r.note = code == LAT__CK_RACE_SAME_VALUE;
    k.r.message = "";
    l->reports[l->nreports++] = k;
    return true;
}

void lat__ck_list_merge(lat__ck_list *dst, lat__ck_list *src)
{
    for (size_t i = 0; i < src->nreports; i++) {
        lat__ck_report *k = &src->reports[i];
        lat__ck_report *found = find(dst, k->code, &k->r, k->site, k->other_site);
        if (found) {
            count_in(found, k->code, &k->r.access, k->r.count);
            free_report(k);
        } else if (room(dst, k->r.count) && grow(dst)) {
            dst->reports[dst->nreports++] = *k; /* its strings move with it */
        } else {
            free_report(k);
        }
    }
    if (src->dropped && dst->nreports > 0) {
        /* src's findings past its own max were counted in its last report, merged above. */
        dst->dropped += src->dropped;
    }
    src->nreports = 0;
    src->dropped = 0;
}

/* Causes before their effects: a barrier some threads miss, or a race, makes the reads
 * and bad accesses after it; notes last. */
static int rank(const lat__ck_report *k)
{
    if (k->r.note)
        return 7;
    switch (k->r.kind) {
    case LAT_CHECK_BARRIER_DIVERGENCE:
    case LAT_CHECK_BARRIER_MISMATCH:
    case LAT_CHECK_WARP_MASK:
        return 0;
    case LAT_CHECK_RACE:
        return 1;
    case LAT_CHECK_OUT_OF_BOUNDS:
    case LAT_CHECK_MISALIGNED:
    case LAT_CHECK_USE_AFTER_FREE:
    case LAT_CHECK_WILD_ADDRESS:
        return 2;
    case LAT_CHECK_UNINITIALIZED:
        return 3;
    case LAT_CHECK_HANG:
        return 4;
    case LAT_CHECK_LEAK:
        return 5;
    }
    return 6;
}

size_t lat__ck_reports_errors(const lat__ck_list *l)
{
    size_t n = 0;
    for (size_t i = 0; i < l->nreports; i++)
        n += !l->reports[i].r.note;
    return n;
}

void lat__ck_reports_finish(lat__ck_list *l)
{
    /* An insertion sort, stable: a launch keeps at most max_reports. */
    for (size_t i = 1; i < l->nreports; i++) {
        lat__ck_report k = l->reports[i];
        int rk = rank(&k);
        size_t j = i;
        for (; j > 0 && rank(&l->reports[j - 1]) > rk; j--)
            l->reports[j] = l->reports[j - 1];
        l->reports[j] = k;
    }
    for (size_t i = 0; i < l->nreports; i++) {
        lat__ck_report *k = &l->reports[i];
        free(k->message);
        k->message = lat__ck_report_format(&k->r, k->body);
        k->r.message = k->message ? k->message : "(out of memory)";
    }
}
