"""PyCUDA's ``pycuda.gpuarray`` over lattice's device arrays."""

from __future__ import annotations

from ctypes import byref, c_void_p
from typing import Any

import numpy as np

from .. import array as _array
from .. import core as _core
from ..array import _cshape, _shape, dtype_code
from .._lib import lib
from ..errors import check

__all__ = ["GPUArray", "to_gpu", "to_gpu_async", "empty", "zeros", "empty_like", "zeros_like",
           "ones", "arange", "sum", "dot", "min", "max", "subset_dot", "if_positive",
           "maximum", "minimum", "vec"]


class GPUArray(_array.Array):
    """PyCUDA's GPUArray: ``GPUArray(shape, dtype)``, or over existing device memory with
    ``gpudata=`` (an allocation or address of the current context, not freed by the
    array)."""

    def __init__(self, shape: Any = None, dtype: Any = np.float32, allocator: Any = None,
                 base: Any = None, gpudata: Any = None, strides: Any = None,
                 order: str = "C", *, context: Any = None, _handle: int | None = None,
                 _base: Any = None):
        if gpudata is not None and _handle is None:
            ctx = _core._ctx_of(gpudata, context)
            shape = _shape(shape)
            h = c_void_p()
            check(lib.lat_array_wrap(ctx.handle, _core._devptr(gpudata), dtype_code(dtype),
                                     len(shape), _cshape(shape), byref(h)), "GPUArray")
            _handle, context, _base = h.value, ctx, gpudata
        super().__init__(shape, dtype, context=context, _handle=_handle, _base=_base)

    @property
    def gpudata(self) -> _core.DevicePointer:
        """The device address of the first element (an int, for kernel arguments)."""
        return _core.DevicePointer(self.ptr, self)

    @property
    def mem_size(self) -> int:
        return self.size

    def get(self, ary: np.ndarray | None = None, pagelocked: bool = False,  # type: ignore[override]
            async_: bool = False, stream: Any = None) -> np.ndarray:
        return super().get(ary, stream=stream)

    def __iter__(self):
        return iter(self.get())

    def _axpbyz(self, selffac, other, otherfac, add_timer=None, stream=None):
        return self * selffac + other * otherfac

    def bind_to_texref_ext(self, *a, **k):
        raise NotImplementedError("textures: use lattice's texture objects (lattice/texture.h)")


def to_gpu(ary: Any, allocator: Any = None) -> GPUArray:
    """A GPUArray holding a copy of a NumPy array."""
    return _array.to_device(ary, cls=GPUArray)


def to_gpu_async(ary: Any, allocator: Any = None, stream: Any = None) -> GPUArray:
    a = np.asarray(ary)
    g = GPUArray(a.shape, a.dtype)
    g.set(a, stream=stream)
    return g


def empty(shape: Any, dtype: Any = np.float32, allocator: Any = None, order: str = "C") -> GPUArray:
    return GPUArray(shape, dtype)


def zeros(shape: Any, dtype: Any = np.float32, allocator: Any = None, order: str = "C") -> GPUArray:
    return _array.zeros(shape, dtype, cls=GPUArray)


def ones(shape: Any, dtype: Any = np.float32, allocator: Any = None, order: str = "C") -> GPUArray:
    return _array.full(shape, 1, dtype, cls=GPUArray)


def empty_like(other: _array.Array, dtype: Any = None) -> GPUArray:
    return GPUArray(other.shape, other.dtype if dtype is None else dtype, context=other.context)


def zeros_like(other: _array.Array, dtype: Any = None) -> GPUArray:
    return _array.zeros(other.shape, other.dtype if dtype is None else dtype, other.context,
                        cls=GPUArray)


def ones_like(other: _array.Array, dtype: Any = None) -> GPUArray:
    return _array.full(other.shape, 1, other.dtype if dtype is None else dtype,
                       other.context, cls=GPUArray)


def arange(*args: Any, dtype: Any = None, **kwargs: Any) -> GPUArray:
    return _array.arange(*args, dtype=dtype, cls=GPUArray, **kwargs)


def sum(a: _array.Array, dtype: Any = None, stream: Any = None) -> _array.Array:  # noqa: A001
    """The sum of all elements, a 0-d GPUArray (``.get()`` reads it)."""
    r = a.sum()
    return r if dtype is None else r.astype(dtype)


def dot(a: _array.Array, b: _array.Array, dtype: Any = None, stream: Any = None) -> _array.Array:
    r = _array.dot(a, b)
    return r if dtype is None else r.astype(dtype)


def subset_dot(subset: _array.Array, a: _array.Array, b: _array.Array, dtype: Any = None,
               stream: Any = None) -> _array.Array:
    from .elementwise import _take
    return dot(_take(a, subset), _take(b, subset), dtype)


def min(a: _array.Array, stream: Any = None) -> _array.Array:  # noqa: A001
    return a.min()


def max(a: _array.Array, stream: Any = None) -> _array.Array:  # noqa: A001
    return a.max()


def maximum(a: Any, b: Any, out: Any = None, stream: Any = None) -> _array.Array:
    ref = a if isinstance(a, _array.Array) else b
    return ref._binary(7, a, b, out)


def minimum(a: Any, b: Any, out: Any = None, stream: Any = None) -> _array.Array:
    ref = a if isinstance(a, _array.Array) else b
    return ref._binary(6, a, b, out)


def if_positive(criterion: _array.Array, then_: Any, else_: Any, out: Any = None,
                stream: Any = None) -> _array.Array:
    return _array.where(criterion > 0, then_, else_)


class vec:  # noqa: N801
    """Vector types are not supported by lattice's arrays."""
