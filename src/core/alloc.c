/* The library's allocation functions (alloc.h). */
#include "alloc.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>

static atomic_long fail_after;
static atomic_long calls;

/* Whether this allocation is the one to fail. */
static int fail_now(void)
{
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
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

long lat__alloc_calls(void)
{
    return atomic_load(&calls);
}
