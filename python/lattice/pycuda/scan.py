"""PyCUDA's ``pycuda.scan``: InclusiveScanKernel and ExclusiveScanKernel.

Each of T threads scans one contiguous chunk: the chunks' totals first, then the totals'
prefixes (one thread), then each chunk again from its prefix. Values combine in index order
and never with anything but the array's own values (and the neutral, for an exclusive
scan), so ``scan_expr`` need only be associative and an inclusive scan needs no neutral
(``max`` over negative numbers is exact). The kernels scan in place unless given an
output array, as PyCUDA's do.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .compiler import SourceModule
from .tools import dtype_to_ctype

__all__ = ["InclusiveScanKernel", "ExclusiveScanKernel"]

_SOURCE = r"""
#include <pycuda-complex.hpp>
%(preamble)s
typedef %(ctype)s scan_type;
#define SCAN_EXPR(a, b) (%(scan_expr)s)

extern "C" __global__ void %(name)s_totals(const scan_type *x, scan_type *tot,
                                          unsigned long long n, unsigned long long chunk)
{
    const unsigned long long t = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned long long s = t * chunk;
    if (s >= n)
        return;
    const unsigned long long e = s + chunk < n ? s + chunk : n;
    scan_type acc = x[s];
    for (unsigned long long j = s + 1; j < e; ++j) {
        const scan_type v = x[j];
        acc = SCAN_EXPR(acc, v);
    }
    tot[t] = acc;
}

extern "C" __global__ void %(name)s_prefix(scan_type *tot, unsigned long long count)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    scan_type acc = tot[0];
    for (unsigned long long j = 1; j < count; ++j) {
        const scan_type v = tot[j];
        acc = SCAN_EXPR(acc, v);
        tot[j] = acc;
    }
}

extern "C" __global__ void %(name)s_apply(const scan_type *x, scan_type *y,
                                         const scan_type *tot, unsigned long long n,
                                         unsigned long long chunk)
{
    const unsigned long long t = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned long long s = t * chunk;
    if (s >= n)
        return;
    const unsigned long long e = s + chunk < n ? s + chunk : n;
%(apply)s
}
"""

_INCLUSIVE = r"""
    scan_type acc = x[s];
    if (t > 0) {
        const scan_type p = tot[t - 1];
        acc = SCAN_EXPR(p, acc);
    }
    y[s] = acc;
    for (unsigned long long j = s + 1; j < e; ++j) {
        const scan_type v = x[j];
        acc = SCAN_EXPR(acc, v);
        y[j] = acc;
    }
"""

_EXCLUSIVE = r"""
    scan_type acc = (scan_type)(%(neutral)s);
    if (t > 0) {
        const scan_type p = tot[t - 1];
        acc = SCAN_EXPR(acc, p);
    }
    for (unsigned long long j = s; j < e; ++j) {
        const scan_type v = x[j];
        y[j] = acc;
        acc = SCAN_EXPR(acc, v);
    }
"""

_BLOCK = 128
_MAX_THREADS = 4096
_MIN_CHUNK = 64


class _ScanKernel:
    _exclusive = False

    def __init__(self, dtype: Any, scan_expr: str, neutral: Any = None,
                 name_prefix: str = "scan", options: Any = None, preamble: str = "",
                 devices: Any = None):
        self.dtype = np.dtype(dtype)
        if self._exclusive and neutral is None:
            raise ValueError("ExclusiveScanKernel: an exclusive scan needs its neutral element")
        apply = (_EXCLUSIVE % {"neutral": neutral}) if self._exclusive else _INCLUSIVE
        src = _SOURCE % {"preamble": preamble, "ctype": dtype_to_ctype(self.dtype),
                         "scan_expr": scan_expr, "name": name_prefix, "apply": apply}
        self.module = SourceModule(src, options=options, no_extern_c=True)
        self._totals = self.module.get_function(name_prefix + "_totals")
        self._prefix = self.module.get_function(name_prefix + "_prefix")
        self._apply = self.module.get_function(name_prefix + "_apply")

    def __call__(self, input_ary: Any, output_ary: Any = None, allocator: Any = None,
                 queue: Any = None, stream: Any = None) -> Any:
        from .gpuarray import GPUArray, empty
        if not isinstance(input_ary, GPUArray):
            raise TypeError(f"scan: the input must be a GPUArray, not {type(input_ary).__name__}")
        if output_ary is None:
            output_ary = input_ary
        if not isinstance(output_ary, GPUArray):
            raise TypeError("scan: the output must be a GPUArray")
        for what, a in (("input", input_ary), ("output", output_ary)):
            if a.dtype != self.dtype:
                raise TypeError(f"scan: the {what} is {a.dtype}, the kernel scans {self.dtype}")
            if not a.flags.forc:
                raise RuntimeError("scan: only contiguous arrays may be scanned")
        if output_ary.size != input_ary.size:
            raise ValueError("scan: the output must have as many elements as the input")
        n = input_ary.size
        if n == 0:
            return output_ary
        count = max(1, min(_MAX_THREADS, -(-n // _MIN_CHUNK)))
        chunk = -(-n // count)
        count = -(-n // chunk)
        tot = empty(count, self.dtype)
        grid = (-(-count // _BLOCK), 1)
        block = (_BLOCK, 1, 1)
        self._totals(input_ary.gpudata, tot.gpudata, np.uint64(n), np.uint64(chunk),
                     block=block, grid=grid, stream=stream)
        if count > 1:
            self._prefix(tot.gpudata, np.uint64(count), block=(1, 1, 1), grid=(1, 1),
                         stream=stream)
        self._apply(input_ary.gpudata, output_ary.gpudata, tot.gpudata, np.uint64(n),
                    np.uint64(chunk), block=block, grid=grid, stream=stream)
        return output_ary


class InclusiveScanKernel(_ScanKernel):
    """out[i] = x[0] op ... op x[i] (``neutral`` is not needed)."""
    _exclusive = False


class ExclusiveScanKernel(_ScanKernel):
    """out[i] = neutral op x[0] op ... op x[i-1]."""
    _exclusive = True
