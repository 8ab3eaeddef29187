"""PyCUDA's ``pycuda.reduction``."""

from __future__ import annotations

from typing import Any

from .. import array as _array
from .gpuarray import GPUArray

__all__ = ["ReductionKernel"]


class ReductionKernel(_array.ReductionKernel):
    """``ReductionKernel(dtype_out, neutral, reduce_expr, map_expr=None, arguments=None,
    name="reduce_kernel", keep=False, options=None, preamble="")``; a call gives a 0-d
    GPUArray."""

    def __call__(self, *args: Any, stream: Any = None, **kw: Any) -> GPUArray:  # type: ignore[override]
        return super().__call__(*args, stream=stream, cls=GPUArray, **kw)
