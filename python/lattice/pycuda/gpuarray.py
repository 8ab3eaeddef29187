"""PyCUDA's ``pycuda.gpuarray``: N-dimensional arrays in a context's device memory, with
NumPy's semantics (shapes, byte strides, C and Fortran order, views, broadcasting, and
``numpy.result_type`` for every result), computed by kernels that lattice writes and runs
on the context's backend (``_kernels``). What differs from PyCUDA is in docs/python.md.
"""

from __future__ import annotations

import builtins
import math
import operator
import warnings
from ctypes import byref, c_void_p
from typing import Any, Sequence

import numpy as np

from .. import array as _array
from .. import core as _core
from .._lib import lib
from ..errors import check
from . import _kernels as _k
from ._kernels import Code, check_dtype, check_storage_dtype, ctype, launch, real_of

__all__ = ["GPUArray", "splay", "to_gpu", "to_gpu_async", "empty", "zeros", "ones", "empty_like",
           "zeros_like", "ones_like", "arange", "take", "multi_take", "multi_put",
           "multi_take_put", "concatenate", "stack", "transpose", "reshape", "if_positive",
           "where", "maximum", "minimum", "sum", "any", "all", "subset_sum", "dot", "vdot",
           "subset_dot", "min", "max", "subset_min", "subset_max", "logical_and",
           "logical_or", "logical_not", "vec"]

_py_sum, _py_min, _py_max, _py_all, _py_any = builtins.sum, builtins.min, builtins.max, \
    builtins.all, builtins.any


# ----------------------------------------------------------------------------------------
# Layout helpers
# ----------------------------------------------------------------------------------------

def _shape(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, np.ndarray):
        shape = shape.tolist()
    # Integers only, as NumPy: a float extent raises TypeError rather than truncating.
    if not np.iterable(shape):
        return (operator.index(shape),)
    return tuple(operator.index(s) for s in shape)


def _contig_strides(shape: tuple, itemsize: int, order: str) -> tuple[int, ...]:
    st = [0] * len(shape)
    acc = itemsize
    axes = range(len(shape)) if order == "F" else reversed(range(len(shape)))
    for k in axes:
        st[k] = acc
        acc *= builtins.max(shape[k], 1)
    return tuple(st)


def _is_contig(shape: tuple, strides: tuple, itemsize: int, order: str) -> bool:
    if math.prod(shape) <= 1:
        return True
    acc = itemsize
    axes = range(len(shape)) if order == "F" else reversed(range(len(shape)))
    for k in axes:
        if shape[k] == 1:
            continue
        if strides[k] != acc:
            return False
        acc *= shape[k]
    return True


class _Flags:
    """NumPy's flags of an array: c_contiguous, f_contiguous, forc."""

    def __init__(self, a: "GPUArray"):
        self.c_contiguous = _is_contig(a.shape, a.strides, a.itemsize, "C")
        self.f_contiguous = _is_contig(a.shape, a.strides, a.itemsize, "F")
        self.forc = self.c_contiguous or self.f_contiguous

    def __repr__(self) -> str:
        return f"  C_CONTIGUOUS : {self.c_contiguous}\n  F_CONTIGUOUS : {self.f_contiguous}"


class _LatView(_core._Owned):
    """A lattice ``lat_array`` over an array's memory, for lattice's C generators
    (reductions, scans, random numbers), which take C-ordered arrays."""

    def __init__(self, ctx: _core.Context, ptr: int, dtype: np.dtype, shape: tuple):
        self._ctx = ctx
        self._handle = None
        h = c_void_p()
        shape = tuple(shape)
        check(lib.lat_array_wrap(ctx.handle, ptr, _array.dtype_code(dtype), len(shape),
                                 _array._cshape(shape), byref(h)), "GPUArray")
        self._handle = h.value
        self.handle = h.value

    def _release(self, h: int) -> None:
        lib.lat_array_destroy(h)


# ----------------------------------------------------------------------------------------
# GPUArray
# ----------------------------------------------------------------------------------------

