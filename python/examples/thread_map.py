"""Draws a thread map: which block and thread of a launch wrote each element of an
array, on the emulator with its checks on. Writes thread_map.svg (in a notebook, the Map
object displays itself inline). Run: python3 python/examples/thread_map.py"""

import numpy as np

import lattice
import lattice.check

with lattice.Context("emu", check="memcheck") as ctx:
    mod = lattice.Module("""
    __global__ void transpose_tile(float *out, const float *in, int w)
    {
        int x = blockIdx.x * blockDim.x + threadIdx.x;
        int y = blockIdx.y * blockDim.y + threadIdx.y;
        out[x * w + y] = in[y * w + x];
    }""")
    w = 8
    src = lattice.to_device(np.arange(w * w, dtype=np.float32))
    out = lattice.zeros(w * w, np.float32)
    tmap = lattice.check.ThreadMap(out)
    mod.get_kernel("transpose_tile")(out, src, w, grid=(2, 2), block=(4, 4))
    m = tmap.get(columns=w)
    print(m)
    with open("thread_map.svg", "w") as f:
        f.write(m.svg())
    print("wrote thread_map.svg")
