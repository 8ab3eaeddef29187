"""PyCUDA's ``pycuda.reduction``."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import core as _core
from . import _kernels as _k
from .elementwise import _with_complex_header
from .gpuarray import GPUArray

__all__ = ["ReductionKernel"]


class ReductionKernel:
    """``ReductionKernel(dtype_out, neutral, reduce_expr, map_expr=None, arguments=None,
    name="reduce_kernel", keep=False, options=None, preamble="", allocator=None)``: a
    call reduces map_expr over i below the first array argument's size and gives a 0-d
    GPUArray (or writes ``out=``, a one-element GPUArray). A complex or struct dtype_out
    is written by its registered C name (``tools.register_dtype``; complex types are
    ``pycuda::complex<T>``, whose header is included as PyCUDA includes it)."""

    def __init__(self, dtype_out: Any, neutral: Any, reduce_expr: str,
                 map_expr: str | None = None, arguments: Any = None,
                 name: str = "reduce_kernel", keep: bool = False, options: Any = None,
                 preamble: str = "", allocator: Any = None):
        self.dtype_out = np.dtype(dtype_out)
        if self.dtype_out.hasobject or self.dtype_out.kind not in "biufcV":
            raise TypeError(f"ReductionKernel: no reduction to {self.dtype_out}")
        self.allocator = allocator
        if arguments is None:
            arguments = f"const {_k.result_ctype(self.dtype_out)} *in"
        self._spec = (str(neutral), reduce_expr, map_expr or "in[i]", arguments,
                      _with_complex_header(preamble, arguments, neutral, reduce_expr,
                                           map_expr))

    def __call__(self, *args: Any, **kwargs: Any) -> GPUArray:
        out = kwargs.pop("out", None)
        kwargs.pop("stream", None)
        allocator = kwargs.pop("allocator", None) or self.allocator
        range_ = kwargs.pop("range", None)
        slice_ = kwargs.pop("slice", None)
        if kwargs:
            raise TypeError(f"ReductionKernel: unknown keyword arguments {sorted(kwargs)}")
        if range_ is not None or slice_ is not None:
            raise NotImplementedError("ReductionKernel: range= and slice= are not supported "
                                      "by lattice")
        first = next((a for a in args if isinstance(a, GPUArray)), None)
        if first is None:
            raise ValueError("ReductionKernel: no array argument to size the reduction")
        for i, a in enumerate(args):
            if isinstance(a, GPUArray) and not a.flags.forc:
                raise RuntimeError(f"ReductionKernel: argument {i} is not contiguous (as "
                                   "PyCUDA, lattice reduces contiguous arrays only)")
        if out is None:
            if allocator is None and first.allocator is not _core.mem_alloc:
                allocator = first.allocator
            out = GPUArray((), self.dtype_out, allocator=allocator, context=first._ctx)
        elif out.size != 1 or out.dtype != self.dtype_out:
            raise ValueError(f"ReductionKernel: out must be one element of {self.dtype_out}")
        neutral, reduce_expr, map_expr, arguments, preamble = self._spec
        _k.reduce(first._ctx, self.dtype_out, neutral, reduce_expr, map_expr, arguments, args,
                  first.size, out.ptr, preamble)
        return out
