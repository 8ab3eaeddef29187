"""The kernels lattice.pycuda's arrays are made of: CUDA C written here for each operation,
element types and memory layout, compiled once per context (lattice's ElementwiseKernel)
and launched on the context's backend. Nothing is computed on the host.

An operation is a C statement over element references. Arrays that share one memory order
(all C-contiguous, or all F-contiguous, of one shape) are indexed by the loop's i; any
other layout (views with steps, transposes, broadcast operands) finds each element's byte
offset from its strides, so every operation works on every view as NumPy's would.

Complex numbers are structs of two floats or doubles in the generated code (lat_c64_t,
lat_c128_t: NumPy's layout and alignment, so a complex view at any element offset loads
on a GPU too, where float2/double2 would need 8- and 16-byte alignment), with the helper
functions of ``complex_preamble`` (lat_c64_* and lat_c128_*).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

import numpy as np

from .. import array as _array

_CTYPE = {
    np.dtype(np.bool_): "unsigned char", np.dtype(np.int8): "signed char",
    np.dtype(np.uint8): "unsigned char", np.dtype(np.int16): "short",
    np.dtype(np.uint16): "unsigned short", np.dtype(np.int32): "int",
    np.dtype(np.uint32): "unsigned int", np.dtype(np.int64): "long long",
    np.dtype(np.uint64): "unsigned long long", np.dtype(np.float32): "float",
    np.dtype(np.float64): "double", np.dtype(np.complex64): "lat_c64_t",
    np.dtype(np.complex128): "lat_c128_t",
}


_STORAGE_ONLY = (np.dtype(np.float16),)

# Flags that choose how a kernel is compiled, not what it computes: lattice's generated
# kernels take them as given (on the emulator they change nothing; the array layer's
# kernels on a GPU keep full precision where -use_fast_math would trade it).
_CODEGEN_FLAGS = re.compile(r"^(--?use_fast_math|-O\d?|--?lineinfo|-G|--?device-debug|-g|-w|"
                            r"--?disable-warnings|-std=.*|--std=.*|-arch=.*|--?gpu-architecture=.*|"
                            r"-code=.*|-maxrregcount=.*|--?ftz=.*|--?prec-div=.*|"
                            r"--?prec-sqrt=.*|--?fmad=.*|--?extra-device-vectorization|"
                            r"-Xptxas.*|--ptxas-options.*|--?restrict|-rdc=false|"
                            r"--?relocatable-device-code=false)$")


def options_preamble(options: Any, what: str) -> str:
    """nvcc's -D/-U (and --define-macro/--undefine-macro) as the #define and #undef lines
    they mean, for the PyCUDA kernel builders that take ``options=`` and compile through
    lattice's array layer (which has no compiler flags). A flag that would change what the
    kernel computes and that such a line cannot say (-I, -include) raises
    NotImplementedError naming it, instead of being dropped."""
    if options is None:
        return ""
    if isinstance(options, str):
        options = [options]
    opts = [str(o) for o in options]
    lines = []
    i = 0
    while i < len(opts):
        o = opts[i]
        m = re.match(r"^(-D|--define-macro=?|-U|--undefine-macro=?)(.*)$", o)
        if m:
            arg = m.group(2)
            if not arg:
                i += 1
                if i == len(opts):
                    raise ValueError(f"{what}: option {o} needs a macro name after it")
                arg = opts[i]
            if m.group(1).startswith(("-U", "--undefine")):
                lines.append(f"#undef {arg}")
            else:
                name, eq, value = arg.partition("=")
                lines.append(f"#define {name} {value if eq else '1'}")
        elif o in ("-Xptxas", "--ptxas-options", "-arch", "-code", "--gpu-architecture",
                   "-maxrregcount"):
            i += 1  # its argument is the next word
        elif not _CODEGEN_FLAGS.match(o):
            raise NotImplementedError(f"{what}: lattice cannot honour the compiler option "
                                      f"{o!r} here (it takes -D and -U, and flags that only "
                                      "choose how the code is generated); use SourceModule, "
                                      "which takes it")
        i += 1
    return "".join(line + "\n" for line in lines)


class DtypeError(TypeError, ValueError):
    """A dtype lattice.pycuda's kernels do not compute with. A TypeError, as NumPy's for a
    dtype an operation has no loop for; and a ValueError, as PyCUDA's ``dtype_to_ctype``
    raises for a dtype it cannot map ("unable to map dtype 'float16'"), which programs
    catch."""


def _no_compute(dt: np.dtype) -> TypeError:
    return DtypeError(f"lattice.pycuda computes nothing with {dt} elements (it holds them, "
                     "copies them and passes them to your kernels): convert on the host or "
                     "in a kernel of your own")


def check_dtype(dtype: Any) -> np.dtype:
    """The dtype, if lattice's kernels compute with it; TypeError naming it otherwise."""
    dt = np.dtype(dtype)
    if dt in _CTYPE or (dt.kind == "V" and dt.itemsize > 0 and not dt.hasobject):
        return dt
    if dt in _STORAGE_ONLY:
        raise _no_compute(dt)
    if not dt.isnative and dt.newbyteorder("=") in _CTYPE:
        # Data read from files (FITS, network formats) is often big-endian; a kernel would
        # read its bytes swapped.
        raise DtypeError(f"lattice.pycuda arrays hold the machine's byte order, not {dt.str} "
                        f"({dt.newbyteorder('=')} with its bytes swapped): convert first "
                        "with a.astype(a.dtype.newbyteorder('='))")
    raise DtypeError(f"lattice.pycuda arrays cannot hold {dt} (bool, int8..int64, "
                    "uint8..uint64, float32, float64, complex64, complex128, or a struct "
                    "of those, such as gpuarray.vec.float3)")


