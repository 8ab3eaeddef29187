"""The issue's overhead figure: a Python kernel call with three In/Out arrays of 400
floats (PyCUDA's multiply_them), against (a) the same lat_launch_args call made with
prebuilt arguments (the C call plus one ctypes transition, the floor a binding can reach)
and (b) PyCUDA itself where it is installed. Prints medians in microseconds.
Run: LATTICE_BACKEND=cuda python3 python/examples/call_overhead.py"""

import ctypes
import statistics
import time

import numpy as np

import lattice
from lattice import _lib

SRC = """
__global__ void multiply_them(float *dest, float *a, float *b)
{ const int i = threadIdx.x; dest[i] = a[i] * b[i]; }
"""
N, REPS, BATCH = 400, 30, 200


def median_us(fn):
    for _ in range(50):
        fn()
    runs = []
    for _ in range(REPS):
        t = time.perf_counter()
        for _ in range(BATCH):
            fn()
        runs.append((time.perf_counter() - t) / BATCH * 1e6)
    return statistics.median(runs)


a = np.random.randn(N).astype(np.float32)
b = np.random.randn(N).astype(np.float32)
dest = np.zeros_like(a)

mod = lattice.Module(SRC)
k = mod.get_kernel("multiply_them")
py_us = median_us(lambda: k(lattice.Out(dest), lattice.In(a), lattice.In(b), block=(N, 1, 1)))
assert np.array_equal(dest, a * b)

args = (_lib.arg * 3)()
for slot, arr, kind in zip(args, (dest, a, b), (_lib.ARG_OUT, _lib.ARG_IN, _lib.ARG_IN)):
    slot.kind = kind
    slot.value.buffer.data = arr.ctypes.data
    slot.value.buffer.size = arr.nbytes
desc = _lib.launch_desc()
desc.grid = _lib.dim3(1, 1, 1)
desc.block = _lib.dim3(N, 1, 1)
launch, kh, pd = _lib.lib.lat_launch_args, k.handle, ctypes.byref(desc)
c_us = median_us(lambda: launch(kh, pd, 3, args))

print(f"backend {lattice.current_context().backend}: lattice Python call {py_us:.1f} us, "
      f"lat_launch_args via ctypes {c_us:.1f} us, difference {py_us - c_us:+.1f} us")
try:
    import pycuda.autoinit  # noqa: F401
    import pycuda.driver as drv
    from pycuda.compiler import SourceModule
    f = SourceModule(SRC).get_function("multiply_them")
    pc_us = median_us(lambda: f(drv.Out(dest), drv.In(a), drv.In(b), block=(N, 1, 1),
                                grid=(1, 1)))
    print(f"PyCUDA call {pc_us:.1f} us: lattice/PyCUDA = {py_us / pc_us:.2f}")
except ImportError:
    print("PyCUDA not installed: compare with the ctypes floor above")
