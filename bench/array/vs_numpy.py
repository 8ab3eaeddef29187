#!/usr/bin/env python3
"""The array layers' elementwise, reduction and scan kernels against NumPy doing the same
on the same machine, measured side by side in one run: for lattice's own arrays
(lattice.Array, the C array layer in src/array) and for lattice.pycuda's GPUArray
(PyCUDA's generated kernels). Prints, per operation, the best of REPEATS times and the ratio
lattice / NumPy (target on the emulator: 3 or less). Not run by the test suite.

Usage: LATTICE_BACKEND=emu python3 bench/array/vs_numpy.py [log2 n (24)]
"""

import sys
import time

import numpy as np

import lattice
import lattice.pycuda.autoinit  # noqa: F401
import lattice.pycuda.gpuarray as gpuarray
from lattice.pycuda.reduction import ReductionKernel
from lattice.pycuda.scan import InclusiveScanKernel as PyScan

REPEATS = 5


def best(f):
    f()  # compile, warm the optimising tier's trigger
    f()
    t = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        f()
        t.append(time.perf_counter() - t0)
    return min(t)


def main():
    n = 1 << (int(sys.argv[1]) if len(sys.argv) > 1 else 24)
    ctx = lattice.current_context()
    rng = np.random.default_rng(0)
    h = rng.random(n).astype(np.float32)
    hi = rng.integers(0, 100, n).astype(np.int32)
    a = lattice.to_device(h)
    ai = lattice.to_device(hi)
    g = gpuarray.to_gpu(h)
    gi = gpuarray.to_gpu(hi)
    sync = ctx.synchronize
    lat_scan = lattice.InclusiveScanKernel(np.int32, "a+b", "0")
    py_scan = PyScan(np.int32, "a+b")
    py_sum = ReductionKernel(np.float32, "0", "a+b")
    out_i = lattice.empty(n, np.int32)
    gout_i = gpuarray.empty_like(gi)
    rows = [
        ("elementwise 2*x", lambda: 2 * h,
         lambda: (2 * a, sync()), lambda: (2 * g, sync())),
        ("elementwise x*y+x", lambda: h * h + h,
         lambda: (a * a + a, sync()), lambda: (g * g + g, sync())),
        ("reduction sum", lambda: h.sum(),
         lambda: a.sum().get(), lambda: py_sum(g).get()),
        ("reduction max", lambda: h.max(),
         lambda: a.max().get(), lambda: gpuarray.max(g).get()),
        ("scan cumsum int32", lambda: np.cumsum(hi, out=np.empty_like(hi)),
         lambda: (lat_scan(ai, out_i), sync()), lambda: (py_scan(gi, gout_i), sync())),
    ]
    print(f"backend {ctx.backend}, n = {n}, best of {REPEATS}")
    print(f"{'operation':22} {'numpy ms':>9} {'lattice ms':>11} {'ratio':>6} "
          f"{'pycuda ms':>10} {'ratio':>6}")
    worst = 0.0
    for name, fn, fl, fp in rows:
        tn, tl, tp = best(fn), best(fl), best(fp)
        worst = max(worst, tl / tn, tp / tn)
        print(f"{name:22} {tn * 1e3:9.2f} {tl * 1e3:11.2f} {tl / tn:6.2f} {tp * 1e3:10.2f} "
              f"{tp / tn:6.2f}")
    print(f"worst ratio {worst:.2f} (target 3)")


if __name__ == "__main__":
    main()
