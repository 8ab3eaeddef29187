/*
 * Texture and surface reads and writes from kernel code (texobj.h), computed as the GPU
 * computes them (CUDA C++ Programming Guide, "Texture Fetching"):
 *
 *   - normalised coordinates: wrap replaces x by frac(x), mirror by frac(x) or 1 - frac(x)
 *     (floor(x) even or odd); the coordinate is then scaled by the size, in float;
 *   - point sampling reads texel floor(x);
 *   - linear filtering reads texels i = floor(xB) and i + 1, xB = x - 0.5, weighted by
 *     1 - a and a with a = frac(xB) in 9-bit fixed point, 8 bits of fraction: x is rounded
 *     to 1/256 of a texel, to nearest with ties up; the corners' weights are integers
 *     (in 1/256) formed as an H100 forms them (linear_weights), the weighted texels summed
 *     exactly (in double) and rounded once to float (to half, ties away from zero, for
 *     half texels, as the GPU's filtered half reads are);
 *   - texel indices outside the texture: clamp takes the edge texel, border the border
 *     colour, wrap and mirror repeat (those two only with normalised coordinates);
 *   - normalised-float reads give u8 / 255, u16 / 65535, and max(i8 / 127, -1),
 *     max(i16 / 32767, -1), each a float division; half texels read as floats.
 *
 * A handle that is not a live object of the launch's context, an object of the other
 * kind, a call for another shape (tex2D on a 3-D texture), a result type the texture
 * cannot give, or a surface access outside the surface with cudaBoundaryModeTrap stops
 * the launch with a message naming the place, the thread and the handle.
 */
#include "texobj.h"

#include "emu/exec/worker.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- the result type ----------------------------------------------------------------------- */

static unsigned type_scalar(unsigned type)
{
    return (type >> 4) & 15;
}

static unsigned type_channels(unsigned type)
{
    return type & 7;
}

static size_t scalar_size(unsigned s)
{
    switch (s) {
    case LAT__TEXT_S8: case LAT__TEXT_U8: return 1;
    case LAT__TEXT_S16: case LAT__TEXT_U16: return 2;
    case LAT__TEXT_S64: case LAT__TEXT_U64: return 8;
    default: return 4;
    }
}

static size_t type_size(unsigned type)
{
    return scalar_size(type_scalar(type)) * type_channels(type);
}

/* float4, uchar, unsigned int... (bit 3: written as a vector type, float1). */
static const char *type_name(unsigned type, char *buf, size_t size)
{
    static const char *const scalars[] = {"?", "char", "unsigned char", "short", "unsigned short",
                                          "int", "unsigned int", "float", "long long",
                                          "unsigned long long"};
    static const char *const stems[] = {"?", "char", "uchar", "short", "ushort", "int", "uint",
                                        "float", "longlong", "ulonglong"};
    unsigned s = type_scalar(type), n = type_channels(type);
    if (s > LAT__TEXT_U64)
        s = 0;
    if (n == 1 && !(type & 8))
        snprintf(buf, size, "%s", scalars[s]);
    else
        snprintf(buf, size, "%s%u", stems[s], n);
    return buf;
}

/* ---- failing the launch --------------------------------------------------------------------- */

typedef struct call {
    lat__emu_worker *w;
    const char *family; /* "tex", "surf" */
    const char *suffix; /* "", "read", "write", "fetch" */
    int op;
    unsigned type;
    unsigned long long handle;
    const char *file;
    int line;
} call;

static const char *const shapes[] = {"", "1D", "2D", "3D", "1DLayered", "2DLayered"};

/* "tex2D<float>", "surf2Dwrite<uchar4>", "tex1Dfetch<int>". */
static const char *call_name(const call *c, char *buf, size_t size)
{
    char t[32];
    snprintf(buf, size, "%s%s%s<%s>", c->family,
             c->op >= 1 && c->op <= 5 ? shapes[c->op] : "", c->suffix,
             type_name(c->type, t, sizeof t));
    return buf;
}

