"""Device arrays and the kernels lattice generates for them (``include/lattice/array.h``).

``Array`` is an N-dimensional array in C order in a context's device memory: made from
NumPy (``to_device``), read back with ``get()`` or ``numpy.asarray``; arithmetic,
comparisons, math functions (``lattice.math``), reductions and ``dot`` all run as
kernels on the context's backend. Python scalars combine with arrays as NumPy 2 does
(``2 * a`` and ``0.5 * a`` keep a float32 array float32); NumPy scalars and arrays of two
types combine as C's usual arithmetic conversions say (int32 + float32 is float32).
Comparisons give uint8 masks (0 or 1), not bools.
"""

from __future__ import annotations

import ctypes
import re
from ctypes import byref, c_size_t, c_void_p
from typing import Any, Sequence

import numpy as np

from . import _lib
from ._lib import lib
from .core import (Context, Stream, _fill_args, _Owned, _Param, get_context)
from .errors import LatticeError, check

__all__ = ["Array", "to_device", "empty", "zeros", "full", "arange", "empty_like",
           "zeros_like", "dot", "where", "ElementwiseKernel", "ReductionKernel",
           "InclusiveScanKernel", "ExclusiveScanKernel", "Random", "dtype_code"]

_DTYPES = [None, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
           np.uint64, np.float32, np.float64]
_TO_CODE = {np.dtype(t): i for i, t in enumerate(_DTYPES) if t is not None}
_FROM_CODE = {i: np.dtype(t) for i, t in enumerate(_DTYPES) if t is not None}


def dtype_code(dtype: Any) -> int:
    """lattice's lat_dtype value of a NumPy dtype (bool is uint8)."""
    dt = np.dtype(dtype)
    if dt == np.bool_:
        dt = np.dtype(np.uint8)
    try:
        return _TO_CODE[dt]
    except KeyError:
        raise TypeError(f"lattice arrays cannot hold {dt} (int8..int64, uint8..uint64, "
                        "float32, float64)") from None