def check_storage_dtype(dtype: Any) -> np.dtype:
    """The dtype, if a GPUArray can hold it: check_dtype's, and float16 as storage only
    (copied, viewed, filled and passed to kernels, as PyCUDA's arrays of it are; an
    operation that computes with its elements raises TypeError)."""
    dt = np.dtype(dtype)
    return dt if dt in _STORAGE_ONLY else check_dtype(dt)


def ctype(dt: np.dtype) -> str:
    """The C type an element is stored as (structs: a byte struct of their size)."""
    c = _CTYPE.get(dt)
    if c is None:
        if dt.kind == "V":
            return f"lat_bytes{dt.itemsize}"
        if dt in _STORAGE_ONLY:
            raise _no_compute(dt)
        raise DtypeError(f"no kernel type for {dt}")
    return c


def real_of(dt: np.dtype) -> np.dtype:
    """The real type of a complex type (the type itself otherwise)."""
    if dt.kind == "c":
        return np.dtype(np.float32 if dt == np.complex64 else np.float64)
    return dt


def _zname(dt: np.dtype) -> str:
    return "lat_c64" if dt == np.complex64 else "lat_c128"


def complex_preamble(t: str) -> str:
    """The complex type and its helper functions, of float (t="float") or double."""
    z, f = ("lat_c64", "f") if t == "float" else ("lat_c128", "")
    v = z + "_t"
    mk = "make_" + v
    inv_ln10 = "0.43429448190325182765"
    return f"""
typedef struct {{ {t} x, y; }} {v};
static __device__ __forceinline__ {v} {mk}({t} x, {t} y) {{ {v} r; r.x = x; r.y = y; return r; }}
static __device__ __forceinline__ {v} {z}_add({v} a, {v} b) {{ return {mk}(a.x + b.x, a.y + b.y); }}
static __device__ __forceinline__ {v} {z}_sub({v} a, {v} b) {{ return {mk}(a.x - b.x, a.y - b.y); }}
static __device__ __forceinline__ {v} {z}_mul({v} a, {v} b) {{ return {mk}(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }}
static __device__ __forceinline__ {v} {z}_div({v} a, {v} b)
{{
    if (fabs{f}(b.x) >= fabs{f}(b.y)) {{
        if (b.x == 0 && b.y == 0)
            return {mk}(a.x / fabs{f}(b.x), a.y / fabs{f}(b.y));
        const {t} r = b.y / b.x, d = b.x + b.y * r;
        return {mk}((a.x + a.y * r) / d, (a.y - a.x * r) / d);
    }}
    const {t} r = b.x / b.y, d = b.x * r + b.y;
    return {mk}((a.x * r + a.y) / d, (a.y * r - a.x) / d);
}}
static __device__ __forceinline__ {v} {z}_neg({v} a) {{ return {mk}(-a.x, -a.y); }}
static __device__ __forceinline__ {v} {z}_conj({v} a) {{ return {mk}(a.x, -a.y); }}
static __device__ __forceinline__ {t} {z}_abs({v} a) {{ return hypot{f}(a.x, a.y); }}
static __device__ __forceinline__ int {z}_eq({v} a, {v} b) {{ return a.x == b.x && a.y == b.y; }}
static __device__ __forceinline__ int {z}_lt({v} a, {v} b) {{ return a.x < b.x || (a.x == b.x && a.y < b.y); }}
static __device__ __forceinline__ int {z}_nz({v} a) {{ return a.x != 0 || a.y != 0; }}
static __device__ __forceinline__ {v} {z}_exp({v} a) {{ const {t} e = exp{f}(a.x); return {mk}(e * cos{f}(a.y), e * sin{f}(a.y)); }}
static __device__ __forceinline__ {v} {z}_log({v} a) {{ return {mk}(log{f}(hypot{f}(a.x, a.y)), atan2{f}(a.y, a.x)); }}
static __device__ __forceinline__ {v} {z}_log10({v} a) {{ const {v} l = {z}_log(a); return {mk}(l.x * ({t}){inv_ln10}, l.y * ({t}){inv_ln10}); }}
static __device__ __forceinline__ {v} {z}_sqrt({v} a)
{{
    if (a.x == 0 && a.y == 0)
        return {mk}(0, a.y);
    const {t} s = sqrt{f}((fabs{f}(a.x) + hypot{f}(a.x, a.y)) * ({t})0.5);
    if (a.x >= 0)
        return {mk}(s, a.y / (2 * s));
    return {mk}(fabs{f}(a.y) / (2 * s), copysign{f}(s, a.y));
}}
static __device__ __forceinline__ {v} {z}_sin({v} a) {{ return {mk}(sin{f}(a.x) * cosh{f}(a.y), cos{f}(a.x) * sinh{f}(a.y)); }}
static __device__ __forceinline__ {v} {z}_cos({v} a) {{ return {mk}(cos{f}(a.x) * cosh{f}(a.y), -sin{f}(a.x) * sinh{f}(a.y)); }}
static __device__ __forceinline__ {v} {z}_tan({v} a)
{{
    const {t} d = cos{f}(2 * a.x) + cosh{f}(2 * a.y);
    return {mk}(sin{f}(2 * a.x) / d, sinh{f}(2 * a.y) / d);
}}
static __device__ __forceinline__ {v} {z}_sinh({v} a) {{ return {mk}(sinh{f}(a.x) * cos{f}(a.y), cosh{f}(a.x) * sin{f}(a.y)); }}
static __device__ __forceinline__ {v} {z}_cosh({v} a) {{ return {mk}(cosh{f}(a.x) * cos{f}(a.y), sinh{f}(a.x) * sin{f}(a.y)); }}
static __device__ __forceinline__ {v} {z}_tanh({v} a)
{{
    const {t} d = cosh{f}(2 * a.x) + cos{f}(2 * a.y);
    return {mk}(sinh{f}(2 * a.x) / d, sin{f}(2 * a.y) / d);
}}
static __device__ __forceinline__ {v} {z}_pow({v} a, {v} b)
{{
    if (a.x == 0 && a.y == 0)
        return (b.x == 0 && b.y == 0) ? {mk}(1, 0) : {mk}(0, 0);
    return {z}_exp({z}_mul(b, {z}_log(a)));
}}
"""


