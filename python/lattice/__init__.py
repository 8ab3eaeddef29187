"""lattice for Python: CUDA C kernels compiled at run time, on an NVIDIA GPU or on the CPU
emulator, with NumPy arrays in and out.

    import numpy as np, lattice
    mod = lattice.Module('''
    __global__ void multiply_them(float *dest, float *a, float *b)
    { const int i = threadIdx.x; dest[i] = a[i] * b[i]; }''')
    a = np.random.randn(400).astype(np.float32); b = np.ones_like(a)
    dest = np.zeros_like(a)
    mod.get_kernel("multiply_them")(lattice.Out(dest), lattice.In(a), lattice.In(b),
                                    block=(400, 1, 1))

``lattice.pycuda`` runs PyCUDA programs with only their imports changed.
"""

from __future__ import annotations

from ._lib import lib as _clib, library_path
from .errors import *  # noqa: F401,F403  (the exception classes)
from .errors import LatticeError
from .core import (BACKENDS, Context, Device, DeviceAllocation, Event, In, InOut, Kernel,
                   Module, Out, Stream, backend_of, current_context, mem_alloc, memcpy_dtod,
                   memcpy_dtoh, memcpy_htod, synchronize)

__version__: str = _clib.lat_version_string().decode()


def version() -> str:
    """The version of the liblattice this package loaded."""
    return _clib.lat_version_string().decode()


def _lazy(name: str):
    import importlib
    return importlib.import_module(f".{name}", __name__)


def __getattr__(name: str):
    # The array layer (and its NumPy-heavy imports) loads on first use.
    if name in ("Array", "to_device", "empty", "zeros", "full", "arange", "empty_like",
                "zeros_like", "ElementwiseKernel", "ReductionKernel", "InclusiveScanKernel",
                "ExclusiveScanKernel", "Random", "dot", "where"):
        return getattr(_lazy("array"), name)
    if name in ("check", "array", "math", "profile"):
        return _lazy(name)
    raise AttributeError(f"module 'lattice' has no attribute {name!r}")
