"""PyCUDA's ``pycuda.elementwise``: ElementwiseKernel, with ``range=`` and ``slice=``."""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from .. import array as _array
from .gpuarray import GPUArray, take as _take

__all__ = ["ElementwiseKernel", "get_take_kernel"]


class ElementwiseKernel:
    """``ElementwiseKernel(arguments, operation, name="kernel", keep=False, options=None,
    preamble="", loop_prep="", after_loop="")``: ``operation`` runs for every i below the
    size of the first array argument, or for the indices of ``range=`` (a slice taken as
    it is) or ``slice=`` (a slice of the first array's indices: negative values count
    from its end). Array arguments must be contiguous."""

    def __init__(self, arguments: Any, operation: str, name: str = "kernel",
                 keep: bool = False, options: Any = None, preamble: str = "",
                 loop_prep: str = "", after_loop: str = ""):
        self._spec = (arguments, operation, name, preamble, loop_prep, after_loop)
        self._plain = _array.ElementwiseKernel(arguments, operation, name, keep, options,
                                               preamble, loop_prep, after_loop)
        self._ranged = None

    def _ranged_kernel(self) -> _array.ElementwiseKernel:
        if self._ranged is None:
            arguments, operation, name, preamble, loop_prep, after_loop = self._spec
            text, _ = _array._parse_arguments(arguments)
            # The generated loop's i counts iterations; the operation sees the index.
            op = ("{ const long long lat_j_ = (long long)i; "
                  "{ const long long i = lat_start_ + lat_j_ * lat_step_; "
                  f"{operation}; }} }}")
            self._ranged = _array.ElementwiseKernel(
                text + ", long long lat_start_, long long lat_step_", op, name + "_range",
                preamble=preamble, loop_prep=loop_prep, after_loop=after_loop)
        return self._ranged

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        range_ = kwargs.pop("range", None)
        slice_ = kwargs.pop("slice", None)
        kwargs.pop("stream", None)
        if kwargs:
            raise TypeError(f"ElementwiseKernel: unknown keyword arguments {sorted(kwargs)}")
        first = None
        for i, a in enumerate(args):
            if isinstance(a, GPUArray):
                if not a.flags.forc:
                    raise RuntimeError(f"ElementwiseKernel: argument {i} is not contiguous "
                                     "(elementwise kernels index arrays by i; copy the view "
                                     "first)")
                if first is None:
                    first = a
        if range_ is not None and slice_ is not None:
            raise TypeError("ElementwiseKernel: give range= or slice=, not both")
        if range_ is None and slice_ is None:
            if first is None:
                raise ValueError("ElementwiseKernel: no array argument to size the range; "
                                 "give range=")
            self._plain(*args, n=first.size)
            return
        if slice_ is not None:
            if first is None:
                raise ValueError("ElementwiseKernel: slice= needs an array argument")
            start, stop, step = slice_.indices(first.size)
        else:
            start = range_.start if range_.start is not None else 0
            stop = range_.stop
            step = range_.step if range_.step is not None else 1
        n = len(builtins.range(start, stop, step))
        if n == 0:
            return
        self._ranged_kernel()(*args, np.int64(start), np.int64(step), n=n)


def get_take_kernel(*a: Any, **k: Any):
    raise NotImplementedError("get_take_kernel reads through a texture reference (removed "
                              "in CUDA 12); use gpuarray.take")


take = _take
