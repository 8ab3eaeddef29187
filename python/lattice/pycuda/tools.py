"""PyCUDA's ``pycuda.tools``: the little of it programs commonly use."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import core as _core


def make_default_context(ctx_maker: Any = None) -> _core.Context:
    from .driver import Context
    ctx = Context._adopt(_core.Context())
    ctx.push()
    return ctx


def clear_context_caches() -> None:
    pass


class DeviceMemoryPool:
    """Allocations straight from the context (lattice has a stream-ordered pool in C)."""

    def allocate(self, nbytes: int) -> _core.DeviceAllocation:
        return _core.mem_alloc(nbytes)

    def free_held(self) -> None:
        pass

    def stop_holding(self) -> None:
        pass


class PageLockedMemoryPool:
    def allocate(self, shape: Any, dtype: Any, order: str = "C") -> np.ndarray:
        return np.empty(shape, dtype, order=order)


def dtype_to_ctype(dtype: Any) -> str:
    from ..array import _CTYPES
    names = {np.dtype(v): c for c, v in reversed(list(_CTYPES.items()))}
    return names[np.dtype(dtype)]


class VectorArg:
    def __init__(self, dtype: Any, name: str):
        self.dtype, self.name = np.dtype(dtype), name

    def declarator(self) -> str:
        return f"{dtype_to_ctype(self.dtype)} *{self.name}"


class ScalarArg(VectorArg):
    def declarator(self) -> str:
        return f"{dtype_to_ctype(self.dtype)} {self.name}"


def mark_cuda_test(inner_f: Any) -> Any:
    """PyCUDA's test decorator: runs the test with a current context (lattice's is
    always current), so the test runs as written."""
    import functools

    @functools.wraps(inner_f)
    def f(*args: Any, **kwargs: Any) -> Any:
        _core.current_context()
        return inner_f(*args, **kwargs)
    return f


def init_cuda_context_fixture():
    """PyCUDA's pytest fixture body: a context for the test, synchronised after it."""
    ctx = _core.current_context()
    yield
    ctx.synchronize()