class GPUArray:
    """PyCUDA's GPUArray: ``GPUArray(shape, dtype, allocator=mem_alloc, base=None,
    gpudata=None, strides=None, order="C")``. With ``gpudata`` (an allocation or a device
    address) the array is a view of that memory, which it does not free."""

    __array_priority__ = 100
    __array_ufunc__ = None  # NumPy defers `ndarray op GPUArray` and `np.float32(2) * a`
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, shape: Any, dtype: Any = np.float64, allocator: Any = None,
                 base: Any = None, gpudata: Any = None, strides: Any = None,
                 order: str = "C", *, context: _core.Context | None = None):
        self.dtype = check_storage_dtype(dtype)
        self.shape = _shape(shape)
        if _py_any(s < 0 for s in self.shape):
            raise ValueError(f"negative dimensions are not allowed: {self.shape}")
        if order not in ("C", "F"):
            raise ValueError(f"order must be 'C' or 'F', not {order!r}")
        if strides is None:
            self.strides = _contig_strides(self.shape, self.dtype.itemsize, order)
        else:
            self.strides = tuple(int(s) for s in strides)
            if len(self.strides) != len(self.shape):
                raise ValueError("strides must have one entry per dimension")
        self.allocator = allocator or _core.mem_alloc
        self.base = base
        self._lat = None
        if gpudata is None:
            self._ctx = _core.get_context(context)
            span = self.nbytes
            if strides is not None and self.size:
                if _py_any(st < 0 for st in self.strides):
                    raise ValueError("GPUArray: negative strides need gpudata= (a new "
                                     "allocation starts at the first element)")
                span = builtins.max(span, _py_sum((d - 1) * st for d, st in
                                                  zip(self.shape, self.strides)) +
                                    self.dtype.itemsize)
            self.gpudata = self.allocator(builtins.max(span, 1)) \
                if allocator is not None else _core.mem_alloc(builtins.max(span, 1),
                                                              self._ctx)
        else:
            self._ctx = _core._ctx_of(gpudata, context)
            self.gpudata = gpudata
            if isinstance(gpudata, _core.DeviceAllocation) and self.size:
                lo, hi = _k._extent(self)
                if lo < gpudata.ptr or hi > gpudata.ptr + gpudata.nbytes:
                    raise ValueError(f"GPUArray: {self.shape} {self.dtype} with strides "
                                     f"{self.strides} reaches past the {gpudata.nbytes} bytes "
                                     "of gpudata")

    # -- properties ----------------------------------------------------------------------
    # PyCUDA's shape, strides, gpudata, dtype, size, nbytes and mem_size are plain attributes
    # that programs assign to make views by hand (kbredies/tgv_pycuda's create_slice_view:
    # ravel(), then new shape, strides and gpudata). Here the flags, the element count and
    # the device address follow each assignment; a count that contradicts the shape is
    # refused rather than left to disagree with the memory the operations touch.
    @property
    def shape(self) -> tuple:
        return self._shape

    @shape.setter
    def shape(self, value: Any) -> None:
        self._shape = _shape(value)
        self._size = math.prod(self._shape)
        self._changed()

    @property
    def strides(self) -> tuple:
        return self._strides

    @strides.setter
    def strides(self, value: Any) -> None:
        self._strides = tuple(int(st) for st in value)
        self._changed()

    @property
    def dtype(self) -> np.dtype:
        return self._dtype

    @dtype.setter
    def dtype(self, value: Any) -> None:
        dt = np.dtype(value)
        old = self.__dict__.get("_dtype")
        if old is not None and dt.itemsize != old.itemsize:
            # The strides and the element count would no longer fit the memory.
            raise ValueError(f"GPUArray.dtype = {dt}: elements of another size than "
                             f"{old}'s; use view({dt})")
        self._dtype = dt
        self._changed()

    @property
    def gpudata(self) -> Any:
        return self._gpudata

    @gpudata.setter
    def gpudata(self, value: Any) -> None:
        self._gpudata = value
        self._ptr = _core._devptr(value)
        self._changed()

    def _changed(self) -> None:
        self.__dict__.pop("_flags", None)
        self._lat = None

    @property
    def size(self) -> int:
        return self._size

    @size.setter
    def size(self, value: int) -> None:
        self._check_count("size", value, self._size)

    @property
    def nbytes(self) -> int:
        return self._size * self._dtype.itemsize

    @nbytes.setter
    def nbytes(self, value: int) -> None:
        self._check_count("nbytes", value, self.nbytes)

    @property
    def mem_size(self) -> int:
        return self._size

    @mem_size.setter
    def mem_size(self, value: int) -> None:
        self._check_count("mem_size", value, self._size)

    def _check_count(self, name: str, value: int, derived: int) -> None:
        if value != derived:
            raise ValueError(f"GPUArray.{name} = {value}: lattice derives it from the shape "
                             f"{self._shape} and dtype {self._dtype} ({derived}); set the "
                             "shape instead")

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def _grid(self) -> tuple:
        """A launch shape for a grid-stride loop over the elements (PyCUDA's
        ``a._grid``, ``a._block``, as ``splay(a.size)`` gives them)."""
        return splay(self.size)[0]

    @property
    def _block(self) -> tuple:
        return splay(self.size)[1]

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def flags(self) -> _Flags:
        # Shape and strides never change after construction: compute the flags once.
        f = self.__dict__.get("_flags")
        if f is None:
            f = self._flags = _Flags(self)
        return f

    @property
    def ptr(self) -> int:
        return self._ptr

    @property
    def _lattice_ptr_(self) -> int:
        return self._ptr

    def __int__(self) -> int:
        if self.size != 1:
            raise TypeError("only arrays of one element convert to a Python scalar")
        return int(self.get().reshape(()))

    @property
    def context(self) -> _core.Context:
        return self._ctx

    @property
    def handle(self) -> int:
        """A lattice ``lat_array`` handle over this (contiguous) array's memory, in memory
        order, for lattice's C functions."""
        if self._lat is None:
            self._lat = self._lat_view()
        return self._lat.handle

    def _lat_view(self, dtype: Any = None) -> _LatView:
        if not self.flags.forc:
            raise ValueError("lattice's C operations take contiguous arrays only")
        shp = self.shape if self.flags.c_contiguous else self.shape[::-1]
        return _LatView(self._ctx, self._ptr, np.dtype(dtype or self.dtype), shp)

    @property
    def __cuda_array_interface__(self) -> dict:
        if self._ctx.backend != "cuda":
            raise AttributeError("__cuda_array_interface__: only arrays of a CUDA context "
                                 f"have one (this one is on '{self._ctx.backend}')")
        # The strides always, C-contiguous or not, as PyCUDA gives them (its test_driver's
        # test_gpuarray_cai asserts them); None would mean C-contiguous to a reader too.
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self._ptr, False),
                "version": 3, "strides": self.strides, "stream": None}

    # -- views ---------------------------------------------------------------------------
    def _view(self, shape: tuple, strides: tuple, offset: int = 0,
              dtype: Any = None) -> "GPUArray":
        v = GPUArray.__new__(type(self))
        v._dtype = self.dtype if dtype is None else np.dtype(dtype)
        v.shape = tuple(shape)
        v.strides = tuple(strides)
        v.allocator = self.allocator
        v.base = self if self.base is None else self.base
        v._ctx = self._ctx
        v.gpudata = self.gpudata if offset == 0 else \
            _core.DevicePointer(self._ptr + offset, self)
        return v

    def view(self, dtype: Any = None) -> "GPUArray":
        """The same memory seen as another dtype (NumPy's rule: a different item size
        changes the last axis, which must be contiguous)."""
        if dtype is None:
            return self._view(self.shape, self.strides)
        dt = check_storage_dtype(dtype)
        old = self.itemsize
        if dt.itemsize == old:
            return self._view(self.shape, self.strides, dtype=dt)
        if self.ndim == 0 or (self.strides[-1] != old and self.shape[-1] != 1):
            raise ValueError("To change to a dtype of a different size, the last axis "
                             "must be contiguous")
        last = self.shape[-1] * old
        if last % dt.itemsize:
            raise ValueError(f"the last axis ({last} bytes) is not a multiple of the new "
                             f"item size ({dt.itemsize})")
        shape = self.shape[:-1] + (last // dt.itemsize,)
        strides = self.strides[:-1] + (dt.itemsize,)
        if self.flags.c_contiguous:
            strides = _contig_strides(shape, dt.itemsize, "C")
        return self._view(shape, strides, dtype=dt)

    def __getitem__(self, index: Any) -> "GPUArray":
        if not isinstance(index, tuple):
            index = (index,)
        if _py_any(isinstance(i, (GPUArray, np.ndarray, list)) or
                   (isinstance(i, (bool, np.bool_))) for i in index):
            raise IndexError("lattice.pycuda arrays take ints, slices, None and Ellipsis as "
                             "indices (no array or boolean indexing; use gpuarray.take)")
        n_real = _py_sum(1 for i in index if i is not None and i is not Ellipsis)
        if _py_sum(1 for i in index if i is Ellipsis) > 1:
            raise IndexError("an index can only have a single ellipsis ('...')")
        if n_real > self.ndim:
            raise IndexError(f"too many indices: {n_real} for {self.ndim} dimensions")
        shape, strides, offset, axis = [], [], 0, 0
        for i in index:
            if i is Ellipsis:
                for _ in range(self.ndim - n_real):
                    shape.append(self.shape[axis])
                    strides.append(self.strides[axis])
                    axis += 1
            elif i is None:
                shape.append(1)
                strides.append(0)
            elif isinstance(i, slice):
                start, stop, step = i.indices(self.shape[axis])
                n = len(range(start, stop, step))
                if n:
                    offset += start * self.strides[axis]
                shape.append(n)
                strides.append(self.strides[axis] * step)
                axis += 1
            elif isinstance(i, (int, np.integer)):
                d = self.shape[axis]
                k = int(i) + (d if i < 0 else 0)
                if not 0 <= k < d:
                    raise IndexError(f"index {int(i)} is out of bounds for axis {axis} "
                                     f"with size {d}")
                offset += k * self.strides[axis]
                axis += 1
            else:
                raise IndexError(f"invalid index {i!r}")
        while axis < self.ndim:
            shape.append(self.shape[axis])
            strides.append(self.strides[axis])
            axis += 1
        return self._view(tuple(shape), tuple(strides), offset)

    def __setitem__(self, index: Any, value: Any) -> None:
        _assign(self[index], value)

    def reshape(self, *shape: Any, order: str = "C") -> "GPUArray":
        """NumPy's reshape: a view when the memory allows it, else a copy."""
        if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)):
            shape = shape[0]
        shape = list(_shape(shape))
        if order not in ("C", "F", "A"):
            raise ValueError(f"order must be 'C', 'F' or 'A', not {order!r}")
        if order == "A":
            order = "F" if self.flags.f_contiguous and not self.flags.c_contiguous else "C"
        if shape.count(-1) > 1:
            raise ValueError("can only specify one unknown dimension")
        if -1 in shape:
            rest = int(np.prod([s for s in shape if s != -1], dtype=np.int64))
            if rest == 0 or self.size % rest:
                raise ValueError(f"cannot reshape array of size {self.size} into shape "
                                 f"{tuple(shape)}")
            shape[shape.index(-1)] = self.size // rest
        shape = tuple(shape)
        if int(np.prod(shape, dtype=np.int64)) != self.size:
            raise ValueError(f"cannot reshape array of size {self.size} into shape {shape}")
        src = self
        if not (order == "C" and self.flags.c_contiguous) and \
                not (order == "F" and self.flags.f_contiguous):
            src = self.copy(order=order)
        return src._view(shape, _contig_strides(shape, self.itemsize, order))

    def ravel(self, order: str = "C") -> "GPUArray":
        return self.reshape(-1, order=order)

    def squeeze(self) -> "GPUArray":
        keep = [k for k, d in enumerate(self.shape) if d != 1]
        return self._view(tuple(self.shape[k] for k in keep),
                          tuple(self.strides[k] for k in keep))

    def transpose(self, *args: Any, axes: Any = None) -> "GPUArray":
        """NumPy's transpose: ``a.transpose()``, ``a.transpose((1, 0, 2))``,
        ``a.transpose(1, 0, 2)`` or ``a.transpose(axes=...)``."""
        if args:
            if axes is not None:
                raise TypeError("transpose: axes given twice")
            axes = args[0] if len(args) == 1 and not isinstance(args[0], (int, np.integer)) \
                else args
        if axes is None:
            axes = tuple(reversed(range(self.ndim)))
        axes = tuple(operator.index(a) % self.ndim if self.ndim else operator.index(a)
                     for a in axes)
        if sorted(axes) != list(range(self.ndim)):
            raise ValueError(f"axes {axes} do not match an array of {self.ndim} dimensions")
        return self._view(tuple(self.shape[a] for a in axes),
                          tuple(self.strides[a] for a in axes))

    @property
    def T(self) -> "GPUArray":  # noqa: N802
        return self.transpose()

    def reverse(self, stream: Any = None) -> "GPUArray":
        """A copy with the elements in reverse order (a 1-d array, as PyCUDA's)."""
        if self.ndim != 1:
            raise ValueError("reverse: only 1-d arrays")
        return self[::-1].copy()

    # -- host transfers ------------------------------------------------------------------
    def get(self, ary: np.ndarray | None = None, pagelocked: bool = False,
            async_: bool = False, stream: Any = None, **kwargs: Any) -> np.ndarray:
        """A NumPy copy (into ``ary`` when given: same shape and dtype)."""
        if kwargs.pop("async", None):
            async_ = True
        if kwargs:
            raise TypeError(f"get: unexpected arguments {sorted(kwargs)}")
        src = self if self.flags.forc else self.copy()
        order = "C" if src.flags.c_contiguous else "F"
        if ary is None:
            if pagelocked:
                from .driver import pagelocked_empty
                ary = pagelocked_empty(self.shape, self.dtype, order=order)
            else:
                ary = np.empty(self.shape, self.dtype, order=order)
        else:
            if not isinstance(ary, np.ndarray):
                raise TypeError("get: ary must be a NumPy array")
            # PyCUDA's checks, in its order and with its exception types.
            if ary.size != self.size:
                raise ValueError(f"get: ary has {ary.size} elements {ary.shape}, the array "
                                 f"{self.size} {self.shape} (self and ary must be the same "
                                 "size)")
            if ary.shape != self.shape:
                warnings.warn("get() between arrays of different shape is deprecated "
                              "and will be removed in PyCUDA 2017.x", DeprecationWarning,
                              stacklevel=2)
                ary = ary.reshape(self.shape)
            if ary.dtype != self.dtype:
                raise TypeError(f"get: ary is {ary.dtype}, the array {self.dtype} (self and "
                                "ary must have the same dtype)")
        if self.size == 0:
            return ary
        host = ary
        if not ((order == "C" and ary.flags.c_contiguous) or
                (order == "F" and ary.flags.f_contiguous)):
            host = np.empty(self.shape, self.dtype, order=order)
        _core.memcpy_dtoh(host, src._ptr, stream if async_ else None, context=self._ctx)
        if host is not ary:
            if async_ and stream is not None:
                stream.synchronize()
            ary[...] = host
        return ary

    def get_async(self, stream: Any = None, ary: np.ndarray | None = None) -> np.ndarray:
        return self.get(ary, async_=True, stream=stream)

    def set(self, ary: Any, async_: bool = False, stream: Any = None,
            **kwargs: Any) -> None:
        """Copies a host array of the same size and dtype in (no conversion: a different
        dtype raises, as in PyCUDA)."""
        if kwargs.pop("async", None):
            async_ = True
        if kwargs:
            raise TypeError(f"set: unexpected arguments {sorted(kwargs)}")
        if not isinstance(ary, np.ndarray):
            if isinstance(ary, (list, tuple)) or np.isscalar(ary):
                raise TypeError("set: ary must be a NumPy array (of the array's dtype)")
            ary = np.asarray(ary)
        if ary.size != self.size:
            raise ValueError("ary and self must be the same size")
        if ary.shape != self.shape:
            warnings.warn("Setting array from one with different shape.", stacklevel=2)
            ary = ary.reshape(self.shape)
        if ary.dtype != self.dtype:
            raise ValueError(f"ary and self must have the same dtype ({ary.dtype} vs "
                             f"{self.dtype})")
        if self.size == 0:
            return None
        st = stream if async_ else None
        if self.flags.c_contiguous and ary.flags.c_contiguous or \
                self.flags.f_contiguous and ary.flags.f_contiguous and not \
                (self.flags.c_contiguous and not ary.flags.c_contiguous):
            _core.memcpy_htod(self._ptr, ary, st, context=self._ctx)
            return None
        tmp = to_gpu(np.ascontiguousarray(ary), context=self._ctx)
        _copy_into(self, tmp)
        return None

    def set_async(self, ary: Any, stream: Any = None) -> None:
        """PyCUDA's: set(ary, async_=True, stream=stream); returns None, as PyCUDA's."""
        self.set(ary, async_=True, stream=stream)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        if copy is False:
            raise ValueError("a GPUArray's elements are in device memory: NumPy can have "
                             "them only as a copy")
        a = self.get()
        return a if dtype is None else a.astype(dtype)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __bool__(self) -> bool:
        if self.size != 1:
            raise ValueError("The truth value of an array with more than one element is "
                             "ambiguous. Use a.any() or a.all()")
        return bool(self.get().reshape(()).item())

    def __float__(self) -> float:
        if self.size != 1:
            raise TypeError("only arrays of one element convert to a Python scalar")
        return float(self.get().reshape(()).item())

    def __complex__(self) -> complex:
        return complex(self.get().reshape(()).item())

    def item(self) -> Any:
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self.get().reshape(()).item()

    def __repr__(self) -> str:
        return repr(self.get())

    def __str__(self) -> str:
        return str(self.get())

    # -- copies and conversions ----------------------------------------------------------
    def _like(self, dtype: Any = None, order: str = "K") -> "GPUArray":
        return _new_like(self, dtype, order)

    def _new_like_me(self, dtype: Any = None, order: str = "C") -> "GPUArray":
        """PyCUDA's: an empty array of this shape and allocator (and strides, when the
        dtype is this one's), which programs extending GPUArray call."""
        if dtype is None or np.dtype(dtype) == self.dtype:
            return _new_like(self, None, "K")
        return _new_like(self, dtype, order)

    def copy(self, order: str = "K") -> "GPUArray":
        out = self._like(order=order)
        _copy_into(out, self)
        return out

    def astype(self, dtype: Any, stream: Any = None) -> "GPUArray":
        dt = check_dtype(dtype)
        out = self._like(dt)
        _copy_into(out, self)
        return out

    def fill(self, value: Any, stream: Any = None) -> "GPUArray":
        """Sets every element to value (converted to the array's dtype as NumPy would)."""
        if self.dtype.kind == "V" or self.dtype == np.float16:
            host = np.full(self.shape, value, self.dtype)
            tmp = to_gpu(host, context=self._ctx)
            _copy_into(self, tmp)
            return self
        if isinstance(value, GPUArray) or np.ndim(value) > 0:
            _assign(self, value)
            return self
        s = np.asarray(value, dtype=self.dtype)[()]
        launch("lat_fill", [self], [], [s], lambda o, a, s: f"{o[0]} = {s[0]};")
        return self

    @property
    def real(self) -> "GPUArray":
        if self.dtype.kind != "c":
            return self
        return _unary_map(self, real_of(self.dtype), lambda c, e: f"({e}).x")

    @property
    def imag(self) -> "GPUArray":
        if self.dtype.kind != "c":
            return zeros_like(self)
        return _unary_map(self, real_of(self.dtype), lambda c, e: f"({e}).y")

    def conj(self, out: "GPUArray | None" = None) -> "GPUArray":
        if self.dtype.kind != "c":
            if out is None:
                return self.copy()
            _copy_into(out, self)
            return out

        def body(c: Code, e: str) -> str:
            c.need_complex(self.dtype)
            return f"{_k._zname(self.dtype)}_conj({e})"
        return _unary_map(self, self.dtype, body, out)

    conjugate = conj

    # -- arithmetic ------------------------------------------------------------------------
    def __add__(self, o): return _binary("add", self, o)
    def __radd__(self, o): return _binary("add", o, self)
    def __sub__(self, o): return _binary("sub", self, o)
    def __rsub__(self, o): return _binary("sub", o, self)
    def __mul__(self, o): return _binary("mul", self, o)
    def __rmul__(self, o): return _binary("mul", o, self)
    def __truediv__(self, o): return _binary("truediv", self, o)
    def __rtruediv__(self, o): return _binary("truediv", o, self)
    def __floordiv__(self, o): return _binary("floordiv", self, o)
    def __rfloordiv__(self, o): return _binary("floordiv", o, self)
    def __mod__(self, o): return _binary("mod", self, o)
    def __rmod__(self, o): return _binary("mod", o, self)
    def __pow__(self, o): return _binary("pow", self, o)
    def __rpow__(self, o): return _binary("pow", o, self)
    def __and__(self, o): return _binary("and", self, o)
    def __rand__(self, o): return _binary("and", o, self)
    def __or__(self, o): return _binary("or", self, o)
    def __ror__(self, o): return _binary("or", o, self)
    def __xor__(self, o): return _binary("xor", self, o)
    def __rxor__(self, o): return _binary("xor", o, self)
    def __iadd__(self, o): return _binary("add", self, o, self)
    def __isub__(self, o): return _binary("sub", self, o, self)
    def __imul__(self, o): return _binary("mul", self, o, self)
    def __itruediv__(self, o): return _binary("truediv", self, o, self)
    def __ifloordiv__(self, o): return _binary("floordiv", self, o, self)
    def __imod__(self, o): return _binary("mod", self, o, self)
    def __ipow__(self, o): return _binary("pow", self, o, self)
    def __iand__(self, o): return _binary("and", self, o, self)
    def __ior__(self, o): return _binary("or", self, o, self)
    def __ixor__(self, o): return _binary("xor", self, o, self)
    __div__, __rdiv__, __idiv__ = __truediv__, __rtruediv__, __itruediv__  # PyCUDA's names

    def __eq__(self, o): return _binary("eq", self, o)  # type: ignore[override]
    def __ne__(self, o): return _binary("ne", self, o)  # type: ignore[override]
    def __lt__(self, o): return _binary("lt", self, o)
    def __le__(self, o): return _binary("le", self, o)
    def __gt__(self, o): return _binary("gt", self, o)
    def __ge__(self, o): return _binary("ge", self, o)

    def __neg__(self) -> "GPUArray":
        _no_struct(self.dtype, "negative")
        if self.dtype == np.bool_:
            raise TypeError("The numpy boolean negative, the `-` operator, is not supported, "
                            "use the `~` operator or the logical_not function instead.")
        if self.dtype.kind == "c":
            return _unary_map(self, self.dtype, lambda c, e: (
                c.need_complex(self.dtype), f"{_k._zname(self.dtype)}_neg({e})")[1])
        return _unary_map(self, self.dtype, lambda c, e: f"-({e})")

    def __pos__(self) -> "GPUArray":
        return self.copy()

    def __invert__(self) -> "GPUArray":
        if self.dtype == np.bool_:
            return logical_not(self)
        if self.dtype.kind not in "iu":
            raise TypeError(f"ufunc 'invert' not supported for {self.dtype}")
        return _unary_map(self, self.dtype, lambda c, e: f"~({e})")

    def __abs__(self) -> "GPUArray":
        _no_struct(self.dtype, "absolute")
        if self.dtype.kind == "c":
            return _unary_map(self, real_of(self.dtype), lambda c, e: (
                c.need_complex(self.dtype), f"{_k._zname(self.dtype)}_abs({e})")[1])
        if self.dtype.kind == "u" or self.dtype == np.bool_:
            return self.copy()
        if self.dtype.kind == "f":
            f = "fabsf" if self.dtype == np.float32 else "fabs"
            return _unary_map(self, self.dtype, lambda c, e: f"{f}({e})")
        return _unary_map(self, self.dtype, lambda c, e: f"(({e}) < 0 ? -({e}) : ({e}))")

    def mul_add(self, selffac: Any, other: "GPUArray", otherfac: Any, add_timer: Any = None,
                stream: Any = None, out: "GPUArray | None" = None) -> "GPUArray":
        """selffac * self + otherfac * other, in one kernel. ``add_timer``, as in PyCUDA:
        called with the operation's flop count (3 per element) and a function that
        returns the kernel's time in seconds."""
        return self._axpbyz(selffac, other, otherfac, out, add_timer, stream)

    def _axpbyz(self, selffac: Any, other: "GPUArray", otherfac: Any, out: Any = None,
                add_timer: Any = None, stream: Any = None) -> "GPUArray":
        if add_timer is None:
            return _axpbyz(selffac, self, otherfac, other, out)
        start, end = _core.Event(context=self._ctx), _core.Event(context=self._ctx)
        start.record()
        result = _axpbyz(selffac, self, otherfac, other, out)
        end.record()

        def seconds() -> float:
            end.synchronize()
            return end.time_since(start) * 1e-3
        add_timer(3 * self.size, seconds)
        return result

    # -- reductions ----------------------------------------------------------------------
    def sum(self, dtype: Any = None, stream: Any = None, allocator: Any = None) -> "GPUArray":
        return sum(self, dtype, stream, allocator)

    def any(self, stream: Any = None, allocator: Any = None) -> "GPUArray":
        return any(self, stream, allocator)

    def all(self, stream: Any = None, allocator: Any = None) -> "GPUArray":
        return all(self, stream, allocator)

    def min(self, stream: Any = None) -> "GPUArray":
        return min(self, stream)

    def max(self, stream: Any = None) -> "GPUArray":
        return max(self, stream)

    def dot(self, other: "GPUArray", dtype: Any = None) -> "GPUArray":
        return dot(self, other, dtype)

    # -- what lattice does not do --------------------------------------------------------
    def bind_to_texref(self, *a: Any, **k: Any) -> None:
        raise NotImplementedError("texture references were removed in CUDA 12 and lattice "
                                  "has none; use texture objects (lattice/texture.h)")

    bind_to_texref_ext = bind_to_texref