def int_preamble(c: str) -> str:
    """Python's floor division, modulo and power for the integer C type c (NumPy's
    integer semantics: a zero divisor gives 0)."""
    n = c.replace(" ", "_")
    return f"""
static __device__ __forceinline__ {c} lat_floordiv_{n}({c} a, {c} b)
{{
    if (b == 0)
        return 0;
    {c} q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0)))
        q -= 1;
    return q;
}}
static __device__ __forceinline__ {c} lat_mod_{n}({c} a, {c} b)
{{
    if (b == 0)
        return 0;
    {c} r = a % b;
    if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
    return r;
}}
static __device__ __forceinline__ {c} lat_ipow_{n}({c} a, {c} b)
{{
    {c} r = 1;
    while (b > 0) {{
        if (b & 1)
            r *= a;
        a *= a;
        b >>= 1;
    }}
    return r;
}}
"""


def float_preamble(t: str) -> str:
    f = "f" if t == "float" else ""
    n = t
    return f"""
static __device__ __forceinline__ {t} lat_fmod_{n}({t} a, {t} b)
{{
    {t} r = fmod{f}(a, b);
    if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
    else if (r == 0)
        r = copysign{f}(({t})0, b);
    return r;
}}
static __device__ __forceinline__ {t} lat_floordiv_{n}({t} a, {t} b)
{{
    if (b == 0)
        return a / b;
    const {t} m = fmod{f}(a, b);
    {t} d = (a - m) / b;
    if (m != 0 && ((b < 0) != (m < 0)))
        d -= 1;
    if (d != 0) {{
        {t} fl = floor{f}(d);
        if (d - fl > ({t})0.5)
            fl += 1;
        d = fl;
    }} else
        d = copysign{f}(({t})0, a / b);
    return d;
}}
"""