def _shape(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def _cshape(shape: tuple[int, ...]):
    return (c_size_t * max(len(shape), 1))(*shape)


def _scalar(value: Any, dtype: np.dtype) -> "_lib.scalar":
    s = _lib.scalar()
    s.dtype = dtype_code(dtype)
    if dtype.kind == "f":
        s.value.f = float(value)
    elif dtype.kind == "u":
        s.value.u = int(value) & 0xFFFFFFFFFFFFFFFF
    else:
        s.value.i = int(value)
    return s


def _scalar_value(s: "_lib.scalar") -> Any:
    dt = _FROM_CODE[s.dtype]
    v = s.value.f if dt.kind == "f" else (s.value.u if dt.kind == "u" else s.value.i)
    return dt.type(v)


def _weak_dtype(value: Any, array_dtype: np.dtype) -> np.dtype:
    """The type a scalar takes next to an array: a NumPy scalar keeps its own; a Python
    int takes the array's type, a Python float the array's float type (NEP 50)."""
    if isinstance(value, np.generic):
        return value.dtype if value.dtype != np.bool_ else np.dtype(np.uint8)
    if isinstance(value, (bool, int)):
        return array_dtype
    if isinstance(value, float):
        return array_dtype if array_dtype.kind == "f" else np.dtype(np.float64)
    raise TypeError(f"cannot combine {type(value).__name__} with a lattice array")


class Array(_Owned):
    """A device array (PyCUDA's GPUArray over lattice's ``lat_array``)."""

    __array_priority__ = 100  # NumPy defers `ndarray op Array` to us

    def __init__(self, shape: Any, dtype: Any = np.float32, *, context: Context | None = None,
                 _handle: int | None = None, _base: "Array | None" = None):
        self._ctx = get_context(context)
        self._base = _base
        if _handle is None:
            shape = _shape(shape)
            h = c_void_p()
            check(lib.lat_array_empty(self._ctx.handle, dtype_code(dtype), len(shape),
                                      _cshape(shape), byref(h)), "empty")
            _handle = h.value
        self._handle = _handle
        self._shape = self._read_shape()
        self.dtype: np.dtype = _FROM_CODE[lib.lat_array_dtype(_handle)]

    def _read_shape(self) -> tuple[int, ...]:
        nd = lib.lat_array_ndim(self._handle)
        p = lib.lat_array_shape(self._handle)
        return tuple(p[i] for i in range(nd))

    @classmethod
    def _wrap(cls, ctx: Context, handle: int, base: "Array | None" = None) -> "Array":
        return cls(None, context=ctx, _handle=handle, _base=base)

    def _new(self, handle: int, base: "Array | None" = None) -> "Array":
        return type(self)._wrap(self._ctx, handle, base)

    def take(self, indices: "Array") -> "Array":
        """self[indices] for a device array of integer indices (flattened self)."""
        key = (self.dtype, indices.dtype, id(self._ctx))
        k = _take_kernels.get(key)
        if k is None:
            names = {np.dtype(v): c for c, v in reversed(list(_CTYPES.items()))}
            k = _take_kernels[key] = ElementwiseKernel(
                f"{names[self.dtype]} *dest, const {names[self.dtype]} *src, "
                f"const {names[indices.dtype]} *idx", "dest[i] = src[idx[i]]", "take",
                context=self._ctx)
        out = type(self)(indices.shape, self.dtype, context=self._ctx)
        k(out, self, indices, n=indices.size)
        return out

    def _release(self, h: int) -> None:
        lib.lat_array_destroy(h)

    @property
    def handle(self) -> int:
        if self._handle is None or not self._ctx.alive:
            raise LatticeError("the array has been freed", -1, "LAT_ERROR_INVALID_VALUE")
        return self._handle

    # -- properties ----------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def size(self) -> int:
        return int(np.prod(self._shape, dtype=np.int64)) if self._shape else 1

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def strides(self) -> tuple[int, ...]:
        """C-order strides in bytes, as NumPy gives them."""
        return _c_strides(self._shape, self.itemsize)

    @property
    def ptr(self) -> int:
        """The device address of the first element (0 for an empty array)."""
        return lib.lat_array_ptr(self.handle)

    _lattice_ptr_ = ptr

    @property
    def context(self) -> Context:
        return self._ctx

    @property
    def __cuda_array_interface__(self) -> dict:
        """CUDA's array interface (version 3), for CuPy, Numba and PyTorch. Only arrays of a
        CUDA context have one: the emulator's memory is not a GPU's."""
        if self._ctx.backend != "cuda":
            raise AttributeError("__cuda_array_interface__: only arrays of a CUDA context "
                                 f"have one (this one is on '{self._ctx.backend}')")
        return {"shape": self._shape, "typestr": self.dtype.str, "data": (self.ptr, False),
                "version": 3, "strides": None, "stream": None}

    # -- host transfers --------------------------------------------------------------------
    def get(self, ary: np.ndarray | None = None, stream: Stream | None = None,
            pagelocked: bool = False) -> np.ndarray:
        """A NumPy copy (into ``ary`` when given); waits for the array's operations."""
        out = np.empty(self._shape, self.dtype) if ary is None else ary
        if out.shape != self._shape or out.dtype != self.dtype or not out.flags.c_contiguous:
            raise ValueError(f"get: need a C-contiguous {self.dtype} array of shape "
                             f"{self._shape}, not {out.dtype} {out.shape}")
        if stream is None:
            check(lib.lat_array_get(self.handle, out.ctypes.data, out.nbytes), "get")
        else:
            check(lib.lat_array_get_async(self.handle, out.ctypes.data, out.nbytes,
                                          stream.handle), "get_async")
            stream._keep.append(out)
        return out

    def get_async(self, stream: Stream | None = None, ary: np.ndarray | None = None):
        return self.get(ary, stream=stream)

    def set(self, ary: Any, stream: Stream | None = None) -> "Array":
        """Copies a host array of the same size in (converted to the array's dtype)."""
        src = np.ascontiguousarray(ary, dtype=self.dtype)
        if src.size != self.size:
            raise ValueError(f"set: {src.size} elements for an array of {self.size}")
        if stream is None:
            check(lib.lat_array_set(self.handle, src.ctypes.data, src.nbytes), "set")
        else:
            check(lib.lat_array_set_async(self.handle, src.ctypes.data, src.nbytes,
                                          stream.handle), "set_async")
            stream._keep.append(src)
        return self

    set_async = set

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        a = self.get()
        return a if dtype is None else a.astype(dtype)

    def item(self) -> Any:
        if self.size != 1:
            raise ValueError("item: only an array of one element has one")
        return self.get().reshape(()).item()

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __bool__(self) -> bool:
        return bool(self.item())

    def __len__(self) -> int:
        if not self._shape:
            raise TypeError("len() of a 0-d array")
        return self._shape[0]

    def __repr__(self) -> str:
        return f"lattice.Array({self.get()!r}, backend={self._ctx.backend})" \
            if self._handle is not None else "<lattice.Array freed>"

    def __str__(self) -> str:
        return str(self.get())

    # -- shape --------------------------------------------------------------------------
    def reshape(self, *shape: Any, order: str = "C") -> "Array":
        if order != "C":
            raise ValueError("lattice arrays are C order")
        if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)):
            shape = tuple(shape[0])
        shape = list(_shape(shape))
        if -1 in shape:
            i = shape.index(-1)
            rest = int(np.prod([s for j, s in enumerate(shape) if j != i], dtype=np.int64))
            shape[i] = self.size // rest if rest else 0
        h = c_void_p()
        check(lib.lat_array_reshape(self.handle, len(shape), _cshape(tuple(shape)), byref(h)),
              "reshape")
        return self._new(h.value, self)

    def ravel(self) -> "Array":
        return self.reshape(self.size)

    def __getitem__(self, key: Any) -> "Array":
        if isinstance(key, (int, np.integer)):
            n = self._shape[0]
            k = int(key) + (n if key < 0 else 0)
            if not 0 <= k < n:
                raise IndexError(f"index {key} out of range for extent {n}")
            v = self[k:k + 1]
            return v.reshape(self._shape[1:]) if self.ndim > 1 else v.reshape(())
        if isinstance(key, slice):
            start, stop, step = key.indices(self._shape[0] if self._shape else 0)
            if step != 1:
                raise IndexError("lattice arrays take slices of step 1 only")
            h = c_void_p()
            check(lib.lat_array_slice(self.handle, start, max(stop, start), byref(h)), "slice")
            return self._new(h.value, self)
        raise IndexError("lattice arrays take an int or a slice of the first axis")

    def __setitem__(self, key: Any, value: Any) -> None:
        view = self[key]
        if isinstance(value, Array):
            check(lib.lat_array_copy(view.handle, value.handle), "copy")
        elif np.isscalar(value):
            view.fill(value)
        else:
            view.set(value)

    # -- copies -------------------------------------------------------------------------
    def copy(self) -> "Array":
        out = empty_like(self)
        check(lib.lat_array_copy(out.handle, self.handle), "copy")
        return out

    def astype(self, dtype: Any) -> "Array":
        h = c_void_p()
        check(lib.lat_array_astype(self.handle, dtype_code(dtype), byref(h)), "astype")
        return self._new(h.value)

    def fill(self, value: Any) -> "Array":
        check(lib.lat_array_fill(self.handle, _scalar(value, _weak_dtype(value, self.dtype))),
              "fill")
        return self

    # -- arithmetic -------------------------------------------------------------------------
    def _operand(self, x: Any, other_dtype: np.dtype) -> "_lib.operand":
        o = _lib.operand()
        if isinstance(x, Array):
            o.array = x.handle
        elif isinstance(x, np.ndarray) and x.ndim > 0:
            raise TypeError("combine a lattice array with a host array by copying it first "
                            "(lattice.to_device)")
        else:
            if isinstance(x, np.ndarray):
                x = x[()]
            o.scalar = _scalar(x, _weak_dtype(x, other_dtype))
        return o

    def _binary(self, op: int, x: Any, y: Any, out: "Array | None" = None) -> "Array":
        if not isinstance(x, (Array, int, float, np.generic, np.ndarray)) or \
                not isinstance(y, (Array, int, float, np.generic, np.ndarray)):
            return NotImplemented
        h = c_void_p()
        check(lib.lat_array_binary(op, self._operand(x, self.dtype),
                                   self._operand(y, self.dtype),
                                   None if out is None else out.handle, byref(h)), "operation")
        return out if out is not None else self._new(h.value)

    def _unary(self, op: int, out: "Array | None" = None) -> "Array":
        h = c_void_p()
        check(lib.lat_array_unary(op, self.handle, None if out is None else out.handle,
                                  byref(h)), "operation")
        return out if out is not None else self._new(h.value)

    def __add__(self, o): return self._binary(0, self, o)
    def __radd__(self, o): return self._binary(0, o, self)
    def __sub__(self, o): return self._binary(1, self, o)
    def __rsub__(self, o): return self._binary(1, o, self)
    def __mul__(self, o): return self._binary(2, self, o)
    def __rmul__(self, o): return self._binary(2, o, self)
    def __truediv__(self, o): return self._binary(3, self, o)
    def __rtruediv__(self, o): return self._binary(3, o, self)
    def __mod__(self, o): return self._binary(4, self, o)
    def __rmod__(self, o): return self._binary(4, o, self)
    def __pow__(self, o): return self._binary(5, self, o)
    def __rpow__(self, o): return self._binary(5, o, self)
    def __iadd__(self, o): return self._binary(0, self, o, self)
    def __isub__(self, o): return self._binary(1, self, o, self)
    def __imul__(self, o): return self._binary(2, self, o, self)
    def __itruediv__(self, o): return self._binary(3, self, o, self)
    def __eq__(self, o): return self._binary(12, self, o)  # type: ignore[override]
    def __ne__(self, o): return self._binary(13, self, o)  # type: ignore[override]
    def __lt__(self, o): return self._binary(14, self, o)
    def __le__(self, o): return self._binary(15, self, o)
    def __gt__(self, o): return self._binary(16, self, o)
    def __ge__(self, o): return self._binary(17, self, o)
    def __neg__(self): return self._unary(64)
    def __abs__(self): return self._unary(65)
    def __pos__(self): return self
    __hash__ = None  # type: ignore[assignment]

    def mul_add(self, selffac: Any, other: "Array", otherfac: Any) -> "Array":
        """selffac * self + otherfac * other (PyCUDA)."""
        return self * selffac + other * otherfac

    # -- reductions --------------------------------------------------------------------
    def _reduce(self, op: int, axis: int | None) -> "Array":
        h = c_void_p()
        if axis is None:
            check(lib.lat_array_reduce(op, self.handle, None, byref(h)), "reduction")
        else:
            check(lib.lat_array_reduce_axis(op, self.handle, axis, None, byref(h)), "reduction")
        return self._new(h.value)

    def sum(self, axis: int | None = None) -> "Array":
        """The sum (integers in int64/uint64), a 0-d array, or along an axis."""
        return self._reduce(0, axis)

    def prod(self, axis: int | None = None) -> "Array":
        return self._reduce(1, axis)

    def min(self, axis: int | None = None) -> "Array":
        return self._reduce(2, axis)

    def max(self, axis: int | None = None) -> "Array":
        return self._reduce(3, axis)

    def any(self, axis: int | None = None) -> "Array":
        return self._reduce(4, axis)

    def all(self, axis: int | None = None) -> "Array":
        return self._reduce(5, axis)

    def dot(self, other: "Array") -> "Array":
        return dot(self, other)