def splay(n: int, dev: Any = None) -> tuple[tuple[int, int], tuple[int, int, int]]:
    """PyCUDA's (grid, block) for a grid-stride loop over n items, by PyCUDA's rule: one
    warp per block up to 4 * 8 blocks per multiprocessor, then wider blocks up to 128
    threads (kernels that read threadIdx or gridDim see PyCUDA's values)."""
    from . import driver as drv
    from .tools import DeviceData
    if dev is None:
        dev = drv.Context.get_device()
    data = DeviceData(dev)
    warp, max_threads = data.warp_size, 128
    max_blocks = 4 * data.thread_blocks_per_mp * dev.get_attribute(
        drv.device_attribute.MULTIPROCESSOR_COUNT)
    n = int(n)
    if n < warp:
        return (1, 1), (warp, 1, 1)
    if n < max_blocks * warp:
        return ((n + warp - 1) // warp, 1), (warp, 1, 1)
    if n < max_blocks * max_threads:
        groups = (n + warp - 1) // warp
        return (max_blocks, 1), (((groups + max_blocks - 1) // max_blocks) * warp, 1, 1)
    return (max_blocks, 1), (max_threads, 1, 1)


# ----------------------------------------------------------------------------------------
# Element-wise machinery
# ----------------------------------------------------------------------------------------

def _order_of(arrays: Sequence[GPUArray]) -> str:
    """F when every array is Fortran-ordered and not C-ordered, else C (NumPy's 'K' for
    contiguous operands)."""
    big = [a for a in arrays if isinstance(a, GPUArray) and a.size > 1]
    if big and _py_all(a.flags.f_contiguous and not a.flags.c_contiguous for a in big):
        return "F"
    return "C"


def _alloc_of(a: Any) -> Any:
    """The allocator a result made from ``a`` takes, as PyCUDA's results take their
    operand's (a DeviceMemoryPool's ``allocate``); None for the default."""
    alloc = getattr(a, "allocator", None)
    return None if alloc is _core.mem_alloc else alloc


def _result(a: GPUArray, shape: Any, dtype: Any, order: str, allocator: Any = None) -> GPUArray:
    """A new array for a result computed from ``a``: of a's class, as PyCUDA's results are
    (its ``_new_like_me`` calls ``self.__class__(shape, dtype, allocator=, order=)``), so
    that arithmetic on a program's subclass of GPUArray gives that subclass."""
    if type(a) is not GPUArray:
        return type(a)(shape, dtype, allocator=allocator or a.allocator, order=order)
    return GPUArray(shape, dtype, allocator=allocator or _alloc_of(a), order=order,
                    context=a._ctx)


def _new_like(a: GPUArray, dtype: Any = None, order: str = "K", shape: Any = None,
              allocator: Any = None) -> GPUArray:
    dt = a.dtype if dtype is None else check_dtype(dtype)
    if order in ("K", "A"):
        order = "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
    return _result(a, a.shape if shape is None else shape, dt, order, allocator)


def _copy_into(dst: GPUArray, src: GPUArray) -> None:
    """dst[...] = src, converting the dtype as NumPy's astype does; src broadcasts."""
    if dst.size == 0:
        return
    if src.dtype.kind == "c" and dst.dtype.kind != "c":
        warnings.warn("Casting complex values to real discards the imaginary part",
                      np.exceptions.ComplexWarning, stacklevel=3)
    if src.dtype == dst.dtype and src.shape == dst.shape and dst.nbytes and (
            (src.flags.c_contiguous and dst.flags.c_contiguous) or
            (src.flags.f_contiguous and dst.flags.f_contiguous)):
        if src._ptr == dst._ptr:
            return
        (lo, hi), (dlo, dhi) = _k._extent(src), _k._extent(dst)
        if lo < dhi and dlo < hi:  # overlapping ranges: a copy has no defined order
            src = src.copy()
        _core.memcpy_dtod(dst._ptr, src._ptr, dst.nbytes, context=dst._ctx)
        return
    if src.dtype == dst.dtype == np.float16:
        # Held, not computed with: copied as the 16-bit patterns they are.
        _copy_into(dst.view(np.uint16), src.view(np.uint16))
        return
    code = Code()
    launch("lat_copy", [dst], [src], [],
           lambda o, a, s: f"{o[0]} = {code.cast(a[0], src.dtype, dst.dtype)};", code)


def _assign(view: GPUArray, value: Any) -> None:
    if isinstance(value, GPUArray):
        _copy_into(view, value)
        return
    v = np.asarray(value)
    if v.ndim > 0:
        _copy_into(view, to_gpu(v, context=view._ctx))
    else:
        view.fill(v[()] if isinstance(value, np.ndarray) else value)


def _unary_map(a: GPUArray, dt: np.dtype, expr: Any, out: GPUArray | None = None,
               name: str = "lat_map") -> GPUArray:
    """out[...] = expr(code, a's element) (of type dt, converted to out's dtype)."""
    if out is None:
        out = _new_like(a, dt)
    elif out.shape != a.shape:
        raise ValueError(f"out has shape {out.shape}, the result {a.shape}")
    code = Code()
    launch(name, [out], [a], [],
           lambda o, e, s: f"{o[0]} = {code.cast(expr(code, e[0]), dt, out.dtype)};", code)
    return out


def _dtype_of(x: Any) -> Any:
    """What numpy.result_type sees: an array's or NumPy scalar's dtype; a Python scalar
    itself (weak, as NumPy 2 treats it)."""
    if isinstance(x, (GPUArray, np.generic, np.ndarray)):
        return x.dtype
    return x


def _operand(x: Any) -> Any:
    """A GPUArray, a NumPy scalar or a Python scalar; None for what cannot take part."""
    if isinstance(x, GPUArray):
        return x
    if isinstance(x, np.ndarray):
        if x.ndim == 0:
            return x[()]
        raise TypeError("an operation of a GPUArray and a NumPy array: copy the NumPy array "
                        "to the device first (gpuarray.to_gpu)")
    if isinstance(x, (bool, int, float, complex, np.generic)):
        return x
    return None


_BINOPS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "and": "&", "or": "|",
           "xor": "^", "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_CMP = ("eq", "ne", "lt", "le", "gt", "ge")


def _op_expr(code: Code, op: str, a: str, b: str, t: np.dtype) -> str:
    """C expression of `a op b` for two values of type t (a bool for comparisons)."""
    if t.kind == "c":
        code.need_complex(t)
        z = _k._zname(t)
        if op in ("add", "sub", "mul", "pow"):
            return f"{z}_{op}({a}, {b})"
        if op == "truediv":
            return f"{z}_div({a}, {b})"
        if op == "eq":
            return f"{z}_eq({a}, {b})"
        if op == "ne":
            return f"!{z}_eq({a}, {b})"
        if op == "lt":
            return f"{z}_lt({a}, {b})"
        if op == "gt":
            return f"{z}_lt({b}, {a})"
        if op == "le":
            return f"!{z}_lt({b}, {a})"
        if op == "ge":
            return f"!{z}_lt({a}, {b})"
        if op in ("maximum", "minimum"):
            return (f"({z}_lt({a}, {b}) ? {b} : {a})" if op == "maximum"
                    else f"({z}_lt({b}, {a}) ? {b} : {a})")
        raise TypeError(f"ufunc '{op}' not supported for the input types ({t})")
    if op in ("floordiv", "mod"):
        if t.kind == "f":
            n = code.need_float(t)
            return f"lat_{'fmod' if op == 'mod' else 'floordiv'}_{n}({a}, {b})"
        n = code.need_int(t if t != np.bool_ else np.dtype(np.int8))
        return f"lat_{op}_{n}({a}, {b})"
    if op == "pow":
        if t.kind == "f":
            return f"{'powf' if t == np.float32 else 'pow'}({a}, {b})"
        n = code.need_int(t if t != np.bool_ else np.dtype(np.int8))
        return f"lat_ipow_{n}({a}, {b})"
    if op in ("maximum", "minimum"):
        cmp = ">" if op == "maximum" else "<"
        if t.kind == "f":
            return f"((({a}) != ({a}) || ({a}) {cmp} ({b})) ? ({a}) : ({b}))"
        return f"((({a}) {cmp} ({b})) ? ({a}) : ({b}))"
    if op in ("and", "or", "xor") and t.kind not in "biu":
        raise TypeError(f"ufunc 'bitwise_{op}' not supported for the input types ({t})")
    return f"(({a}) {_BINOPS[op]} ({b}))"


def _no_struct(dt: np.dtype, what: str) -> None:
    """Struct types (gpuarray.vec.float4, registered records) have no arithmetic, as
    NumPy's ufuncs have no loop for them: refused here, not by the C compiler."""
    if dt.kind == "V":
        raise TypeError(f"{what}: no arithmetic on arrays of struct type {dt} (as NumPy's "
                        "ufuncs have none)")


def _binary(op: str, x: Any, y: Any, out: GPUArray | None = None) -> Any:
    ox, oy = _operand(x), _operand(y)
    if ox is None or oy is None:
        return NotImplemented
    t = np.result_type(_dtype_of(ox), _dtype_of(oy))
    if t.kind == "V":
        # Struct types (gpuarray.vec.float4, registered records) have no arithmetic, as
        # NumPy's ufuncs have no loop for them: refused here, not by the C compiler.
        if op in ("eq", "ne"):
            raise NotImplementedError(f"'{op}' of arrays of struct type {t}: compare their "
                                      "fields")
        _no_struct(t, op)
    if op == "truediv" and t.kind in "biu":
        t = np.dtype(np.float64)
    if op in ("floordiv", "mod", "pow") and t == np.bool_:
        # NumPy's floor_divide, remainder and power have no bool loop: bools go to int8.
        t = np.dtype(np.int8)
    if op in _CMP and t.kind in "iu":
        const = _compare_beyond_range(op, ox, oy, t)
        if const is not None:
            arrays = [v for v in (ox, oy) if isinstance(v, GPUArray)]
            if out is None:
                out = _result(arrays[0], arrays[0].shape, np.bool_, _order_of(arrays))
            return out.fill(const)
    if op in ("floordiv", "mod") and t.kind == "c":
        raise TypeError(f"ufunc '{op}' not supported for complex numbers")
    if op == "sub" and t == np.bool_:
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the "
                        "bitwise_xor, the `^` operator, or the logical_xor function instead.")
    check_dtype(t)
    if op == "pow" and t.kind in "iu":
        _check_int_exponent(oy)
    res_t = np.dtype(np.bool_) if op in _CMP else t
    arrays = [v for v in (ox, oy) if isinstance(v, GPUArray)]
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    if out is None:
        out = _result(arrays[0], shape, res_t, _order_of(arrays))
    else:
        if out.shape != shape:
            raise ValueError(f"non-broadcastable output operand with shape {out.shape} "
                             f"doesn't match the broadcast shape {shape}")
        if not np.can_cast(res_t, out.dtype, "same_kind"):
            raise TypeError(f"Cannot cast ufunc '{op}' output from {res_t} to {out.dtype} "
                            "with casting rule 'same_kind'")
    code = Code()
    ins, scalars = [], []

    def val(v: Any) -> Any:
        if isinstance(v, GPUArray):
            ins.append(v)
            return ("a", len(ins) - 1, v.dtype)
        sv = np.asarray(v, dtype=t)[()]
        scalars.append(sv)
        return ("s", len(scalars) - 1, t)
    vx, vy = val(ox), val(oy)

    def body(o: list, a: list, s: list) -> str:
        ex = code.cast((a if vx[0] == "a" else s)[vx[1]], vx[2], t)
        ey = code.cast((a if vy[0] == "a" else s)[vy[1]], vy[2], t)
        return f"{o[0]} = {code.cast(_op_expr(code, op, ex, ey, t), res_t, out.dtype)};"
    launch(f"lat_{op}", [out], ins, scalars, body, code)
    return out


_PYCMP = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
          "gt": operator.gt, "ge": operator.ge}


def _compare_beyond_range(op: str, x: Any, y: Any, t: np.dtype) -> bool | None:
    """NumPy compares integers with a Python int beyond their type's range exactly
    (uint8 > -3 is True everywhere) instead of converting it: the result is one value for
    every element, returned here; None when the scalar is in range."""
    info = np.iinfo(t)
    for s in (x, y):
        if type(s) is int and not info.min <= s <= info.max:
            # Every element of the array compares with s as its type's minimum does.
            return _PYCMP[op](info.min, s) if s is y else _PYCMP[op](s, info.min)
    return None


def _check_int_exponent(y: Any) -> None:
    """NumPy refuses negative integer powers of integers; so does lattice (checked before
    the kernel runs, never after)."""
    if isinstance(y, GPUArray):
        if y.dtype.kind == "i" and y.size and bool((min(y).get()) < 0):
            raise ValueError("Integers to negative integer powers are not allowed.")
    elif not isinstance(y, (float, complex)) and np.asarray(y).dtype.kind == "i" and y < 0:
        raise ValueError("Integers to negative integer powers are not allowed.")


def _axpbyz(a: Any, x: GPUArray, b: Any, y: GPUArray, out: GPUArray | None) -> GPUArray:
    t = np.result_type(_dtype_of(a), x.dtype, _dtype_of(b), y.dtype)
    check_dtype(t)
    shape = np.broadcast_shapes(x.shape, y.shape)
    if out is None:
        out = _result(x, shape, t, _order_of([x, y]))
    sa, sb = np.asarray(a, dtype=t)[()], np.asarray(b, dtype=t)[()]
    code = Code()

    def body(o: list, e: list, s: list) -> str:
        ex, ey = code.cast(e[0], x.dtype, t), code.cast(e[1], y.dtype, t)
        r = _op_expr(code, "add", _op_expr(code, "mul", s[0], ex, t),
                     _op_expr(code, "mul", s[1], ey, t), t)
        return f"{o[0]} = {code.cast(r, t, out.dtype)};"
    launch("lat_axpbyz", [out], [x, y], [sa, sb], body, code)
    return out


# ----------------------------------------------------------------------------------------
# Constructors
# ----------------------------------------------------------------------------------------

def _get_common_dtype(obj1: Any, obj2: Any) -> np.dtype:
    """PyCUDA's: the dtype NumPy gives an operation of the two (arrays or scalars)."""
    from .compyte.array import get_common_dtype
    return get_common_dtype(obj1, obj2, True)


def _memcpy_discontig(dst: Any, src: Any, async_: bool = False, stream: Any = None) -> None:
    """PyCUDA's: copies src into dst, of one shape and dtype, whatever their strides;
    either may be a NumPy array."""
    if not isinstance(dst, GPUArray) and not isinstance(src, GPUArray):
        raise TypeError("_memcpy_discontig: at least one of dst and src must be a GPUArray")
    if dst.shape != src.shape:
        raise ValueError(f"_memcpy_discontig: src and dst must be same shape ({src.shape} "
                         f"and {dst.shape})")
    if dst.dtype != src.dtype:
        raise TypeError(f"_memcpy_discontig: src and dst must have same dtype ({src.dtype} "
                        f"and {dst.dtype})")
    if not isinstance(dst, GPUArray):
        dst[...] = src.get()
    elif not isinstance(src, GPUArray):
        _copy_into(dst, to_gpu(np.ascontiguousarray(src), context=dst._ctx))
    else:
        _copy_into(dst, src)


def to_gpu(ary: Any, allocator: Any = None, *, context: Any = None) -> GPUArray:
    """A device copy of a host array; C and Fortran order are kept."""
    a = np.asarray(ary)
    if not a.flags.forc:
        a = np.ascontiguousarray(a)
    order = "C" if a.flags.c_contiguous else "F"
    g = GPUArray(a.shape, a.dtype, allocator=allocator, order=order, context=context)
    if a.size:
        _core.memcpy_htod(g._ptr, a, context=g._ctx)
    return g


def to_gpu_async(ary: Any, allocator: Any = None, stream: Any = None) -> GPUArray:
    a = np.asarray(ary)
    if not a.flags.forc:
        a = np.ascontiguousarray(a)
    g = GPUArray(a.shape, a.dtype, allocator=allocator,
                 order="C" if a.flags.c_contiguous else "F")
    if a.size:
        _core.memcpy_htod(g._ptr, a, stream, context=g._ctx)
    return g


def empty(shape: Any, dtype: Any = np.float64, allocator: Any = None,
          order: str = "C") -> GPUArray:
    return GPUArray(shape, dtype, allocator=allocator, order=order)


def zeros(shape: Any, dtype: Any = np.float64, allocator: Any = None,
          order: str = "C") -> GPUArray:
    g = GPUArray(shape, dtype, allocator=allocator, order=order)
    if g.nbytes:
        _core.memset_d8(g._ptr, 0, g.nbytes, context=g._ctx)
    return g


def ones(shape: Any, dtype: Any = np.float64, allocator: Any = None,
         order: str = "C") -> GPUArray:
    return GPUArray(shape, dtype, allocator=allocator, order=order).fill(1)


def empty_like(other_ary: GPUArray, dtype: Any = None, order: str = "K") -> GPUArray:
    return _new_like(other_ary, dtype, order)


def zeros_like(other_ary: GPUArray, dtype: Any = None, order: str = "K") -> GPUArray:
    g = _new_like(other_ary, dtype, order)
    if g.nbytes:
        _core.memset_d8(g._ptr, 0, g.nbytes, context=g._ctx)
    return g


def ones_like(other_ary: GPUArray, dtype: Any = None, order: str = "K") -> GPUArray:
    return _new_like(other_ary, dtype, order).fill(1)


def arange(*args: Any, **kwargs: Any) -> GPUArray:
    """NumPy's arange on the device: ``arange([start,] stop[, step], dtype=None)``."""
    dtype = kwargs.pop("dtype", None)
    allocator = kwargs.pop("allocator", None)
    kwargs.pop("stream", None)
    start, stop, step = 0, None, 1
    if len(args) == 1:
        stop = args[0]
    elif len(args) == 2:
        start, stop = args
    elif len(args) == 3:
        start, stop, step = args
    elif args:
        raise TypeError("arange takes at most 3 positional arguments")
    start = kwargs.pop("start", start)
    stop = kwargs.pop("stop", stop)
    step = kwargs.pop("step", step)
    if kwargs:
        raise TypeError(f"arange: unexpected arguments {sorted(kwargs)}")
    if not args and stop is None:
        raise ValueError("arange: stop argument required")
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ValueError("arange: step must not be zero")
    dt = np.result_type(*(np.asarray(v).dtype if not isinstance(v, (int, float))
                          else np.array(v).dtype for v in (start, stop, step))) \
        if dtype is None else check_dtype(dtype)
    check_dtype(dt)
    n = builtins.max(int(math.ceil((stop - start) / step)), 0)
    g = GPUArray((n,), dt, allocator=allocator)
    integral = dt.kind in "iu" and _py_all(isinstance(v, (int, np.integer))
                                           for v in (start, stop, step))
    if integral:
        sc = [np.int64(start), np.int64(step)]
        expr = "s[0] + (long long)i * s[1]"
    else:
        sc = [np.float64(start), np.float64(step)]
        expr = "s[0] + (double)i * s[1]"
    code = Code()
    src_t = np.dtype(np.int64 if integral else np.float64)
    launch("lat_arange", [g], [], sc,
           lambda o, a, s: f"{o[0]} = {code.cast(expr.replace('s[0]', s[0]).replace('s[1]', s[1]), src_t, dt)};",
           code)
    return g


# ----------------------------------------------------------------------------------------
# Gathers, joins, selections
# ----------------------------------------------------------------------------------------

def _index_ctype(idx: GPUArray) -> None:
    if idx.dtype.kind not in "iu":
        raise TypeError(f"indices must be of an integer type, not {idx.dtype}")


def take(a: GPUArray, indices: GPUArray, out: GPUArray | None = None,
         stream: Any = None) -> GPUArray:
    """a.flat[indices] (the gather PyCUDA does through a texture)."""
    _index_ctype(indices)
    src = a if a.flags.c_contiguous else a.copy(order="C")
    if out is None:
        out = GPUArray(indices.shape, a.dtype, context=a._ctx, allocator=_alloc_of(a))
    idx = indices if indices.flags.c_contiguous else indices.copy(order="C")
    code = Code()
    code.need_complex(a.dtype)
    code.need_bytes(a.dtype)
    launch("lat_take", [out], [idx], [np.uint64(src._ptr)],
           lambda o, e, s: f"{o[0]} = " + code.cast(
               f"((const {ctype(a.dtype)} *)(unsigned long long){s[0]})[{e[0]}]", a.dtype,
               out.dtype) + ";", code)
    return out


def multi_take(arrays: Sequence[GPUArray], indices: GPUArray, out: Any = None,
               stream: Any = None) -> list[GPUArray]:
    if out is None:
        out = [None] * len(arrays)
    return [take(a, indices, o) for a, o in zip(arrays, out)]


def multi_take_put(arrays: Sequence[GPUArray], dest_indices: GPUArray, src_indices: GPUArray,
                   dest_shape: Any = None, out: Any = None, stream: Any = None,
                   src_offsets: Any = None) -> list[GPUArray]:
    """out[k][dest_indices[i]] = arrays[k][src_indices[i] + src_offsets[k]]."""
    _index_ctype(dest_indices)
    _index_ctype(src_indices)
    if dest_indices.size != src_indices.size:
        raise ValueError("dest_indices and src_indices must have the same size")
    if src_offsets is None:
        src_offsets = [0] * len(arrays)
    if out is None:
        out = [GPUArray(dest_shape, a.dtype, context=a._ctx,
                        allocator=_alloc_of(a)) for a in arrays]
    for a, o, off in zip(arrays, out, src_offsets):
        if not (a.flags.c_contiguous and o.flags.c_contiguous):
            raise ValueError("multi_take_put: contiguous arrays only")
        t = ctype(a.dtype)
        code = Code()
        code.need_complex(a.dtype)
        code.need_complex(o.dtype)
        launch("lat_take_put", [dest_indices], [src_indices],
               [np.uint64(o._ptr), np.uint64(a._ptr), np.int64(off)],
               lambda od, e, s: f"(({t} *)(unsigned long long){s[0]})[{od[0]}] = "
                                f"{code.cast(f'((const {ctype(a.dtype)} *)(unsigned long long){s[1]})[{e[0]} + {s[2]}]', a.dtype, o.dtype)};",
               code)
    return out


def multi_put(arrays: Sequence[GPUArray], dest_indices: GPUArray, dest_shape: Any = None,
              out: Any = None, stream: Any = None) -> list[GPUArray]:
    """out[k][dest_indices[i]] = arrays[k][i]."""
    _index_ctype(dest_indices)
    if out is None:
        out = [GPUArray(dest_shape, a.dtype, context=a._ctx,
                        allocator=_alloc_of(a)) for a in arrays]
    for a, o in zip(arrays, out):
        src = a if a.flags.c_contiguous else a.copy(order="C")
        t = ctype(o.dtype)
        code = Code()
        code.need_complex(o.dtype)
        launch("lat_put", [dest_indices], [src], [np.uint64(o._ptr)],
               lambda od, e, s: f"(({t} *)(unsigned long long){s[0]})[{od[0]}] = "
                                f"{code.cast(e[0], src.dtype, o.dtype)};",
               code, n=dest_indices.size)
    return out


def concatenate(arrays: Sequence[GPUArray], axis: int = 0, allocator: Any = None) -> GPUArray:
    arrays = list(arrays)
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = axis % nd
    for a in arrays:
        if a.ndim != nd or a.shape[:axis] + a.shape[axis + 1:] != \
                arrays[0].shape[:axis] + arrays[0].shape[axis + 1:]:
            raise ValueError("all the input array dimensions except for the concatenation "
                             "axis must match exactly")
    shape = list(arrays[0].shape)
    shape[axis] = _py_sum(a.shape[axis] for a in arrays)
    dt = np.result_type(*(a.dtype for a in arrays))
    out = GPUArray(tuple(shape), dt, allocator=allocator, context=arrays[0]._ctx)
    pos = 0
    for a in arrays:
        key = (slice(None),) * axis + (slice(pos, pos + a.shape[axis]),)
        _copy_into(out[key], a)
        pos += a.shape[axis]
    return out


def stack(arrays: Sequence[GPUArray], axis: int = 0, allocator: Any = None) -> GPUArray:
    arrays = list(arrays)
    if not arrays:
        raise ValueError("need at least one array to stack")
    shp = arrays[0].shape
    if _py_any(a.shape != shp for a in arrays):
        raise ValueError("all input arrays must have the same shape")
    nd = len(shp) + 1
    if not -nd <= axis < nd:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {nd}")
    axis = axis % nd
    shape = shp[:axis] + (len(arrays),) + shp[axis:]
    dt = np.result_type(*(a.dtype for a in arrays))
    out = GPUArray(shape, dt, allocator=allocator, context=arrays[0]._ctx)
    for k, a in enumerate(arrays):
        _copy_into(out[(slice(None),) * axis + (k,)], a)
    return out


def transpose(a: GPUArray, axes: Any = None) -> GPUArray:
    return a.transpose(axes)



def reshape(a: GPUArray, *shape: Any, **kwargs: Any) -> GPUArray:
    return a.reshape(*shape, **kwargs)


def _select(cond_expr: Any, criterion: GPUArray, then_: Any, else_: Any,
            out: GPUArray | None, name: str) -> GPUArray:
    ot, oe = _operand(then_), _operand(else_)
    if ot is None or oe is None:
        raise TypeError(f"{name}: then_ and else_ must be arrays or scalars")
    t = np.result_type(_dtype_of(ot), _dtype_of(oe))
    check_dtype(t)
    arrays = [criterion] + [v for v in (ot, oe) if isinstance(v, GPUArray)]
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    if out is None:
        out = GPUArray(shape, t, order=_order_of(arrays), context=criterion._ctx,
                       allocator=_alloc_of(criterion))
    code = Code()
    ins, scalars = [criterion], []

    def val(v: Any) -> Any:
        if isinstance(v, GPUArray):
            ins.append(v)
            return ("a", len(ins) - 1, v.dtype)
        scalars.append(np.asarray(v, dtype=t)[()])
        return ("s", len(scalars) - 1, t)
    vt, ve = val(ot), val(oe)

    def body(o: list, a: list, s: list) -> str:
        et = code.cast((a if vt[0] == "a" else s)[vt[1]], vt[2], t)
        ee = code.cast((a if ve[0] == "a" else s)[ve[1]], ve[2], t)
        c = cond_expr(code, a[0], criterion.dtype)
        return f"{o[0]} = {code.cast(f'({c} ? {et} : {ee})', t, out.dtype)};"
    launch(name, [out], ins, scalars, body, code)
    return out


def where(criterion: GPUArray, then_: Any, else_: Any, out: GPUArray | None = None,
          stream: Any = None) -> GPUArray:
    """NumPy's where(criterion, then_, else_), broadcasting."""
    return _select(lambda c, e, dt: c.nonzero(e, dt), criterion, then_, else_, out,
                   "lat_where")


def if_positive(criterion: GPUArray, then_: Any, else_: Any, out: GPUArray | None = None,
                stream: Any = None) -> GPUArray:
    """criterion > 0 ? then_ : else_ elementwise."""
    if criterion.dtype.kind == "c":
        raise TypeError("if_positive: a complex criterion has no sign")
    return _select(lambda c, e, dt: f"(({e}) > 0)", criterion, then_, else_, out,
                   "lat_if_positive")


def _minmax2(op: str, a: Any, b: Any, out: GPUArray | None) -> GPUArray:
    oa, ob = _operand(a), _operand(b)
    if oa is None or ob is None:
        raise TypeError(f"{op}: operands must be arrays or scalars")
    t = np.result_type(_dtype_of(oa), _dtype_of(ob))
    check_dtype(t)
    arrays = [v for v in (oa, ob) if isinstance(v, GPUArray)]
    shape = np.broadcast_shapes(*(v.shape for v in arrays))
    if out is None:
        out = GPUArray(shape, t, order=_order_of(arrays), context=arrays[0]._ctx,
                       allocator=_alloc_of(arrays[0]))
    code = Code()
    ins, scalars = [], []

    def val(v: Any) -> Any:
        if isinstance(v, GPUArray):
            ins.append(v)
            return ("a", len(ins) - 1, v.dtype)
        scalars.append(np.asarray(v, dtype=t)[()])
        return ("s", len(scalars) - 1, t)
    va, vb = val(oa), val(ob)

    def body(o: list, e: list, s: list) -> str:
        ea = code.cast((e if va[0] == "a" else s)[va[1]], va[2], t)
        eb = code.cast((e if vb[0] == "a" else s)[vb[1]], vb[2], t)
        if t.kind == "f":
            # Evaluate each once: a NaN in either operand is the result (NumPy).
            c = ctype(t)
            cmp = ">" if op == "maximum" else "<"
            return (f"{{ const {c} x_ = {ea}, y_ = {eb}; "
                    f"{o[0]} = {code.cast(f'((x_ != x_ || x_ {cmp} y_) ? x_ : y_)', t, out.dtype)}; }}")
        return f"{o[0]} = {code.cast(_op_expr(code, op, ea, eb, t), t, out.dtype)};"
    launch(f"lat_{op}", [out], ins, scalars, body, code)
    return out


def maximum(a: Any, b: Any, out: GPUArray | None = None, stream: Any = None) -> GPUArray:
    return _minmax2("maximum", a, b, out)


def minimum(a: Any, b: Any, out: GPUArray | None = None, stream: Any = None) -> GPUArray:
    return _minmax2("minimum", a, b, out)


def _logical(op: str, x1: Any, x2: Any, out: GPUArray | None) -> GPUArray:
    o1, o2 = _operand(x1), _operand(x2)
    if o1 is None or o2 is None:
        raise TypeError(f"logical_{op}: operands must be arrays or scalars")
    arrays = [v for v in (o1, o2) if isinstance(v, GPUArray)]
    shape = np.broadcast_shapes(*(v.shape for v in arrays))
    if out is None:
        out = GPUArray(shape, np.bool_, order=_order_of(arrays), context=arrays[0]._ctx,
                       allocator=_alloc_of(arrays[0]))
    code = Code()
    ins, scalars = [], []

    def val(v: Any) -> Any:
        if isinstance(v, GPUArray):
            ins.append(v)
            return ("a", len(ins) - 1, v.dtype)
        sv = np.asarray(v)[()]
        scalars.append(sv)
        return ("s", len(scalars) - 1, sv.dtype)
    v1, v2 = val(o1), val(o2)
    c_op = "&&" if op == "and" else "||"

    def body(o: list, e: list, s: list) -> str:
        n1 = code.nonzero((e if v1[0] == "a" else s)[v1[1]], v1[2])
        n2 = code.nonzero((e if v2[0] == "a" else s)[v2[1]], v2[2])
        return f"{o[0]} = {code.cast(f'({n1} {c_op} {n2})', np.dtype(np.int32), out.dtype)};"
    launch(f"lat_logical_{op}", [out], ins, scalars, body, code)
    return out


def logical_and(x1: Any, x2: Any, /, out: GPUArray | None = None, *,
                allocator: Any = None) -> GPUArray:
    return _logical("and", x1, x2, out)


def logical_or(x1: Any, x2: Any, /, out: GPUArray | None = None, *,
               allocator: Any = None) -> GPUArray:
    return _logical("or", x1, x2, out)


def logical_not(x: GPUArray, /, out: GPUArray | None = None, *,
                allocator: Any = None) -> GPUArray:
    if out is None:
        out = _new_like(x, np.bool_)
    code = Code()
    launch("lat_logical_not", [out], [x], [],
           lambda o, e, s: f"{o[0]} = {code.cast(f'!{code.nonzero(e[0], x.dtype)}', np.dtype(np.int32), out.dtype)};",
           code)
    return out


# ----------------------------------------------------------------------------------------
# Reductions (lattice's reduction generator, over the array's memory)
# ----------------------------------------------------------------------------------------

def _reduce(a: GPUArray, dtype_out: np.dtype, neutral: str, reduce_expr: str,
            map_expr: str, arguments: str, args: list, n: int, out_ptr: int,
            preamble: str = "") -> None:
    _k.reduce(a._ctx, dtype_out, neutral, reduce_expr, map_expr, arguments, args, n, out_ptr,
              preamble)


def _contig(a: GPUArray) -> GPUArray:
    return a if a.flags.forc else a.copy(order="C")


def _neutral(dt: np.dtype, which: str) -> str:
    if dt.kind == "f":
        return "INFINITY" if which == "min" else "-INFINITY"
    info = np.iinfo(dt)
    v = info.max if which == "min" else info.min
    if dt.kind == "u":
        return f"{v}ull"
    return f"({v + 1}ll - 1)" if v < 0 else f"{v}ll"


def _sum_dtype(dt: np.dtype) -> np.dtype:
    """NumPy's sum type: small integers and bools add up in the platform's integer."""
    if dt == np.bool_ or (dt.kind == "i" and dt.itemsize < 8):
        return np.dtype(np.int64)
    if dt.kind == "u" and dt.itemsize < 8:
        return np.dtype(np.uint64)
    return dt


def _sum_map(a: GPUArray, map_c: Any, dt: np.dtype, n: int, extra_args: str, args: list,
             allocator: Any, name_hint: str = "") -> GPUArray:
    """A 0-d array of dt: the sum of map_c(code) over i < n (complex: by parts)."""
    for arg in args:
        _no_struct(arg.dtype, "sum")
    out = GPUArray((), dt, allocator=allocator or _alloc_of(a), context=a._ctx)
    code = Code()
    for arg in args:
        code.need_complex(arg.dtype)
    if dt.kind == "c":
        rt = real_of(dt)
        e = map_c(code, dt)
        for part, off in (("x", 0), ("y", rt.itemsize)):
            _reduce(a, rt, "0", "a+b", f"({e}).{part}", extra_args, args, n, out._ptr + off,
                    code.text())
    else:
        _reduce(a, dt, "0", "a+b", map_c(code, dt), extra_args, args, n, out._ptr,
                code.text())
    return out


def sum(a: GPUArray, dtype: Any = None, stream: Any = None,  # noqa: A001
        allocator: Any = None) -> GPUArray:
    """The sum of all elements, a 0-d array of NumPy's sum type (or ``dtype``)."""
    dt = _sum_dtype(a.dtype) if dtype is None else check_dtype(dtype)
    src = _contig(a)
    return _sum_map(src, lambda c, t: c.cast("x[i]", src.dtype, t), dt, src.size,
                    f"const {ctype(src.dtype)} *x", [src], allocator)


def subset_sum(subset: GPUArray, a: GPUArray, dtype: Any = None, stream: Any = None,
               allocator: Any = None) -> GPUArray:
    """The sum of a.flat[subset]."""
    _index_ctype(subset)
    dt = _sum_dtype(a.dtype) if dtype is None else check_dtype(dtype)
    src = a if a.flags.c_contiguous else a.copy(order="C")
    idx = _contig(subset)
    return _sum_map(src, lambda c, t: c.cast("x[idx[i]]", src.dtype, t), dt, idx.size,
                    f"const {ctype(idx.dtype)} *idx, const {ctype(src.dtype)} *x",
                    [idx, src], allocator)


def _dot(a: GPUArray, b: GPUArray, dtype: Any, conj_a: bool, idx: GPUArray | None,
         allocator: Any) -> GPUArray:
    if a.size != b.size:
        raise ValueError(f"dot: arrays of {a.size} and {b.size} elements")
    _no_struct(a.dtype, "dot")
    _no_struct(b.dtype, "dot")
    t = np.result_type(a.dtype, b.dtype) if dtype is None else check_dtype(dtype)
    check_dtype(t)
    x = a if a.flags.c_contiguous else a.copy(order="C")
    y = b if b.flags.c_contiguous else b.copy(order="C")
    sel = "idx[i]" if idx is not None else "i"

    def m(code: Code, dt: np.dtype) -> str:
        ex = code.cast(f"x[{sel}]", x.dtype, dt)
        if conj_a and dt.kind == "c":
            ex = f"{_k._zname(dt)}_conj({ex})"
        return _op_expr(code, "mul", ex, code.cast(f"y[{sel}]", y.dtype, dt), dt)
    args_decl = f"const {ctype(x.dtype)} *x, const {ctype(y.dtype)} *y"
    args = [x, y]
    n = x.size
    if idx is not None:
        _index_ctype(idx)
        idx = _contig(idx)
        args_decl = f"const {ctype(idx.dtype)} *idx, " + args_decl
        args = [idx, x, y]
        n = idx.size
    return _sum_map(x, m, t, n, args_decl, args, allocator)


def dot(a: GPUArray, b: GPUArray, dtype: Any = None, stream: Any = None,
        allocator: Any = None) -> GPUArray:
    """sum(a * b) over all elements (no conjugation), a 0-d array."""
    return _dot(a, b, dtype, False, None, allocator)


def vdot(a: GPUArray, b: GPUArray, dtype: Any = None, stream: Any = None,
         allocator: Any = None) -> GPUArray:
    """sum(conj(a) * b), a 0-d array."""
    return _dot(a, b, dtype, True, None, allocator)


def subset_dot(subset: GPUArray, a: GPUArray, b: GPUArray, dtype: Any = None,
               stream: Any = None, allocator: Any = None) -> GPUArray:
    return _dot(a, b, dtype, False, subset, allocator)


def _minmax(which: str, a: GPUArray, idx: GPUArray | None) -> GPUArray:
    dt = a.dtype
    _no_struct(dt, which)
    if dt.kind == "c":
        raise TypeError(f"{which}: complex numbers have no order here (as in PyCUDA)")
    if dt == np.bool_:
        raise TypeError(f"{which} of a bool array: use any()/all()")
    n = a.size if idx is None else idx.size
    if n == 0:
        raise ValueError(f"zero-size array to reduction operation {which} which has no "
                         "identity")
    cmp = "<" if which == "min" else ">"
    if dt.kind == "f":
        # A NaN in either operand is the result (NumPy): a when a is NaN, else b when
        # the comparison fails because b is.
        red = f"((a {cmp} b || a != a) ? a : b)"
    else:
        red = f"((a {cmp} b) ? a : b)"
    out = GPUArray((), dt, context=a._ctx, allocator=_alloc_of(a))
    src = a if a.flags.c_contiguous else a.copy(order="C")
    if idx is None:
        _reduce(src, dt, _neutral(dt, which), red, "x[i]", f"const {ctype(dt)} *x", [src],
                n, out._ptr)
    else:
        _index_ctype(idx)
        idx = _contig(idx)
        _reduce(src, dt, _neutral(dt, which), red, "x[idx[i]]",
                f"const {ctype(idx.dtype)} *idx, const {ctype(dt)} *x", [idx, src], n,
                out._ptr)
    return out


def min(a: GPUArray, stream: Any = None) -> GPUArray:  # noqa: A001
    return _minmax("min", a, None)


def max(a: GPUArray, stream: Any = None) -> GPUArray:  # noqa: A001
    return _minmax("max", a, None)


def subset_min(subset: GPUArray, a: GPUArray, stream: Any = None) -> GPUArray:
    return _minmax("min", a, subset)


def subset_max(subset: GPUArray, a: GPUArray, stream: Any = None) -> GPUArray:
    return _minmax("max", a, subset)


def _anyall(which: str, a: GPUArray, allocator: Any) -> GPUArray:
    out = GPUArray((), np.bool_, allocator=allocator or _alloc_of(a), context=a._ctx)
    src = _contig(a)
    code = Code()
    code.need_complex(src.dtype)
    nz = code.nonzero("x[i]", src.dtype)
    _reduce(src, np.dtype(np.uint8), "0" if which == "any" else "1",
            "a | b" if which == "any" else "a & b", f"(unsigned char){nz}",
            f"const {ctype(src.dtype)} *x", [src], src.size, out._ptr, code.text())
    return out


def any(a: GPUArray, stream: Any = None, allocator: Any = None) -> GPUArray:  # noqa: A001
    """Whether any element is nonzero, a 0-d bool array."""
    return _anyall("any", a, allocator)


def all(a: GPUArray, stream: Any = None, allocator: Any = None) -> GPUArray:  # noqa: A001
    """Whether every element is nonzero, a 0-d bool array."""
    return _anyall("all", a, allocator)


# ----------------------------------------------------------------------------------------
# CUDA's vector types as NumPy dtypes
# ----------------------------------------------------------------------------------------

try:
    # The driver layer's vector dtypes, registered with tools.dtype_to_ctype.
    from ._vec import vec  # noqa: F401
except ImportError:  # until that layer has them: the same dtypes, unregistered
    class vec:  # type: ignore[no-redef]  # noqa: N801
        """CUDA's vector types (float3, int4...) as packed NumPy struct dtypes with fields
        x, y, z, w, and ``make_<type>(...)`` giving a 0-d array of one."""

    def _make_vec_types() -> None:
        bases = [("char", np.int8), ("uchar", np.uint8), ("short", np.int16),
                 ("ushort", np.uint16), ("int", np.int32), ("uint", np.uint32),
                 ("long", np.int64), ("ulong", np.uint64), ("longlong", np.int64),
                 ("ulonglong", np.uint64), ("float", np.float32), ("double", np.float64)]
        for name, base in bases:
            for count in (1, 2, 3, 4):
                dt = np.dtype([(f, base) for f in "xyzw"[:count]])
                tname = f"{name}{count}"
                setattr(vec, tname, dt)

                def make(*vals: Any, _dt: np.dtype = dt) -> np.ndarray:
                    if len(vals) != len(_dt.names):
                        raise TypeError(f"make: {len(_dt.names)} values, not {len(vals)}")
                    return np.array(tuple(vals), dtype=_dt)
                setattr(vec, f"make_{tname}", staticmethod(make))

    _make_vec_types()


# ----------------------------------------------------------------------------------------
# Handles are checked by kind
# ----------------------------------------------------------------------------------------

def _kinds(f: Any) -> Any:
    """f, refusing an ``out`` that is not a GPUArray (or a list of them, for the multi_*
    functions) and a ``stream`` that is not a Stream: a stream given where an output
    belongs must never be written to as one."""
    import functools
    import inspect
    names = list(inspect.signature(f).parameters)
    checks = [(names.index(n), n, t) for n, t in (("out", GPUArray), ("stream", _core.Stream))
              if n in names]

    @functools.wraps(f)
    def g(*args: Any, **kw: Any) -> Any:
        for idx, name, kind in checks:
            v = kw[name] if name in kw else (args[idx] if idx < len(args) else None)
            if v is None or isinstance(v, kind) or \
                    (name == "out" and isinstance(v, (list, tuple)) and
                     _py_all(isinstance(e, GPUArray) or e is None for e in v)):
                continue
            raise TypeError(f"{f.__name__}: {name} must be a {kind.__name__} or None, not "
                            f"{type(v).__name__}")
        return f(*args, **kw)
    return g


for _name in __all__:
    _obj = globals()[_name]
    if callable(_obj) and not isinstance(_obj, type) and _name != "splay":
        globals()[_name] = _kinds(_obj)
for _name in ("reverse", "get", "get_async", "set", "set_async", "astype", "fill", "conj",
              "mul_add", "sum", "any", "all", "min", "max"):
    setattr(GPUArray, _name, _kinds(getattr(GPUArray, _name)))
GPUArray.conjugate = GPUArray.conj
del _name, _obj
