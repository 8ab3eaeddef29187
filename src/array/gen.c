/* Writing generated source, and sizing the grids that run it. */
#include "internal.h"
#include "core/alloc.h"

#include "error.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void grow(lat__src *s, size_t more)
{
    if (s->oom || s->len + more + 1 <= s->cap)
        return;
    size_t cap = s->cap ? s->cap : 1024;
    while (cap < s->len + more + 1)
        cap *= 2;
    char *p = lat__realloc(s->text, cap);
    if (!p) {
        s->oom = true;
        return;
    }
    s->text = p;
    s->cap = cap;
}

void lat__src_add(lat__src *s, const char *text)
{
    size_t n = strlen(text);
    grow(s, n);
    if (s->oom)
        return;
    memcpy(s->text + s->len, text, n + 1);
    s->len += n;
}

void lat__src_addf(lat__src *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        s->oom = true;
        return;
    }
    grow(s, (size_t)n);
    if (s->oom)
        return;
    va_start(ap, fmt);
    vsnprintf(s->text + s->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    s->len += (size_t)n;
}

void lat__src_free(lat__src *s)
{
    free(s->text);
    memset(s, 0, sizeof *s);
}

lat_status lat__src_check(lat__src *s, lat_context *ctx)
{
    if (!s->oom && s->text)
        return LAT_OK;
    lat__src_free(s);
    return lat__oom(ctx);
}

unsigned lat__grid_for(const lat_context *ctx, size_t n, unsigned block)
{
    lat_device_info info;
    unsigned resident = 1;
    if (lat_context_device_info(ctx, &info) == LAT_OK) {
        int per_sm = info.max_threads_per_multiprocessor / (int)block;
        if (per_sm < 1)
            per_sm = 1;
        int sms = info.multiprocessor_count > 0 ? info.multiprocessor_count : 1;
        resident = (unsigned)sms * (unsigned)per_sm;
    }
    size_t need = n / block + (n % block != 0);
    if (need < 1)
        need = 1;
    return need < resident ? (unsigned)need : resident;
}

void lat__src_sequential_loop(lat__src *s, const char *body)
{
    lat__src_add(s, "#ifdef __LATTICE_SEQUENTIAL_BLOCK__\n"
                    "    {\n"
                    "        unsigned long long lat_nthr_ = (unsigned long long)gridDim.x * blockDim.x;\n"
                    "        unsigned long long lat_tid_ = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "        unsigned long long lat_chunk_ = (n + lat_nthr_ - 1) / lat_nthr_;\n"
                    "        unsigned long long lat_end_ = lat_tid_ * lat_chunk_ + lat_chunk_;\n"
                    "        if (lat_end_ > n)\n"
                    "            lat_end_ = n;\n"
                    "        for (unsigned long long i = lat_tid_ * lat_chunk_; i < lat_end_; i++) {\n"
                    "            ");
    lat__src_add(s, body);
    lat__src_add(s, "\n        }\n    }\n");
}

void lat__src_loop(lat__src *s, const char *body)
{
    lat__src_sequential_loop(s, body);
    lat__src_add(s, "#else\n"
                    "    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "         i < n; i += (unsigned long long)gridDim.x * blockDim.x) {\n"
                    "        ");
    lat__src_add(s, body);
    lat__src_add(s, "\n    }\n#endif\n");
}

bool lat__is_identifier(const char *s)
{
    if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (s++; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}

void lat__src_preamble(lat__src *s, const char *preamble)
{
    /* INFINITY and NAN as <math.h> gives them, which NVRTC does not include: PyCUDA's
     * kernels write neutral="-INFINITY" (nvcc includes it), and a generated kernel must
     * compile on both backends or on neither. Guarded: the emulator's prelude has them. */
    lat__src_add(s, "#ifndef INFINITY\n#define INFINITY __int_as_float(0x7f800000)\n#endif\n"
                    "#ifndef NAN\n#define NAN __int_as_float(0x7fffffff)\n#endif\n");
    if (preamble) {
        lat__src_add(s, preamble);
        lat__src_add(s, "\n");
    }
}
