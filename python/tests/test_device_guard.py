"""A kernel's stray write from Python (issue 40, item 6): on the emulator, device memory has
guards of its own, so a write past a buffer raises a LatticeError naming the kernel (as a GPU
reports an illegal address) instead of corrupting the interpreter's heap."""

import numpy as np
import pytest

import lattice
import lattice.pycuda.autoinit  # noqa: F401
import lattice.pycuda.driver as drv
from lattice.pycuda.compiler import SourceModule

STRAY = """
__global__ void stray(float *p, int off)
{
    p[off + threadIdx.x] = 1.0f;
}
"""


def test_a_write_past_a_buffer_raises_naming_the_kernel(backend, rng):
    if backend != "emu":
        pytest.skip("about the emulator's device memory (a GPU's fault ends its context)")
    f = SourceModule(STRAY).get_function("stray")
    for n in (10, 1000, 300000):
        a = rng.standard_normal(n).astype(np.float32)
        with pytest.raises(lattice.LatticeError) as e:
            f(drv.InOut(a), np.int32(n + 128), block=(64, 1, 1), grid=(1, 1))
        assert "kernel 'stray'" in str(e.value)
        assert "past the end of the device allocation" in str(e.value)
    # The interpreter's heap is whole and the context usable: a right launch works.
    a = rng.standard_normal(1000).astype(np.float32)
    expect = a.copy()
    expect[936:1000] = 1.0
    f(drv.InOut(a), np.int32(936), block=(64, 1, 1), grid=(1, 1))
    np.testing.assert_array_equal(a, expect)
    junk = [bytearray(rng.integers(1, 5000)) for _ in range(1000)]
    assert all(len(j) > 0 for j in junk)


VAR = """
__device__ float table[64];
__global__ void stray_var(long long off)
{
    table[off + threadIdx.x] = 1.0f;
}
"""


def test_a_write_far_past_a_module_variable_raises_naming_the_kernel(backend):
    if backend != "emu":
        pytest.skip("about the emulator's module variables (a GPU's fault ends its context)")
    mod = SourceModule(VAR)
    f = mod.get_function("stray_var")
    # 64 KiB past the variable, then further: past the module's last page, in its guard,
    # and before its first: its code, which is read-only.
    for off in (1 << 14, 1 << 17, -(1 << 14)):
        with pytest.raises(lattice.LatticeError) as e:
            f(np.int64(off), block=(32, 1, 1), grid=(1, 1))
        assert "kernel 'stray_var'" in str(e.value)
    f(np.int64(32), block=(32, 1, 1), grid=(1, 1))
    ptr, size = mod.get_global("table")
    got = np.empty(64, np.float32)
    drv.memcpy_dtoh(got, ptr)
    np.testing.assert_array_equal(got, np.r_[np.zeros(32), np.ones(32)].astype(np.float32))