_take_kernels: dict = {}


def _c_strides(shape, itemsize):
    st, acc = [], itemsize
    for s in reversed(shape):
        st.append(acc)
        acc *= s
    return tuple(reversed(st))


# ----------------------------------------------------------------------------------------
# Constructors
# ----------------------------------------------------------------------------------------

def to_device(ary: Any, context: Context | None = None, cls: type = Array) -> Array:
    """A device copy of a host array (PyCUDA's ``to_gpu``). float16, complex and object
    arrays are refused; bools become uint8."""
    a = np.asarray(ary)
    if a.dtype == np.bool_:
        a = a.view(np.uint8)
    a = np.ascontiguousarray(a)
    ctx = get_context(context)
    h = c_void_p()
    check(lib.lat_array_from_host(ctx.handle, dtype_code(a.dtype), a.ndim, _cshape(a.shape),
                                  a.ctypes.data if a.size else None, byref(h)), "to_device")
    return cls._wrap(ctx, h.value)


def empty(shape: Any, dtype: Any = np.float32, context: Context | None = None,
          cls: type = Array) -> Array:
    """An uninitialised device array."""
    return cls(shape, dtype, context=context)


def zeros(shape: Any, dtype: Any = np.float32, context: Context | None = None,
          cls: type = Array) -> Array:
    shape = _shape(shape)
    ctx = get_context(context)
    h = c_void_p()
    check(lib.lat_array_zeros(ctx.handle, dtype_code(dtype), len(shape), _cshape(shape),
                              byref(h)), "zeros")
    return cls._wrap(ctx, h.value)


