"""PyCUDA's ``pycuda.scan``: InclusiveScanKernel and ExclusiveScanKernel. A call scans
``input_ary`` into ``output_ary`` (in place when it is not given) and returns it.

With a neutral element the scan of a bool, integer or float type is lattice's scan
generator. An inclusive scan without one (PyCUDA allows that:
``InclusiveScanKernel(np.int32, "max(a, b)")``) never invents a neutral: each chunk of the
array is folded from its own first element, serially, and the chunks' totals are combined
in index order, so any associative operator is right. Complex and registered struct types
scan that way too (an exclusive scan starts each chunk from the neutral).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import array as _array
from .. import core as _core
from ._kernels import check_dtype, options_preamble, result_ctype
from .gpuarray import GPUArray, _LatView

__all__ = ["InclusiveScanKernel", "ExclusiveScanKernel"]

_NO_NEUTRAL = r"""
static __device__ __forceinline__ lat_scan_t lat_scan_op(lat_scan_t a, lat_scan_t b) { return (OP); }
extern "C" __global__ void lat_scan_totals(const lat_scan_t *x, lat_scan_t *totals, unsigned long long n,
                                           unsigned long long chunk)
{
    const unsigned long long s = blockIdx.x * chunk;
    const unsigned long long e = s + chunk < n ? s + chunk : n;
    if (threadIdx.x != 0 || s >= e)
        return;
    lat_scan_t c = x[s];
    for (unsigned long long j = s + 1; j < e; ++j)
        c = lat_scan_op(c, x[j]);
    totals[blockIdx.x] = c;
}
extern "C" __global__ void lat_scan_prefix(lat_scan_t *totals, unsigned int count)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    lat_scan_t c = totals[0];
    for (unsigned int k = 1; k < count; ++k) {
        c = lat_scan_op(c, totals[k]);
        totals[k] = c;
    }
}
extern "C" __global__ void lat_scan_apply(const lat_scan_t *x, lat_scan_t *y, const lat_scan_t *prefix,
                                          unsigned long long n, unsigned long long chunk)
{
    const unsigned long long s = blockIdx.x * chunk;
    const unsigned long long e = s + chunk < n ? s + chunk : n;
    if (threadIdx.x != 0 || s >= e)
        return;
    lat_scan_t c = blockIdx.x ? lat_scan_op(prefix[blockIdx.x - 1], x[s]) : x[s];
    y[s] = c;
    for (unsigned long long j = s + 1; j < e; ++j) {
        c = lat_scan_op(c, x[j]);
        y[j] = c;
    }
}
"""


# An exclusive scan: each chunk starts from the neutral, then what the chunks before it hold.
_EXCLUSIVE = r"""
extern "C" __global__ void lat_scan_apply_exclusive(const lat_scan_t *x, lat_scan_t *y,
                                                    const lat_scan_t *prefix, unsigned long long n,
                                                    unsigned long long chunk)
{
    const unsigned long long s = blockIdx.x * chunk;
    const unsigned long long e = s + chunk < n ? s + chunk : n;
    if (threadIdx.x != 0 || s >= e)
        return;
    lat_scan_t c = (NEUTRAL);
    if (blockIdx.x)
        c = lat_scan_op(c, prefix[blockIdx.x - 1]);
    for (unsigned long long j = s; j < e; ++j) {
        const lat_scan_t v = x[j]; /* before y[j] is written: y may be x */
        y[j] = c;
        c = lat_scan_op(c, v);
    }
}
"""

class _ScanKernel:
    _exclusive = False

    def __init__(self, dtype: Any, scan_expr: str, neutral: Any = None,
                 name_prefix: str = "scan", options: Any = None, preamble: str = "",
                 devices: Any = None):
        self.dtype = check_dtype(dtype)
        self._k = None
        self._mod = None
        preamble = options_preamble(options, type(self).__name__) + (preamble or "")
        options = None
        if self._exclusive and neutral is None:
            raise ValueError("ExclusiveScanKernel needs its neutral element")
        if neutral is None or self.dtype.kind not in "biuf":
            # Chunks folded serially and combined in index order (any associative operator,
            # no neutral invented); complex and registered struct types scan here too, by
            # their C names, as PyCUDA's scans take any type dtype_to_ctype knows.
            t = result_ctype(self.dtype)
            if "pycuda::" in t and "pycuda-complex.hpp" not in preamble:
                preamble = "#include <pycuda-complex.hpp>\n" + preamble
            src = f"typedef {t} lat_scan_t;\n" + (_NO_NEUTRAL + (
                _EXCLUSIVE.replace("NEUTRAL", str(neutral)) if self._exclusive else "")
            ).replace("OP", f"({scan_expr})")
            self._mod = _core.Module((preamble or "") + "\n" + src, no_extern_c=True)
            self._fns = [self._mod.get_function(n) for n in
                         ("lat_scan_totals", "lat_scan_prefix",
                          "lat_scan_apply_exclusive" if self._exclusive else "lat_scan_apply")]
        else:
            cls = _array.ExclusiveScanKernel if self._exclusive else _array.InclusiveScanKernel
            self._k = cls(self.dtype, scan_expr, str(neutral), name_prefix, options, preamble)

    def __call__(self, input_ary: GPUArray, output_ary: GPUArray | None = None,
                 allocator: Any = None, stream: Any = None) -> GPUArray:
        out = input_ary if output_ary is None else output_ary
        if isinstance(out, str) and out == "new":
            out = GPUArray(input_ary.shape, input_ary.dtype, context=input_ary._ctx,
                           allocator=allocator)
        for name, a in (("input_ary", input_ary), ("output_ary", out)):
            if not isinstance(a, GPUArray):
                raise TypeError(f"{type(self).__name__}: {name} must be a GPUArray")
            # PyCUDA passes the array's memory as the scan's type, as ElementwiseKernel
            # does: an int32 scan of uint32 data is a program PyCUDA runs. Elements of
            # another size would scan bytes that are not the array's elements: refused.
            if a.dtype.itemsize != self.dtype.itemsize:
                raise TypeError(f"{type(self).__name__}: {name} is {a.dtype}, the scan is "
                                f"of {self.dtype}, whose elements have another size")
            if not a.flags.forc:
                raise RuntimeError(f"{type(self).__name__}: {name} is not contiguous")
        if out.shape != input_ary.shape:
            raise ValueError(f"{type(self).__name__}: input and output must have the same "
                             f"shape ({input_ary.shape} and {out.shape})")
        n = input_ary.size
        if n == 0:
            return out
        if self._k is not None:
            li = _LatView(input_ary._ctx, input_ary.ptr, self.dtype, (n,))
            lo = li if out is input_ary else _LatView(out._ctx, out.ptr, self.dtype, (n,))
            try:
                self._k(li, lo)
            finally:
                li.free()
                lo.free()
            return out
        # The emulator runs a few long chunks fastest; a GPU needs many threads.
        blocks = min(n, 64 if input_ary._ctx.backend == "emu" else 4096)
        chunk = (n + blocks - 1) // blocks
        blocks = (n + chunk - 1) // chunk
        totals = GPUArray((blocks,), self.dtype, context=input_ary._ctx)
        f1, f2, f3 = self._fns
        f1(input_ary, totals, np.uint64(n), np.uint64(chunk), grid=(blocks, 1), block=(1, 1, 1))
        f2(totals, np.uint32(blocks), grid=(1, 1), block=(1, 1, 1))
        f3(input_ary, out, totals, np.uint64(n), np.uint64(chunk), grid=(blocks, 1),
           block=(1, 1, 1))
        return out


class InclusiveScanKernel(_ScanKernel):
    """out[i] = x[0] op ... op x[i]; the neutral element is optional."""
    _exclusive = False


class ExclusiveScanKernel(_ScanKernel):
    """out[i] = neutral op x[0] op ... op x[i-1]."""
    _exclusive = True
