"""``pycuda.compyte.array``: stride arithmetic and array flags for array-like objects
(anything with shape, strides, dtype)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided  # noqa: F401  (PyCUDA re-exports it)


def f_contiguous_strides(itemsize: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    """Fortran-order strides in bytes; a 0-length axis counts as 1, as PyCUDA's."""
    strides = []
    s = itemsize
    for n in shape:
        strides.append(s)
        s *= max(1, n)
    return tuple(strides)


def c_contiguous_strides(itemsize: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    """C-order strides in bytes; a 0-length axis counts as 1, as PyCUDA's."""
    return f_contiguous_strides(itemsize, tuple(shape)[::-1])[::-1]


def equal_strides(strides1: tuple[int, ...], strides2: tuple[int, ...],
                  shape: tuple[int, ...]) -> bool:
    """Whether the strides address the same elements (axes of length 1 ignored)."""
    if tuple(strides1) == tuple(strides2):
        return True
    if len(strides1) != len(strides2) or len(strides2) != len(shape):
        return False
    return all(n == 1 or a == b for n, a, b in zip(shape, strides1, strides2))


def _size(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def is_f_contiguous_strides(strides: tuple[int, ...], itemsize: int,
                            shape: tuple[int, ...]) -> bool:
    return equal_strides(strides, f_contiguous_strides(itemsize, shape), shape) or \
        _size(shape) == 0


def is_c_contiguous_strides(strides: tuple[int, ...], itemsize: int,
                            shape: tuple[int, ...]) -> bool:
    return equal_strides(strides, c_contiguous_strides(itemsize, shape), shape) or \
        _size(shape) == 0


class ArrayFlags:
    """c_contiguous, f_contiguous and forc of an array-like object."""

    def __init__(self, ary: Any) -> None:
        self.f_contiguous = is_f_contiguous_strides(ary.strides, ary.dtype.itemsize,
                                                    ary.shape)
        self.c_contiguous = is_c_contiguous_strides(ary.strides, ary.dtype.itemsize,
                                                    ary.shape)
        self.forc = self.f_contiguous or self.c_contiguous

    def __repr__(self) -> str:
        return (f"  C_CONTIGUOUS : {self.c_contiguous}\n"
                f"  F_CONTIGUOUS : {self.f_contiguous}")

    __str__ = __repr__


def get_common_dtype(obj1: Any, obj2: Any, allow_double: bool) -> np.dtype:
    """NumPy's result dtype of obj1 + obj2 (obj2 may be a scalar); without
    ``allow_double`` float64/complex128 become float32/complex64."""
    zero1 = np.zeros(1, dtype=obj1.dtype)
    try:
        zero2 = np.zeros(1, dtype=obj2.dtype)
    except AttributeError:
        zero2 = obj2
    result = (zero1 + zero2).dtype
    if not allow_double:
        if result == np.float64:
            result = np.dtype(np.float32)
        elif result == np.complex128:
            result = np.dtype(np.complex64)
    return result


def bound(a: Any) -> tuple[int, int]:
    """PyCUDA's (low, high) byte bounds of ``a`` relative to its ``bytes`` attribute."""
    low = high = a.bytes
    for st, n in zip(a.strides, a.shape):
        if st < 0:
            low += st * (n - 1)
        else:
            high += st * (n - 1)
    return low, high


def may_share_memory(a: Any, b: Any) -> bool:
    """PyCUDA's overlap test of two arrays of the same class by ``bound``."""
    if a is b:
        return True
    if a.__class__ is b.__class__:
        a_l, a_h = bound(a)
        b_l, b_h = bound(b)
        return not (b_l >= a_h or a_l >= b_h)
    return False