class Code:
    """The preamble pieces a kernel needs, gathered while its body is written."""

    def __init__(self) -> None:
        self.parts: dict[str, str] = {}

    def need_complex(self, dt: np.dtype) -> None:
        if dt == np.complex64:
            self.parts.setdefault("c64", complex_preamble("float"))
        elif dt == np.complex128:
            self.parts.setdefault("c128", complex_preamble("double"))

    def need_int(self, dt: np.dtype) -> str:
        c = ctype(dt)
        self.parts.setdefault("i:" + c, int_preamble(c))
        return c.replace(" ", "_")

    def need_float(self, dt: np.dtype) -> str:
        c = ctype(dt)
        self.parts.setdefault("f:" + c, float_preamble(c))
        return c

    def need_bytes(self, dt: np.dtype) -> None:
        if dt.kind == "V":
            n = dt.itemsize
            self.parts.setdefault(f"b{n}",
                                  f"typedef struct {{ unsigned char b[{n}]; }} lat_bytes{n};\n")

    def text(self) -> str:
        return "".join(self.parts.values())

    # -- values ---------------------------------------------------------------------------
    def cast(self, e: str, src: np.dtype, dst: np.dtype) -> str:
        """C expression of value e (of type src) converted as NumPy's astype converts."""
        if src == dst:
            return e
        if dst.kind == "c":
            self.need_complex(dst)
            t = ctype(real_of(dst))
            if src.kind == "c":
                self.need_complex(src)
                return f"make_{ctype(dst)}(({t})({e}).x, ({t})({e}).y)"
            if src == np.bool_:
                e = f"(({e}) != 0)"
            return f"make_{ctype(dst)}(({t})({e}), ({t})0)"
        if src.kind == "c":
            self.need_complex(src)
            if dst == np.bool_:
                return f"(unsigned char){_zname(src)}_nz({e})"
            e = f"({e}).x"
            src = real_of(src)
        if dst == np.bool_:
            return f"(unsigned char)(({e}) != 0)"
        if src == np.bool_:
            e = f"(({e}) != 0)"
        return f"({ctype(dst)})({e})"

    def nonzero(self, e: str, dt: np.dtype) -> str:
        if dt.kind == "c":
            self.need_complex(dt)
            return f"{_zname(dt)}_nz({e})"
        return f"(({e}) != 0)"


