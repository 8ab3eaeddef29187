"""PyCUDA's ``pycuda.scan``: the kernels scan in place unless given an output array."""

from ..array import ExclusiveScanKernel, InclusiveScanKernel  # noqa: F401

__all__ = ["InclusiveScanKernel", "ExclusiveScanKernel"]
