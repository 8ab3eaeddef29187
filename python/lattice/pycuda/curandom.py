"""PyCUDA's ``pycuda.curandom``, over lattice's Philox4x32-10 generator (the same numbers
on the GPU and the emulator; not cuRAND's sequences)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import array as _array
from .. import core as _core
from .gpuarray import GPUArray

__all__ = ["rand", "PhiloxGenerator", "XORWOWRandomNumberGenerator", "seed_getter_uniform",
           "seed_getter_unique"]

_gens: dict = {}


def rand(shape: Any, dtype: Any = np.float32, stream: Any = None) -> GPUArray:
    """Uniform numbers in [0, 1) of a float type."""
    ctx = _core.current_context()
    g = _gens.get(id(ctx))
    if g is None or not ctx.alive:
        g = _gens[id(ctx)] = _array.Random(0, ctx)
    return g.uniform(shape, dtype, cls=GPUArray)


def seed_getter_uniform(n: int) -> int:
    return 0


def seed_getter_unique(n: int) -> int:
    return int(np.random.randint(0, 2**31))


class PhiloxGenerator(_array.Random):
    """A generator with PyCUDA's generator methods (gen_uniform, fill_normal...)."""

    def __init__(self, seed_getter: Any = None, offset: int = 0, seed: int | None = None):
        s = seed if seed is not None else (seed_getter(1) if callable(seed_getter) else 0)
        super().__init__(int(s))

    def gen_uniform(self, shape: Any, dtype: Any = np.float32, stream: Any = None) -> GPUArray:
        return self.uniform(shape, dtype, cls=GPUArray)

    def gen_normal(self, shape: Any, dtype: Any = np.float32, stream: Any = None) -> GPUArray:
        return self.normal(shape, dtype, cls=GPUArray)

    def fill_uniform(self, data: GPUArray, stream: Any = None) -> GPUArray:  # type: ignore[override]
        return self.uniform(out=data)

    def fill_normal(self, data: GPUArray, stream: Any = None) -> GPUArray:  # type: ignore[override]
        return self.normal(out=data)


XORWOWRandomNumberGenerator = PhiloxGenerator
MRG32k3aRandomNumberGenerator = PhiloxGenerator
