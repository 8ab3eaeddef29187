"""The few helpers of ``pytools`` that PyCUDA's Python modules use, so that
lattice.pycuda needs NumPy only."""

from __future__ import annotations

import functools
from typing import Any, Iterable


def memoize(func: Any) -> Any:
    cache: dict = {}

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        try:
            return cache[key]
        except KeyError:
            r = cache[key] = func(*args, **kwargs)
            return r
    wrapper.clear_cache = cache.clear  # type: ignore[attr-defined]
    return wrapper


def memoize_method(method: Any) -> Any:
    name = "_memoize_dic_" + method.__name__

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any) -> Any:
        d = self.__dict__.get(name)
        if d is None:
            d = self.__dict__[name] = {}
        try:
            return d[args]
        except KeyError:
            r = d[args] = method(self, *args)
            return r
    return wrapper


def single_valued(iterable: Iterable[Any], equality_pred: Any = None) -> Any:
    it = iter(iterable)
    try:
        first = next(it)
    except StopIteration:
        raise ValueError("empty iterable passed to 'single_valued()'") from None
    for other in it:
        if not (equality_pred(other, first) if equality_pred else other == first):
            raise ValueError("not all values are the same")
    return first


def product(iterable: Iterable[Any]) -> Any:
    r = 1
    for x in iterable:
        r *= x
    return r


def argmin2(iterable: Iterable[Any], return_value: bool = False) -> Any:
    it = iter(iterable)
    try:
        cur_arg, cur_val = next(it)
    except StopIteration:
        raise ValueError("argmin of empty iterable") from None
    for arg, val in it:
        if val < cur_val:
            cur_arg, cur_val = arg, val
    return (cur_arg, cur_val) if return_value else cur_arg


def match_precision(dtype: Any, dtype_to_match: Any) -> Any:
    import numpy as np
    dtype, dtype_to_match = np.dtype(dtype), np.dtype(dtype_to_match)
    tgt_is_double = dtype_to_match in (np.dtype(np.float64), np.dtype(np.complex128))
    if dtype.kind == "c":
        return np.dtype(np.complex128 if tgt_is_double else np.complex64)
    if dtype.kind == "f":
        return np.dtype(np.float64 if tgt_is_double else np.float32)
    return dtype


def uniform_interval_splitting(n: int, granularity: int, max_intervals: int) -> Any:
    grains = (n + granularity - 1) // granularity
    if grains < max_intervals:
        num_intervals = grains
        interval_size = granularity
    else:
        grains_per_interval = (grains + max_intervals - 1) // max_intervals
        interval_size = grains_per_interval * granularity
        num_intervals = (n + interval_size - 1) // interval_size
    return interval_size, num_intervals


class Record:
    def __init__(self, valuedict: Any = None, **kwargs: Any) -> None:
        if valuedict:
            kwargs.update(valuedict)
        self.__dict__.update(kwargs)
        self.__dict__["_fields"] = set(kwargs)

    def get_copy_kwargs(self, **kwargs: Any) -> dict:
        out = {f: getattr(self, f) for f in self._fields}
        out.update(kwargs)
        return out

    def copy(self, **kwargs: Any) -> "Record":
        return type(self)(**self.get_copy_kwargs(**kwargs))
