/* What every benchmark times with: a monotonic clock and the median of repeated runs. */
#ifndef LAT_BENCH_CLOCK_H
#define LAT_BENCH_CLOCK_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline void bench_sort(double *v, size_t n)
{
    qsort(v, n, sizeof *v, bench_cmp_double);
}

/* Sorts v and returns its middle element. */
static inline double bench_median(double *v, int n)
{
    bench_sort(v, (size_t)n);
    return v[n / 2];
}

#endif