# ----------------------------------------------------------------------------------------
# Launching
# ----------------------------------------------------------------------------------------

_cache: dict = {}


def _kernel(ctx: Any, args: str, body: str, name: str, preamble: str) -> Any:
    key = (id(ctx), args, body, preamble)
    k = _cache.get(key)
    if k is None or not ctx.alive:
        k = _cache[key] = _array.ElementwiseKernel(args, body, name, preamble=preamble,
                                                   context=ctx)
    return k


def _same_order(arrays: Sequence[Any], shape: tuple) -> bool:
    """Whether element i of every array is its i-th in memory (one shape, one order)."""
    if all(a.flags.c_contiguous and a.shape == shape for a in arrays):
        return True
    return all(a.flags.f_contiguous and a.shape == shape for a in arrays)


def launch(name: str, outs: Sequence[Any], ins: Sequence[Any], scalars: Sequence[Any],
           body: Callable[..., str], code: Code | None = None, n: int | None = None) -> None:
    """Runs `body` for every element of outs[0]'s shape.

    outs: arrays written (that shape); ins: arrays read, broadcast to it as NumPy does;
    scalars: NumPy scalars (their C type is their dtype's; complex ones pass as two reals).
    body(o, a, s) gets C lvalues of the outputs' elements, rvalues of the inputs' elements
    and the scalars' expressions, and returns the C statement(s) of one element.
    """
    code = code or Code()
    shape = tuple(outs[0].shape)
    total = int(np.prod(shape, dtype=np.int64)) if n is None else n
    if total == 0:
        return
    if n is None:
        ins = [_unaliased(a, outs) for a in ins]
    ctx = outs[0]._ctx
    params: list[str] = []
    argv: list[Any] = []
    for j, a in enumerate(outs):
        code.need_bytes(a.dtype)
        code.need_complex(a.dtype)
        params.append(f"{ctype(a.dtype)} *o{j}")
        argv.append(a)
    for j, a in enumerate(ins):
        code.need_bytes(a.dtype)
        code.need_complex(a.dtype)
        params.append(f"const {ctype(a.dtype)} *a{j}")
        argv.append(a)
    sexprs = []
    for j, s in enumerate(scalars):
        dt = s.dtype
        if dt.kind == "c":
            code.need_complex(dt)
            rt = ctype(real_of(dt))
            params += [f"{rt} s{j}r", f"{rt} s{j}i"]
            argv += [s.real.astype(real_of(dt))[()], s.imag.astype(real_of(dt))[()]]
            sexprs.append(f"make_{ctype(dt)}(s{j}r, s{j}i)")
        else:
            c = ctype(dt) if dt != np.bool_ else "int"
            params.append(f"{c} s{j}")
            argv.append(np.int32(s) if dt == np.bool_ else s)
            sexprs.append(f"s{j}")
    full = [a for a in ins if a.size != 1 or a.shape == shape]
    if n is not None or _same_order(list(outs) + full, shape):
        oref = [f"o{j}[i]" for j in range(len(outs))]
        aref = [f"a{j}[i]" if (a.size != 1 or a.shape == shape) else f"a{j}[0]"
                for j, a in enumerate(ins)]
        text = body(oref, aref, sexprs)
    else:
        nd = len(shape)
        params += [f"long long d{k}" for k in range(nd)]
        argv += [np.int64(d) for d in shape]
        allarr = list(outs) + list(ins)
        for j, a in enumerate(allarr):
            st = _broadcast_strides(a, shape)
            params += [f"long long t{j}_{k}" for k in range(nd)]
            argv += [np.int64(s) for s in st]
        lines = ["long long r_ = (long long)i, q_;"]
        lines.append("long long " + ", ".join(f"p{j}_ = 0" for j in range(len(allarr))) + ";")
        for k in reversed(range(nd)):
            lines.append(f"q_ = r_ % d{k}; r_ /= d{k};")
            lines.append(" ".join(f"p{j}_ += q_ * t{j}_{k};" for j in range(len(allarr))))
        oref = [f"(*({ctype(a.dtype)} *)((char *)o{j} + p{j}_))" for j, a in enumerate(outs)]
        aref = [f"(*(const {ctype(a.dtype)} *)((const char *)a{j} + p{len(outs) + j}_))"
                for j, a in enumerate(ins)]
        text = "{ " + " ".join(lines) + " " + body(oref, aref, sexprs) + " }"
    k = _kernel(ctx, ", ".join(params), text, name, code.text())
    k(*argv, n=total)


