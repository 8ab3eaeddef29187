"""PyCUDA's ``pycuda.characterize``: what the current context's device and platform can
do (``has_double_support()``, ``sizeof("float3")``...)."""

from __future__ import annotations

import sys

import numpy as np

from .tools import context_dependent_memoize

__all__ = ["platform_bits", "has_stack", "has_double_support", "sizeof"]


def platform_bits() -> int:
    """64 or 32: the width of the host's pointers."""
    return 64 if sys.maxsize > 2**32 else 32


def has_stack() -> bool:
    """Whether device code has a call stack (recursion, function pointers): compute
    capability 2.0 and later; true on the emulator."""
    from .driver import Context
    return Context.get_device().compute_capability() >= (2, 0)


def has_double_support() -> bool:
    """Whether the device computes in double precision (compute capability 1.3 and
    later; true on the emulator)."""
    from .driver import Context
    return Context.get_device().compute_capability() >= (1, 3)


@context_dependent_memoize
def sizeof(type_name: str, preamble: str = "") -> int:
    """``sizeof(type_name)`` as device code sees it, after ``preamble`` (declarations,
    #includes), measured by a kernel on the current context's device."""
    from .compiler import SourceModule
    from .driver import from_device, mem_alloc
    mod = SourceModule(f"{preamble}\nextern \"C\" __global__ void lattice_sizeof("
                       f"unsigned long long *out) {{ *out = sizeof({type_name}); }}\n",
                       no_extern_c=True)
    out = mem_alloc(8)
    mod.get_function("lattice_sizeof")(out, block=(1, 1, 1), grid=(1, 1))
    return int(from_device(out, (), np.uint64))