def full(shape: Any, value: Any, dtype: Any = np.float32, context: Context | None = None,
         cls: type = Array) -> Array:
    a = empty(shape, dtype, context, cls)
    return a.fill(value)


def arange(start: float, stop: float | None = None, step: float = 1, dtype: Any = None,
           context: Context | None = None, cls: type = Array) -> Array:
    """NumPy's arange on the device (dtype: NumPy's choice when None)."""
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        dtype = np.arange(start, start + step, step).dtype if step else np.float64
        if np.dtype(dtype) == np.dtype(np.int64) and all(
                isinstance(v, (int, np.integer)) for v in (start, stop, step)):
            dtype = np.int64
    ctx = get_context(context)
    h = c_void_p()
    check(lib.lat_array_arange(ctx.handle, dtype_code(dtype), float(start), float(stop),
                               float(step), byref(h)), "arange")
    return cls._wrap(ctx, h.value)


def empty_like(a: Array, dtype: Any = None) -> Array:
    return type(a)(a.shape, a.dtype if dtype is None else dtype, context=a._ctx)


def zeros_like(a: Array, dtype: Any = None) -> Array:
    return zeros(a.shape, a.dtype if dtype is None else dtype, a._ctx, type(a))


def dot(x: Array, y: Array) -> Array:
    """sum(x * y) over two arrays of the same size, a 0-d array."""
    h = c_void_p()
    check(lib.lat_array_dot(x.handle, y.handle, None, byref(h)), "dot")
    return x._new(h.value)