static _Noreturn void fail(const call *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static _Noreturn void fail(const call *c, const char *fmt, ...)
{
    lat__emu_worker *w = c->w;
    char what[512], name[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const lat__emu_thread *t = w->cur;
    lat__emu_fail(w, LAT_ERROR_LAUNCH_FAILED,
                  "%s:%d: kernel '%s', block (%u,%u,%u), thread (%u,%u,%u): %s on object 0x%llx: %s",
                  c->file ? c->file : "?", c->line, w->launch->kernel->name, t->block_idx.x,
                  t->block_idx.y, t->block_idx.z, t->thread_idx.x, t->thread_idx.y,
                  t->thread_idx.z, call_name(c, name, sizeof name), c->handle, what);
    if (w->on_fiber)
        lat__exec_abandon(w);
    siglongjmp(w->trap, 1);
}

static const char *shape_of(const lat__emu_texobj *o, char *buf, size_t size)
{
    if (o->res == LAT__TEX_LINEAR)
        snprintf(buf, size, "texture over linear memory");
    else
        snprintf(buf, size, "%d-D%s %s", o->dims, o->layered ? " layered" : "",
                 o->kind == LAT__EMU_OBJ_SURFACE ? "surface" : "texture");
    return buf;
}

/* The object behind c->handle, of the kind and shape the call needs. */
static const lat__emu_texobj *find(const call *c, int kind)
{
    lat_context *ctx = c->w->launch->ctx;
    const char *why = "the launch has no context";
    const lat__emu_texobj *o = ctx ? lat__emu_texobj_find(ctx->impl, c->handle, &why) : NULL;
    if (!o)
        fail(c, "%s", why);
    char shape[64];
    if (o->kind != kind)
        fail(c, "it is a %s object, not a %s object", o->kind == LAT__EMU_OBJ_SURFACE ? "surface" : "texture",
             kind == LAT__EMU_OBJ_SURFACE ? "surface" : "texture");
    if (atomic_load_explicit(&o->orphaned, memory_order_acquire))
        fail(c, "the device memory the texture reads was freed (lat_mem_free) while the texture "
                "was alive");
    bool fetch = c->op == 0;
    bool ok = fetch ? o->res == LAT__TEX_LINEAR
                    : o->res != LAT__TEX_LINEAR &&
                          ((c->op == LAT__TEXOP_1D && o->dims == 1 && !o->layered) ||
                           (c->op == LAT__TEXOP_2D && o->dims == 2 && !o->layered) ||
                           (c->op == LAT__TEXOP_3D && o->dims == 3) ||
                           (c->op == LAT__TEXOP_1D_LAYERED && o->dims == 1 && o->layered) ||
                           (c->op == LAT__TEXOP_2D_LAYERED && o->dims == 2 && o->layered));
    if (!ok) {
        const char *use = o->res == LAT__TEX_LINEAR ? "tex1Dfetch"
                          : o->dims == 3            ? "tex3D / surf3D"
                          : o->layered              ? (o->dims == 1 ? "tex1DLayered / surf1DLayered"
                                                                    : "tex2DLayered / surf2DLayered")
                          : o->dims == 2            ? "tex2D / surf2D"
                                                    : "tex1D / surf1D";
        fail(c, "the object is a %s: read it with %s", shape_of(o, shape, sizeof shape), use);
    }
    return o;
}

/* ---- texels ---------------------------------------------------------------------------------- */

static float half_to_float(uint16_t h)
{
    int e = (h >> 10) & 31;
    unsigned m = h & 1023u;
    float v = e == 0    ? ldexpf((float)m, -24)
              : e == 31 ? (m ? NAN : INFINITY)
                        : ldexpf((float)(m + 1024u), e - 25);
    return (h & 0x8000u) ? -v : v;
}

static const unsigned char *texel_at(const lat__emu_texobj *o, int64_t x, int64_t y, int64_t z,
                                     int64_t layer)
{
    return o->base + (size_t)(layer + z) * o->slice + (size_t)y * o->pitch + (size_t)x * o->elem;
}

/* Channel c of the texel at p, as the float a float read gives. */
static float channel_float(const lat__emu_texobj *o, const unsigned char *p, int c)
{
    switch (o->format) {
    case LAT_FORMAT_U8:
        return (float)p[c] / 255.0f;
    case LAT_FORMAT_I8: {
        float v = (float)(signed char)p[c] / 127.0f;
        return v < -1.0f ? -1.0f : v;
    }
    case LAT_FORMAT_U16: {
        uint16_t v;
        memcpy(&v, p + 2 * c, 2);
        return (float)v / 65535.0f;
    }
    case LAT_FORMAT_I16: {
        int16_t v;
        memcpy(&v, p + 2 * c, 2);
        float f = (float)v / 32767.0f;
        return f < -1.0f ? -1.0f : f;
    }
    case LAT_FORMAT_F16: {
        uint16_t v;
        memcpy(&v, p + 2 * c, 2);
        return half_to_float(v);
    }
    default: {
        float v;
        memcpy(&v, p + 4 * (size_t)c, 4);
        return v;
    }
    }
}

/* Channel c of the texel at p, as the integer bits an element-type read gives. */
static uint64_t channel_bits(const lat__emu_texobj *o, const unsigned char *p, int c)
{
    size_t s = lat_format_size(o->format);
    switch (s) {
    case 1:
        return o->format == LAT_FORMAT_I8 ? (uint64_t)(int64_t)(signed char)p[c] : p[c];
    case 2: {
        uint16_t v;
        memcpy(&v, p + 2 * c, 2);
        return o->format == LAT_FORMAT_I16 ? (uint64_t)(int64_t)(int16_t)v : v;
    }
    default: {
        uint32_t v;
        memcpy(&v, p + 4 * (size_t)c, 4);
        return o->format == LAT_FORMAT_I32 ? (uint64_t)(int64_t)(int32_t)v : v;
    }
    }
}

/* ---- addressing ------------------------------------------------------------------------------- */

/* A texel index in dimension d after its address mode; false: the border. */
static bool resolve(const lat__emu_texobj *o, int d, int64_t i, int64_t *out)
{
    int64_t n = (int64_t)o->size[d];
    if (i >= 0 && i < n) {
        *out = i;
        return true;
    }
    switch (o->address[d]) {
    case LAT_ADDRESS_BORDER:
        return false;
    case LAT_ADDRESS_WRAP:
        *out = ((i % n) + n) % n;
        return true;
    case LAT_ADDRESS_MIRROR: {
        int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
        *out = m < n ? m : 2 * n - 1 - m;
        return true;
    }
    case LAT_ADDRESS_CLAMP:
    default:
        *out = i < 0 ? 0 : n - 1;
        return true;
    }
}

/* The coordinate in texels (normalised coordinates wrapped or mirrored, then scaled). */
static float texel_coord(const lat__emu_texobj *o, int d, float x)
{
    if (!o->normalized_coords)
        return x;
    if (o->address[d] == LAT_ADDRESS_WRAP) {
        x = x - floorf(x);
    } else if (o->address[d] == LAT_ADDRESS_MIRROR) {
        float f = floorf(x);
        x = x - f;
        if (fmodf(f, 2.0f) != 0.0f)
            x = 1.0f - x;
    }
    return x * (float)o->size[d];
}

/* The coordinate in texels that linear filtering weighs, as measured on an H100 (the
 * corners' weights over 2x2x2 textures read outside them): clamp moves it to the first or
 * last texel's centre first, which shows where the weights' rounding does (trilinear
 * reads); mirror is applied to the two texels' indices, not to the coordinate, which
 * shows where the coordinate is half way between multiples of 1/256. */
static float filter_coord(const lat__emu_texobj *o, int d, float x)
{
    float u = o->normalized_coords && o->address[d] == LAT_ADDRESS_MIRROR ? x * (float)o->size[d]
                                                                         : texel_coord(o, d, x);
    if (o->address[d] == LAT_ADDRESS_CLAMP) {
        float last = (float)o->size[d] - 0.5f;
        u = u < 0.5f ? 0.5f : u > last ? last : u; /* NaN stays NaN: bounded() reads texel 0 */
    }
    return u;
}

/* Bounds a coordinate so that integer conversions stay defined (NaN reads texel 0). */
static double bounded(double x)
{
    if (x != x)
        return 0.0;
    return x < -1e12 ? -1e12 : x > 1e12 ? 1e12 : x;
}

/* Linear filtering along one dimension: the first texel's index and the weight of the
 * second in 1/256 (0..255). The coordinate in 1/256 of a texel rounds ties up, as an
 * H100 does (a probe of 1/8192 steps: 0.5/256 gives 1/256, 2.5/256 gives 3/256). */
static void linear_axis(float x, int64_t *i0, int *a)
{
    double q = floor(bounded((double)x) * 256.0 - 128.0 + 0.5); /* (x - 0.5) in 1/256 texel */
    double i = floor(q / 256.0);
    *i0 = (int64_t)i;
    *a = (int)(q - i * 256.0);
}

/* Splits a weight w (in 1/256) by the fraction a of the next dimension: the part of the
 * upper texel, rounded to 1/256 with ties up or down. */
static int split_upper(int w, int a, bool ties_up)
{
    return (w * a + (ties_up ? 128 : 127)) >> 8;
}

/* The corners' weights in 1/256 (corner bit d set: the upper texel in dimension d). They
 * are not the products of the per-dimension weights, each rounded: measured on an H100
 * (every corner of 2x2 and 2x2x2 textures holding a single 1, 20,000 random fractions),
 * the hardware splits the whole weight one dimension at a time - z first, then x, then
 * y - rounding the upper part to 1/256 and giving the rest to the lower, so the weights
 * always sum to 1. Ties round up, except the y split of a lower-x weight, which rounds
 * them down (in 2-D: w11 = round(ax * ay), w10 = ax - w11, w01 = ay - w11). */
static void linear_weights(int dims, const int a[3], int weight[8])
{
    if (dims == 1) {
        weight[0] = 256 - a[0];
        weight[1] = a[0];
        return;
    }
    int z_parts = dims == 3 ? 2 : 1;
    for (int zb = 0; zb < z_parts; zb++) {
        int wz = dims == 3 ? (zb ? a[2] : 256 - a[2]) : 256;
        int x1 = dims == 3 ? split_upper(wz, a[0], true) : a[0];
        int x0 = wz - x1;
        int y_of_x1 = split_upper(x1, a[1], true), y_of_x0 = split_upper(x0, a[1], false);
        weight[zb * 4 + 0] = x0 - y_of_x0;
        weight[zb * 4 + 1] = x1 - y_of_x1;
        weight[zb * 4 + 2] = y_of_x0;
        weight[zb * 4 + 3] = y_of_x1;
    }
}

/* A float rounded to half precision, to nearest with ties away from zero, as an H100's
 * filtered reads of half texels are (1024.5 reads 1025, -1024.5 reads -1025). */
static double round_to_half_away(double v)
{
    if (!(fabs(v) < 65520.0)) /* inf, NaN, and what rounds to inf */
        return v != v ? v : copysign(INFINITY, v);
    int e;
    frexp(v, &e);                          /* |v| in [2^(e-1), 2^e) */
    int step_exp = (e - 1 < -14 ? -14 : e - 1) - 10; /* 10 fraction bits; subnormals below 2^-14 */
    double step = ldexp(1.0, step_exp);
    double m = fabs(v) / step;             /* exact: a power-of-two scale */
    return copysign(floor(m + 0.5) * step, v);
}

/* ---- reads ------------------------------------------------------------------------------------ */

/* Checks that the texture can give type T. */
static void check_type(const call *c, const lat__emu_texobj *o)
{
    bool float_read = o->normalized_read || o->format == LAT_FORMAT_F32 || o->format == LAT_FORMAT_F16;
    unsigned s = type_scalar(c->type);
    char t[32], want[32];
    if (float_read && s != LAT__TEXT_F32) {
        type_name((c->type & ~0xf0u) | (LAT__TEXT_F32 << 4), want, sizeof want);
        fail(c, "the texture's reads are float (%s texels%s): read it as %s, not %s",
             lat_format_name(o->format), o->normalized_read ? " read as normalised floats" : "",
             want, type_name(c->type, t, sizeof t));
    }
    if (!float_read && (s == LAT__TEXT_F32 || scalar_size(s) != lat_format_size(o->format)))
        fail(c, "the texture's reads are %s integers (LAT_READ_ELEMENT_TYPE), not %s%s",
             lat_format_name(o->format), type_name(c->type, t, sizeof t),
             o->format == LAT_FORMAT_U8 || o->format == LAT_FORMAT_I8 || o->format == LAT_FORMAT_U16 ||
                     o->format == LAT_FORMAT_I16
                 ? " (LAT_READ_NORMALIZED_FLOAT reads them as floats)"
                 : "");
}

/* Stores a texel's channels into out as type T: channels the texture lacks are 0, and 1
 * for the fourth (w), as the GPU gives them. */
static void store_float(void *out, unsigned type, const double v[4], int channels)
{
    float r[4];
    for (int k = 0; k < 4; k++)
        r[k] = k < channels ? (float)v[k] : k == 3 ? 1.0f : 0.0f;
    memcpy(out, r, sizeof(float) * type_channels(type));
}

static void store_bits(void *out, unsigned type, const uint64_t v[4], int channels)
{
    size_t s = scalar_size(type_scalar(type));
    unsigned char *p = out;
    for (unsigned k = 0; k < type_channels(type); k++) {
        uint64_t x = (int)k < channels ? v[k] : k == 3 ? 1 : 0;
        /* Little-endian: the low bytes are the value truncated to the type. */
        memcpy(p + k * s, &x, s);
    }
}

/* The texel at integer indices for a float read (border colour outside). */
static void fetch_float(const lat__emu_texobj *o, const int64_t idx[3], bool inside, int64_t layer,
                        double v[4])
{
    for (int k = 0; k < 4; k++) {
        if (!inside)
            v[k] = o->border[k];
        else if (k < o->channels)
            v[k] = channel_float(o, texel_at(o, idx[0], idx[1], idx[2], layer), k);
        else
            v[k] = 0.0;
    }
}

void lat__emu_tex_read(void *out, unsigned type, unsigned long long handle, int op, float x,
                       float y, float z, int layer, const char *file, int line)
{
    lat__emu_worker *w = lat__emu_current_worker();
    if (!w) { /* not from a launch: nothing to read */
        memset(out, 0, type_size(type));
        return;
    }
    call c = {w, "tex", "", op, type, handle, file, line};
    const lat__emu_texobj *o = find(&c, LAT__EMU_OBJ_TEXTURE);
    check_type(&c, o);
    int n = o->dims;
    float coord[3] = {x, y, z};
    int64_t lay = 0;
    if (o->layered)
        lay = layer < 0 ? 0 : (uint64_t)layer >= o->layers ? (int64_t)o->layers - 1 : layer;
    if (o->filter == LAT_FILTER_POINT) {
        int64_t idx[3] = {0, 0, 0};
        bool inside = true;
        for (int d = 0; d < n; d++) {
            double u = bounded((double)texel_coord(o, d, coord[d]));
            inside &= resolve(o, d, (int64_t)floor(u), &idx[d]);
        }
        if (o->normalized_read || o->format == LAT_FORMAT_F32 || o->format == LAT_FORMAT_F16) {
            double v[4];
            fetch_float(o, idx, inside, lay, v);
            store_float(out, type, v, o->channels);
        } else {
            uint64_t v[4];
            for (int k = 0; k < 4; k++) {
                if (!inside) {
                    uint32_t bits;
                    memcpy(&bits, &o->border[k], 4);
                    v[k] = bits;
                } else {
                    v[k] = k < o->channels ? channel_bits(o, texel_at(o, idx[0], idx[1], idx[2], lay), k) : 0;
                }
            }
            store_bits(out, type, v, o->channels);
        }
        return;
    }
    /* Linear filtering: 2, 4 or 8 texels. */
    int64_t i0[3] = {0, 0, 0};
    int a[3] = {0, 0, 0};
    for (int d = 0; d < n; d++)
        linear_axis(filter_coord(o, d, coord[d]), &i0[d], &a[d]);
    int weight[8];
    linear_weights(n, a, weight);
    double acc[4] = {0, 0, 0, 0};
    for (int corner = 0; corner < (1 << n); corner++) {
        if (weight[corner] == 0)
            continue; /* a texel of weight 0 does not count, not even an infinite one */
        int64_t idx[3] = {0, 0, 0};
        bool inside = true;
        for (int d = 0; d < n; d++)
            inside &= resolve(o, d, i0[d] + ((corner >> d) & 1), &idx[d]);
        double v[4];
        fetch_float(o, idx, inside, lay, v);
        for (int k = 0; k < 4; k++)
            acc[k] += weight[corner] / 256.0 * v[k];
    }
    if (o->format == LAT_FORMAT_F16 && !o->normalized_read)
        for (int k = 0; k < 4; k++)
            acc[k] = round_to_half_away(acc[k]);
    store_float(out, type, acc, o->channels);
}

void lat__emu_tex_fetch(void *out, unsigned type, unsigned long long handle, int i,
                        const char *file, int line)
{
    lat__emu_worker *w = lat__emu_current_worker();
    if (!w) {
        memset(out, 0, type_size(type));
        return;
    }
    call c = {w, "tex1Dfetch", "", 0, type, handle, file, line};
    const lat__emu_texobj *o = find(&c, LAT__EMU_OBJ_TEXTURE);
    check_type(&c, o);
    if (i < 0 || (uint64_t)i >= o->size[0]) { /* outside: zero, as the GPU reads it */
        memset(out, 0, type_size(type));
        return;
    }
    const unsigned char *p = texel_at(o, i, 0, 0, 0);
    if (o->normalized_read || o->format == LAT_FORMAT_F32 || o->format == LAT_FORMAT_F16) {
        double v[4];
        for (int k = 0; k < 4; k++)
            v[k] = k < o->channels ? channel_float(o, p, k) : 0.0;
        store_float(out, type, v, o->channels);
    } else {
        uint64_t v[4];
        for (int k = 0; k < 4; k++)
            v[k] = k < o->channels ? channel_bits(o, p, k) : 0;
        store_bits(out, type, v, o->channels);
    }
}

/* ---- surfaces ----------------------------------------------------------------------------------- */

/* The address of a surface access, or NULL for one that reads zero / writes nothing. */
static unsigned char *surface_at(const call *c, const lat__emu_texobj *o, int x, int y, int z,
                                 int mode)
{
    int64_t sz = (int64_t)type_size(c->type);
    if (mode < 0 || mode > 2)
        fail(c, "boundary mode %d is not a cudaSurfaceBoundaryMode (cudaBoundaryModeZero, "
                "cudaBoundaryModeClamp or cudaBoundaryModeTrap)", mode);
    if (x % sz != 0)
        fail(c, "x = %d bytes is not a multiple of the %lld bytes it accesses (a surface's x is "
                "in bytes: texel index * sizeof(T))", x, (long long)sz);
    if ((uint64_t)sz > o->size[0] * o->elem)
        fail(c, "it accesses %lld bytes, more than a row of the surface holds (%llu texels of "
                "%zu bytes)", (long long)sz, (unsigned long long)o->size[0], o->elem);
    /* The op's coordinates, in order: x (bytes), then y, z or the layer; each with the
     * largest value it may take and what it moves by. */
    struct {
        const char *name;
        int64_t at, max;
        size_t step;
    } v[3];
    int n = 0;
    v[n++] = (__typeof__(v[0])){"x", x, (int64_t)(o->size[0] * o->elem) - sz, 1};
    if (c->op == LAT__TEXOP_2D || c->op == LAT__TEXOP_3D || c->op == LAT__TEXOP_2D_LAYERED)
        v[n++] = (__typeof__(v[0])){"y", y, (int64_t)o->size[1] - 1, o->pitch};
    if (c->op == LAT__TEXOP_3D)
        v[n++] = (__typeof__(v[0])){"z", z, (int64_t)o->size[2] - 1, o->slice};
    if (c->op == LAT__TEXOP_1D_LAYERED)
        v[n++] = (__typeof__(v[0])){"layer", y, (int64_t)o->layers - 1, o->slice};
    if (c->op == LAT__TEXOP_2D_LAYERED)
        v[n++] = (__typeof__(v[0])){"layer", z, (int64_t)o->layers - 1, o->slice};
    bool inside = true;
    for (int d = 0; d < n; d++)
        inside &= v[d].at >= 0 && v[d].at <= v[d].max;
    if (!inside) {
        if (mode == 0)
            return NULL;
        if (mode == 2) {
            char where[128] = "", shape[64];
            int len = 0;
            for (int d = 0; d < n && len < (int)sizeof where; d++)
                len += snprintf(where + len, sizeof where - (size_t)len, "%s%s = %lld%s",
                                d ? ", " : "", v[d].name, (long long)v[d].at,
                                d ? "" : " bytes");
            fail(c, "(%s) is outside the %s of %llu x %llu x %llu texels of %zu bytes, %llu "
                    "layer%s (cudaBoundaryModeTrap)",
                 where, shape_of(o, shape, sizeof shape), (unsigned long long)o->size[0],
                 (unsigned long long)o->size[1], (unsigned long long)o->size[2], o->elem,
                 (unsigned long long)o->layers, o->layers == 1 ? "" : "s");
        }
        for (int d = 0; d < n; d++)
            v[d].at = v[d].at < 0 ? 0 : v[d].at > v[d].max ? v[d].max : v[d].at;
        v[0].at -= v[0].at % sz;
    }
    unsigned char *p = (unsigned char *)o->base;
    for (int d = 0; d < n; d++)
        p += (size_t)v[d].at * v[d].step;
    return p;
}

void lat__emu_surf_read(void *out, unsigned type, unsigned long long handle, int op, int x,
                        int y, int z, int mode, const char *file, int line)
{
    lat__emu_worker *w = lat__emu_current_worker();
    size_t sz = type_size(type);
    if (!w) {
        memset(out, 0, sz);
        return;
    }
    call c = {w, "surf", "read", op, type, handle, file, line};
    const lat__emu_texobj *o = find(&c, LAT__EMU_OBJ_SURFACE);
    const unsigned char *p = surface_at(&c, o, x, y, z, mode);
    if (p)
        memcpy(out, p, sz);
    else
        memset(out, 0, sz);
}

void lat__emu_surf_write(const void *in, unsigned type, unsigned long long handle, int op,
                         int x, int y, int z, int mode, const char *file, int line)
{
    lat__emu_worker *w = lat__emu_current_worker();
    if (!w)
        return;
    call c = {w, "surf", "write", op, type, handle, file, line};
    const lat__emu_texobj *o = find(&c, LAT__EMU_OBJ_SURFACE);
    unsigned char *p = surface_at(&c, o, x, y, z, mode);
    if (p)
        memcpy(p, in, type_size(type));
}