def _extent(a: Any) -> tuple[int, int]:
    """The bytes [lo, hi) an array's elements occupy."""
    lo = hi = a.ptr
    for d, st in zip(a.shape, a.strides):
        if d > 1:
            if st < 0:
                lo += (d - 1) * st
            else:
                hi += (d - 1) * st
    return lo, hi + a.dtype.itemsize


def _unaliased(a: Any, outs: Sequence[Any]) -> Any:
    """a, or a copy of it when an output shares its memory in another layout: the
    kernel's threads would read elements that others have already written (NumPy
    buffers such operands; so does lattice, before the launch)."""
    if a.size == 0:
        return a
    lo, hi = _extent(a)
    for o in outs:
        if o.size == 0:
            continue
        olo, ohi = _extent(o)
        if lo < ohi and olo < hi:
            if o.ptr == a.ptr and o.shape == a.shape and o.strides == a.strides and \
                    o.dtype.itemsize == a.dtype.itemsize:
                continue  # each element is read, then written, by one thread
            return a.copy()
    return a


def _broadcast_strides(a: Any, shape: tuple) -> tuple:
    """a's byte strides as seen from `shape` (0 along broadcast axes)."""
    nd = len(shape)
    pad = nd - a.ndim
    if pad < 0:
        raise ValueError(f"cannot broadcast shape {a.shape} to {shape}")
    st = []
    for k in range(nd):
        if k < pad:
            st.append(0)
            continue
        d = a.shape[k - pad]
        if d == shape[k]:
            st.append(a.strides[k - pad] if d != 1 else 0)
        elif d == 1:
            st.append(0)
        else:
            raise ValueError(f"operands could not be broadcast together: {a.shape} to {shape}")
    return tuple(st)


# ----------------------------------------------------------------------------------------
# Reductions
# ----------------------------------------------------------------------------------------

# On the emulator a block's threads run one after another, so a tree of barriers and
# shuffles costs far more than the loads: there a reduction is a few single-thread
# blocks, each folding one contiguous chunk (in four contiguous parts, for independent
# chains), and one thread folding the chunks' partials in order. Values combine in index
# order within each part, so an associative, commutative operator gives the tree's
# result up to float rounding. Elsewhere (a GPU, the cross-checking backend) it is
# lattice's reduction generator, which reduces the C element types; a struct or complex
# result type (a ReductionKernel's dtype_out, by its registered C name) takes the chunked
# form there too, with many more chunks.
_SERIAL_REDUCE = r"""
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
PREAMBLE
typedef CTYPE lat_red_t;
static __device__ __forceinline__ lat_red_t lat_red_op(lat_red_t a, lat_red_t b) { return (REDUCE); }
/* Converts as initialisation does (a struct or complex result type has constructors). */
static __device__ __forceinline__ lat_red_t lat_red_v(lat_red_t v) { return v; }
extern "C" __global__ void lat_red_stage1(ARGUMENTS, unsigned long long n,
                                          unsigned long long chunk, lat_red_t *lat_partial)
{
    const unsigned long long s = (unsigned long long)blockIdx.x * chunk;
    const unsigned long long e = s + chunk < n ? s + chunk : n;
    if (threadIdx.x != 0)
        return;
    lat_red_t a0 = lat_red_v(NEUTRAL), a1 = a0, a2 = a0, a3 = a0;
    const unsigned long long q = (e > s ? e - s : 0) / 4;
    for (unsigned long long k = 0; k < q; ++k) {
        { const unsigned long long i = s + k; a0 = lat_red_op(a0, lat_red_v(MAP)); }
        { const unsigned long long i = s + q + k; a1 = lat_red_op(a1, lat_red_v(MAP)); }
        { const unsigned long long i = s + 2 * q + k; a2 = lat_red_op(a2, lat_red_v(MAP)); }
        { const unsigned long long i = s + 3 * q + k; a3 = lat_red_op(a3, lat_red_v(MAP)); }
    }
    for (unsigned long long i = s + 4 * q; i < e; ++i)
        a3 = lat_red_op(a3, lat_red_v(MAP));
    lat_partial[blockIdx.x] = lat_red_op(lat_red_op(a0, a1), lat_red_op(a2, a3));
}
extern "C" __global__ void lat_red_stage2(const lat_red_t *p, unsigned int count,
                                          lat_red_t *out)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    lat_red_t a = p[0];
    for (unsigned int k = 1; k < count; ++k)
        a = lat_red_op(a, p[k]);
    *out = a;
}
"""