def where(cond: Array, x: Any, y: Any) -> Array:
    """cond ? x : y elementwise."""
    ref = x if isinstance(x, Array) else y if isinstance(y, Array) else cond
    h = c_void_p()
    check(lib.lat_array_where(cond.handle, ref._operand(x, ref.dtype),
                              ref._operand(y, ref.dtype), None, byref(h)), "where")
    return ref._new(h.value)


# ----------------------------------------------------------------------------------------
# Generated kernels
# ----------------------------------------------------------------------------------------

_CTYPES = {
    "float": np.float32, "double": np.float64, "int": np.int32, "signed int": np.int32,
    "unsigned": np.uint32, "unsigned int": np.uint32, "long long": np.int64,
    "long long int": np.int64, "unsigned long long": np.uint64, "long": np.int64,
    "unsigned long": np.uint64, "size_t": np.uint64, "ptrdiff_t": np.int64,
    "char": np.int8, "signed char": np.int8, "unsigned char": np.uint8, "short": np.int16,
    "unsigned short": np.uint16, "int32_t": np.int32, "uint32_t": np.uint32,
    "int64_t": np.int64, "uint64_t": np.uint64, "bool": np.uint8,
}


def _parse_arguments(arguments: str | Sequence[Any]) -> tuple[str, list[_Param]]:
    """C declarations ("float a, float *x") as one string and as parameter records.
    PyCUDA's VectorArg/ScalarArg lists are accepted too."""
    if not isinstance(arguments, str):
        arguments = ", ".join(a.declarator() if hasattr(a, "declarator") else str(a)
                              for a in arguments)
    params = []
    for decl in filter(None, (d.strip() for d in arguments.split(","))):
        m = re.match(r"^(.*?)([A-Za-z_]\w*)\s*$", decl)
        ctype, name = (m.group(1), m.group(2)) if m else (decl, "")
        pointer = "*" in ctype
        base = " ".join(w for w in re.sub(r"[*&]", " ", ctype).split()
                        if w not in ("const", "volatile", "__restrict__", "restrict"))
        dt = _CTYPES.get(base)
        p = _Param.__new__(_Param)
        p.name, p.type, p.pointer = name, ctype.strip(), pointer
        p.floating = dt is not None and np.dtype(dt).kind == "f"
        p.signed = dt is not None and np.dtype(dt).kind == "i"
        p.size = 8 if pointer else (np.dtype(dt).itemsize if dt is not None else 0)
        params.append(p)
    return arguments, params


