"""PyCUDA programs from public repositories, course notes and answers, on lattice.pycuda with
only their imports changed: each a pattern such programs rely on beyond PyCUDA's own test
suite, checked against NumPy with random inputs."""

import numpy as np
import pytest

import lattice.pycuda.autoinit  # noqa: F401
import lattice.pycuda.driver as drv  # noqa: F401
from lattice.pycuda import gpuarray
from lattice.pycuda.scan import ExclusiveScanKernel, InclusiveScanKernel


def test_a_scan_reads_same_sized_elements_as_its_own_type(rng):
    # MisanthropicBit/pycuda_examples: an int32 ExclusiveScanKernel run on uint32 data.
    # PyCUDA passes the memory as the scan's type; elements of another size are refused.
    h = rng.integers(1, 101, size=100_000).astype(np.uint32)
    true_sum = h.cumsum() - h
    d = gpuarray.to_gpu(h)
    ExclusiveScanKernel(np.int32, neutral="0", scan_expr="a+b")(d).get(h)
    assert np.array_equal(true_sum, h)
    x = rng.integers(-1000, 1000, size=5000).astype(np.int32)
    got = InclusiveScanKernel(np.uint32, "a+b")(gpuarray.to_gpu(x)).get()
    assert got.dtype == np.int32 and np.array_equal(got, np.cumsum(x, dtype=np.int32))
    with pytest.raises(TypeError, match="another size"):
        InclusiveScanKernel(np.float32, "a+b")(gpuarray.to_gpu(x.astype(np.float64)))
