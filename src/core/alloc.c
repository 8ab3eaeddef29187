/* The library's allocation functions (alloc.h). */
#include "alloc.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>

static atomic_long fail_after;

/* Whether this allocation is the one to fail. Unarmed, one load of a variable nobody
 * writes: no shared counter bounces between threads allocating at once. */
static int fail_now(void)
{
    if (atomic_load_explicit(&fail_after, memory_order_relaxed) <= 0)
        return 0;
    if (atomic_fetch_sub(&fail_after, 1) != 1)
        return 0;
    errno = ENOMEM;
    return 1;
}

void *lat__malloc(size_t n)
{
    return fail_now() ? NULL : malloc(n);
}

void *lat__calloc(size_t count, size_t size)
{
    return fail_now() ? NULL : calloc(count, size);
}

void *lat__realloc(void *p, size_t n)
{
    return fail_now() ? NULL : realloc(p, n);
}

void lat__alloc_fail_after(long n)
{
    atomic_store(&fail_after, n);
}

long lat__alloc_fail_remaining(void)
{
    return atomic_load(&fail_after);
}
