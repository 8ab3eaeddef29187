"""PyCUDA's ``pycuda.elementwise``."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import array as _array
from .gpuarray import GPUArray

__all__ = ["ElementwiseKernel", "get_take_kernel"]


class ElementwiseKernel(_array.ElementwiseKernel):
    """``ElementwiseKernel(arguments, operation, name="kernel", keep=False, options=None,
    preamble="", loop_prep="", after_loop="")``."""

    def __init__(self, arguments: Any, operation: str, name: str = "kernel",
                 keep: bool = False, options: Any = None, preamble: str = "",
                 loop_prep: str = "", after_loop: str = ""):
        super().__init__(arguments, operation, name, keep, options, preamble, loop_prep,
                         after_loop)


_take_kernels: dict = {}


def _take(a: _array.Array, idx: _array.Array) -> GPUArray:
    from ..array import _CTYPES
    key = (a.dtype, idx.dtype, id(a.context))
    k = _take_kernels.get(key)
    if k is None:
        names = {np.dtype(v): c for c, v in reversed(list(_CTYPES.items()))}
        k = _take_kernels[key] = _array.ElementwiseKernel(
            f"{names[a.dtype]} *dest, const {names[a.dtype]} *src, const {names[idx.dtype]} *idx",
            "dest[i] = src[idx[i]]", "take", context=a.context)
    out = GPUArray(idx.shape, a.dtype, context=a.context)
    k(out, a, idx, n=idx.size)
    return out


def get_take_kernel(*a: Any, **k: Any):
    raise NotImplementedError("use lattice.pycuda.gpuarray.take")