def _launch_args(params: list[_Param], args: Sequence[Any]):
    keep: list = []
    post: list = []
    argv = _fill_args(args, params, keep, post)
    return argv, keep


def _first_array(args: Sequence[Any]) -> Array:
    for a in args:
        if isinstance(a, Array):
            return a
    raise ValueError("the kernel needs at least one array argument to size its range")


def _enc(s: str | None) -> bytes | None:
    return None if s is None else s.encode()


class ElementwiseKernel(_Owned):
    """PyCUDA's ElementwiseKernel: ``operation`` run for every i below n, n being the size
    of the first array argument (or ``range=``/``n=``)::

        lin_comb = ElementwiseKernel("float a, float *x, float b, float *y, float *z",
                                     "z[i] = a*x[i] + b*y[i]", "lin_comb")
        lin_comb(5, x, 6, y, z)
    """

    def __init__(self, arguments: str | Sequence[Any], operation: str,
                 name: str = "elementwise", keep: bool = False, options: Any = None,
                 preamble: str = "", loop_prep: str = "", after_loop: str = "",
                 context: Context | None = None):
        self._ctx = get_context(context)
        self._handle = None
        text, self.params = _parse_arguments(arguments)
        d = _lib.elementwise_desc(_enc(text), _enc(operation), _enc(name), _enc(preamble),
                                  _enc(loop_prep), _enc(after_loop))
        h = c_void_p()
        check(lib.lat_elementwise_create(self._ctx.handle, byref(d), byref(h)),
              "ElementwiseKernel")
        self._handle = h.value

    def _release(self, h: int) -> None:
        lib.lat_elementwise_destroy(h)

    def __call__(self, *args: Any, range: Any = None, slice: Any = None, n: int | None = None,
                 stream: Stream | None = None) -> None:
        if n is None:
            if range is not None:
                n = len(range) if not isinstance(range, int) else range
            else:
                n = _first_array(args).size
        argv, keep = _launch_args(self.params, args)
        check(lib.lat_elementwise_launch(self._handle, n, len(args), argv), "ElementwiseKernel")


class ReductionKernel(_Owned):
    """PyCUDA's ReductionKernel: ``reduce_expr`` (of a and b) over ``map_expr`` (of i) for
    i below the first array argument's size, giving a 0-d array of ``dtype_out``::

        dot = ReductionKernel(np.float32, neutral="0", reduce_expr="a+b",
                              map_expr="x[i]*y[i]", arguments="float *x, float *y")
        dot(x, y).get()
    """

    def __init__(self, dtype_out: Any, neutral: str, reduce_expr: str,
                 map_expr: str | None = None, arguments: str | Sequence[Any] | None = None,
                 name: str = "reduce_kernel", keep: bool = False, options: Any = None,
                 preamble: str = "", context: Context | None = None):
        self._ctx = get_context(context)
        self._handle = None
        self.dtype_out = np.dtype(dtype_out)
        if arguments is None:
            ctype = {v: k for k, v in reversed(list(_CTYPES.items()))}[self.dtype_out.type]
            arguments = f"const {ctype} *in"
        if map_expr is None:
            map_expr = "in[i]"
        text, self.params = _parse_arguments(arguments)
        d = _lib.reduction_desc(dtype_code(self.dtype_out), _enc(str(neutral)),
                                _enc(reduce_expr), _enc(map_expr), _enc(text), _enc(name),
                                _enc(preamble))
        h = c_void_p()
        check(lib.lat_reduction_create(self._ctx.handle, byref(d), byref(h)), "ReductionKernel")
        self._handle = h.value

    def _release(self, h: int) -> None:
        lib.lat_reduction_destroy(h)

    def __call__(self, *args: Any, stream: Stream | None = None, n: int | None = None,
                 out: Array | None = None, cls: type | None = None) -> Array:
        if n is None:
            n = _first_array(args).size
        argv, keep = _launch_args(self.params, args)
        h = c_void_p()
        check(lib.lat_reduction_launch(self._handle, n, len(args), argv,
                                       None if out is None else out.handle, byref(h)),
              "ReductionKernel")
        if out is not None:
            return out
        first = next((a for a in args if isinstance(a, Array)), None)
        klass = cls or (type(first) if first is not None else Array)
        return klass._wrap(self._ctx, h.value)


