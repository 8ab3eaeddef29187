"""PyCUDA's ``pycuda.reduction``."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import core as _core
from . import _kernels as _k
from .elementwise import _with_complex_header
from .gpuarray import GPUArray
from .tools import context_dependent_memoize, dtype_to_ctype

__all__ = ["ReductionKernel", "get_sum_kernel", "get_any_kernel", "get_all_kernel",
           "get_subset_sum_kernel", "get_dot_kernel", "get_subset_dot_kernel",
           "get_minmax_neutral", "get_minmax_kernel", "get_subset_minmax_kernel"]


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
        preamble = _k.options_preamble(options, "ReductionKernel") + (preamble or "")
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


# PyCUDA's module-level builders of the ReductionKernels its GPUArray methods use, with
# PyCUDA's expressions, argument lists and (lookup_tbl first) argument order.

@context_dependent_memoize
def get_sum_kernel(dtype_out: Any, dtype_in: Any) -> ReductionKernel:
    """Sum of ``in`` (dtype_out None: dtype_in)."""
    return ReductionKernel(dtype_in if dtype_out is None else dtype_out, "0", "a+b",
                           arguments=f"const {dtype_to_ctype(dtype_in)} *in")


@context_dependent_memoize
def get_any_kernel(dtype_out: Any, dtype_in: Any) -> ReductionKernel:
    return ReductionKernel(dtype_in if dtype_out is None else dtype_out, "0",
                           "(a != 0) || (b != 0)",
                           arguments=f"const {dtype_to_ctype(dtype_in)} *in")


@context_dependent_memoize
def get_all_kernel(dtype_out: Any, dtype_in: Any) -> ReductionKernel:
    return ReductionKernel(dtype_in if dtype_out is None else dtype_out, "1",
                           "(a != 0) && (b != 0)",
                           arguments=f"const {dtype_to_ctype(dtype_in)} *in")


@context_dependent_memoize
def get_subset_sum_kernel(dtype_out: Any, dtype_subset: Any, dtype_in: Any) -> ReductionKernel:
    """Sum of ``in[lookup_tbl[i]]``; called as ``k(lookup_tbl, in)``."""
    return ReductionKernel(dtype_in if dtype_out is None else dtype_out, "0", "a+b",
                           map_expr="in[lookup_tbl[i]]",
                           arguments=f"const {dtype_to_ctype(dtype_subset)} *lookup_tbl, "
                                     f"const {dtype_to_ctype(dtype_in)} *in")


@context_dependent_memoize
def get_dot_kernel(dtype_out: Any, dtype_a: Any, dtype_b: Any) -> ReductionKernel:
    """Sum of ``a[i]*b[i]``; called as ``k(a, b)``."""
    return ReductionKernel(dtype_out, neutral="0", reduce_expr="a+b", map_expr="a[i]*b[i]",
                           arguments=f"const {dtype_to_ctype(dtype_a)} *a, "
                                     f"const {dtype_to_ctype(dtype_b)} *b", keep=True)


@context_dependent_memoize
def get_subset_dot_kernel(dtype_out: Any, dtype_subset: Any, dtype_a: Any = None,
                          dtype_b: Any = None) -> ReductionKernel:
    """Sum of ``a[lookup_tbl[i]]*b[lookup_tbl[i]]``; called as ``k(lookup_tbl, a, b)``."""
    if dtype_out is None:
        dtype_out = dtype_a
    if dtype_b is None:
        dtype_b = dtype_out if dtype_a is None else dtype_a
    if dtype_a is None:
        dtype_a = dtype_out
    return ReductionKernel(dtype_out, neutral="0", reduce_expr="a+b",
                           map_expr="a[lookup_tbl[i]]*b[lookup_tbl[i]]",
                           arguments=f"const {dtype_to_ctype(dtype_subset)} *lookup_tbl, "
                                     f"const {dtype_to_ctype(dtype_a)} *a, "
                                     f"const {dtype_to_ctype(dtype_b)} *b")


def get_minmax_neutral(what: str, dtype: Any) -> str:
    """The neutral of a min or max reduction: the C text of +-infinity (MY_INFINITY, which
    get_minmax_kernel's preamble defines) or of the integer type's extreme."""
    dtype = np.dtype(dtype)
    if what not in ("min", "max"):
        raise ValueError("what is not min or max.")
    if issubclass(dtype.type, np.inexact):
        return "MY_INFINITY" if what == "min" else "-MY_INFINITY"
    info = np.iinfo(dtype)
    return str(info.max if what == "min" else info.min)


def _minmax_expr(what: str, dtype: np.dtype) -> str:
    if dtype == np.float64:
        return f"f{what}(a,b)"
    if dtype == np.float32:
        return f"f{what}f(a,b)"
    if dtype.kind in "iu":
        return f"{what}(a,b)"
    raise TypeError("unsupported dtype specified")


@context_dependent_memoize
def get_minmax_kernel(what: str, dtype: Any) -> ReductionKernel:
    """Minimum or maximum (``what``) of ``in``; float32/64 and integer dtypes."""
    dtype = np.dtype(dtype)
    return ReductionKernel(dtype, neutral=get_minmax_neutral(what, dtype),
                           reduce_expr=_minmax_expr(what, dtype),
                           arguments=f"const {dtype_to_ctype(dtype)} *in",
                           preamble="#define MY_INFINITY (1./0)")


@context_dependent_memoize
def get_subset_minmax_kernel(what: str, dtype: Any, dtype_subset: Any) -> ReductionKernel:
    """Minimum or maximum of ``in[lookup_tbl[i]]``; called as ``k(lookup_tbl, in)``."""
    dtype = np.dtype(dtype)
    return ReductionKernel(dtype, neutral=get_minmax_neutral(what, dtype),
                           reduce_expr=_minmax_expr(what, dtype), map_expr="in[lookup_tbl[i]]",
                           arguments=f"const {dtype_to_ctype(dtype_subset)} *lookup_tbl, "
                                     f"const {dtype_to_ctype(dtype)} *in",
                           preamble="#define MY_INFINITY (1./0)")