_red_cache: dict = {}


class _Ptr:
    """A device address as a kernel's pointer argument."""

    def __init__(self, p: int):
        self._lattice_ptr_ = p


def reduce(ctx: Any, dtype_out: np.dtype, neutral: str, reduce_expr: str, map_expr: str,
           arguments: Any, args: Sequence[Any], n: int, out_ptr: int,
           preamble: str = "") -> None:
    """Writes the reduction of map_expr (of i < n) to the dtype_out element at out_ptr;
    the neutral element when n is 0."""
    from .. import core as _core
    from .gpuarray import GPUArray, _LatView
    dtype_out = np.dtype(dtype_out)
    text, _ = _array._parse_arguments(arguments)
    emu = ctx.backend == "emu"
    generic = dtype_out.kind not in "biuf"
    serial = (emu or generic) and n > 0
    if generic and n == 0:
        raise ValueError("a reduction of zero elements to a struct or complex type: "
                         "lattice writes its neutral element only for C element types")
    key = (id(ctx), serial, dtype_out, str(neutral), reduce_expr, map_expr, text, preamble)
    k = _red_cache.get(key)
    if k is None or not ctx.alive:
        if serial:
            src = _SERIAL_REDUCE
            for a, b in (("PREAMBLE", preamble or ""), ("CTYPE", result_ctype(dtype_out)),
                         ("REDUCE", reduce_expr), ("ARGUMENTS", text),
                         ("NEUTRAL", str(neutral)), ("MAP", map_expr)):
                src = src.replace(a, b)
            m = _core.Module(src, no_extern_c=True, context=ctx)
            k = (m, m.get_function("lat_red_stage1"), m.get_function("lat_red_stage2"))
        else:
            k = _array.ReductionKernel(dtype_out, str(neutral), reduce_expr, map_expr, text,
                                       "lat_reduce", preamble=preamble, context=ctx)
        _red_cache[key] = k
    if serial:
        blocks = builtins_min(64, (n + 16383) // 16384) if emu else \
            builtins_min(8192, (n + 255) // 256)
        chunk = (n + blocks - 1) // blocks
        blocks = (n + chunk - 1) // chunk
        partial = GPUArray((blocks,), dtype_out, context=ctx)
        k[1](*args, np.uint64(n), np.uint64(chunk), partial, grid=(blocks, 1),
             block=(1, 1, 1))
        k[2](partial, np.uint32(blocks), _Ptr(out_ptr), grid=(1, 1), block=(1, 1, 1))
        return
    lv = _LatView(ctx, out_ptr, dtype_out, ())
    try:
        k(*args, n=n, out=lv)
    finally:
        lv.free()


builtins_min = min


def result_ctype(dt: np.dtype) -> str:
    """The C name of a user kernel's result type: a C element type, or a type registered
    with ``tools.register_dtype`` (complex: ``pycuda::complex<float>``)."""
    if dt.kind in "biuf":
        return ctype(dt)
    try:
        from .tools import dtype_to_ctype
        return dtype_to_ctype(dt)
    except (ImportError, ValueError, KeyError) as e:
        raise DtypeError(f"no C type for {dt}: register one with tools.register_dtype "
                        f"({e})") from None