class _ScanKernel(_Owned):
    _exclusive = 0

    def __init__(self, dtype: Any, scan_expr: str, neutral: Any = None,
                 name_prefix: str = "scan", options: Any = None, preamble: str = "",
                 context: Context | None = None):
        self._ctx = get_context(context)
        self._handle = None
        self.dtype = np.dtype(dtype)
        if neutral is None:
            if self._exclusive:
                raise ValueError("an exclusive scan needs its neutral element")
            neutral = "0"
        d = _lib.scan_desc(dtype_code(self.dtype), _enc(scan_expr), _enc(str(neutral)),
                           self._exclusive, _enc(name_prefix), _enc(preamble))
        h = c_void_p()
        check(lib.lat_scan_create(self._ctx.handle, byref(d), byref(h)), type(self).__name__)
        self._handle = h.value

    def _release(self, h: int) -> None:
        lib.lat_scan_destroy(h)

    def __call__(self, input_ary: Array, output_ary: Array | None = None,
                 stream: Stream | None = None) -> Array:
        """Scans input_ary into output_ary (in place when not given, as PyCUDA does)."""
        out = input_ary if output_ary is None else output_ary
        check(lib.lat_scan_launch(self._handle, input_ary.handle, out.handle), "scan")
        return out


class InclusiveScanKernel(_ScanKernel):
    """out[i] = x[0] op ... op x[i] (PyCUDA's InclusiveScanKernel)."""
    _exclusive = 0


class ExclusiveScanKernel(_ScanKernel):
    """out[i] = neutral op x[0] op ... op x[i-1] (PyCUDA's ExclusiveScanKernel)."""
    _exclusive = 1


class Random(_Owned):
    """Philox4x32-10 random numbers, the same bits on the GPU and the emulator."""

    def __init__(self, seed: int = 0, context: Context | None = None):
        self._ctx = get_context(context)
        self._handle = None
        h = c_void_p()
        check(lib.lat_random_create(self._ctx.handle, seed, byref(h)), "Random")
        self._handle = h.value

    def _release(self, h: int) -> None:
        lib.lat_random_destroy(h)

    def _out(self, shape: Any, dtype: Any, out: Array | None, cls: type) -> Array:
        return out if out is not None else cls(shape, dtype, context=self._ctx)

    def uniform(self, shape: Any = None, dtype: Any = np.float32, out: Array | None = None,
                cls: type = Array) -> Array:
        """Uniform values in [0, 1)."""
        a = self._out(shape, dtype, out, cls)
        check(lib.lat_random_uniform(self._handle, a.handle), "uniform")
        return a

    def normal(self, shape: Any = None, dtype: Any = np.float32, mean: float = 0.0,
               stddev: float = 1.0, out: Array | None = None, cls: type = Array) -> Array:
        a = self._out(shape, dtype, out, cls)
        check(lib.lat_random_normal(self._handle, a.handle, mean, stddev), "normal")
        return a

    def bits(self, shape: Any = None, dtype: Any = np.uint32, out: Array | None = None,
             cls: type = Array) -> Array:
        """Raw 32-bit Philox words."""
        a = self._out(shape, dtype, out, cls)
        check(lib.lat_random_bits(self._handle, a.handle), "bits")
        return a

    fill_uniform = lambda self, a: self.uniform(out=a)  # noqa: E731
    fill_normal = lambda self, a: self.normal(out=a)  # noqa: E731
