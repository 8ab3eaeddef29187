"""PyCUDA's ``pycuda.curandom``.

``rand``: uniform floats in [0, 1) or random 32-bit integers from lattice's Philox4x32-10
generator, seeded from ``numpy.random`` on every call as PyCUDA's is (the same numbers on
the GPU and the emulator; not PyCUDA's MD5 numbers).

``XORWOWRandomNumberGenerator``: cuRAND's XORWOW through curand_kernel.h, one generator
state per thread as PyCUDA keeps them, so the GPU gives cuRAND's numbers and the emulator
(whose curand_kernel.h is bit-exact for XORWOW's uniform draws) the same ones. Sobol,
scrambled Sobol, MRG32k3a and Poisson draws need what the emulator's curand_kernel.h does
not have: they raise NotImplementedError on every backend, so that a program gives the
same numbers, or the same error, wherever it runs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import array as _array
from .. import core as _core
from . import driver as _drv
from .gpuarray import GPUArray

__all__ = ["rand", "get_curand_version", "seed_getter_uniform", "seed_getter_unique",
           "XORWOWRandomNumberGenerator", "MRG32k3aRandomNumberGenerator",
           "Sobol32RandomNumberGenerator", "Sobol64RandomNumberGenerator",
           "ScrambledSobol32RandomNumberGenerator", "ScrambledSobol64RandomNumberGenerator",
           "PhiloxGenerator"]


def rand(shape: Any, dtype: Any = np.float32, stream: Any = None) -> GPUArray:
    """Uniform float32/float64 values in [0, 1), or uniformly random int32/uint32 words
    (all 32 bits); other dtypes raise NotImplementedError, as PyCUDA's do."""
    dtype = np.dtype(dtype)
    if stream is not None:
        stream.synchronize()
    g = _array.Random(int(np.random.randint(2**31 - 1)), _core.current_context())
    if dtype in (np.float32, np.float64):
        return g.uniform(shape, dtype, cls=GPUArray)
    if dtype in (np.int32, np.uint32):
        return g.bits(shape, dtype, cls=GPUArray)
    raise NotImplementedError(f"curandom.rand: dtype {dtype} (float32, float64, int32 or "
                              "uint32)")


def get_curand_version() -> tuple[int, int, int]:
    """The cuRAND version whose device API kernels get: on CUDA the toolkit's (taken as
    the one of the driver's CUDA release), on the emulator CUDA 12.8's, cuRAND 10.3.9."""
    major, minor, _ = _drv.get_version()
    # cuRAND 10.3.x ships with CUDA 12.x (10.3.0 with 12.0 ... 10.3.9 with 12.8).
    if major >= 12:
        return (10, 3, minor + 1 if minor else 0)
    return (10, 2, 0) if major == 11 else (major - 1, minor, 0)


def seed_getter_uniform(n: int) -> GPUArray:
    """n copies of one random int32 seed, on the device."""
    import random
    return _to_gpu(np.full(n, random.randint(0, 2**31 - 1), np.int32))


def seed_getter_unique(n: int) -> GPUArray:
    """n random int32 seeds, on the device."""
    return _to_gpu(np.random.randint(0, 2**31 - 1, n).astype(np.int32))


def _to_gpu(a: np.ndarray) -> GPUArray:
    from .gpuarray import to_gpu
    return to_gpu(a)


_XORWOW_SOURCE = r"""
#include <curand_kernel.h>
typedef unsigned long long u64;
#define LAT_LOOP for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x, \
    t = i, step = (u64)blockDim.x * gridDim.x; i < n; i += step)
extern "C" {
__global__ void lat_init(curandStateXORWOW *s, u64 count, const int *seed, u64 offset)
{
    u64 id = blockIdx.x * (u64)blockDim.x + threadIdx.x;
    if (id < count)
        curand_init(seed[id], id, offset, &s[id]);
}
__global__ void lat_skip(curandStateXORWOW *s, u64 count, u64 skip)
{
    u64 id = blockIdx.x * (u64)blockDim.x + threadIdx.x;
    if (id < count)
        skipahead(skip, &s[id]);
}
__global__ void lat_skip_sequence(curandStateXORWOW *s, u64 count, u64 skip)
{
    u64 id = blockIdx.x * (u64)blockDim.x + threadIdx.x;
    if (id < count)
        skipahead_sequence(skip, &s[id]);
}
__global__ void lat_u32(curandStateXORWOW *s, unsigned *d, u64 n) { LAT_LOOP d[i] = curand(&s[t]); }
__global__ void lat_uniform_f(curandStateXORWOW *s, float *d, u64 n) { LAT_LOOP d[i] = curand_uniform(&s[t]); }
__global__ void lat_uniform_d(curandStateXORWOW *s, double *d, u64 n) { LAT_LOOP d[i] = curand_uniform_double(&s[t]); }
__global__ void lat_normal_f(curandStateXORWOW *s, float *d, u64 n) { LAT_LOOP d[i] = curand_normal(&s[t]); }
__global__ void lat_normal_d(curandStateXORWOW *s, double *d, u64 n) { LAT_LOOP d[i] = curand_normal_double(&s[t]); }
__global__ void lat_normal2_f(curandStateXORWOW *s, float2 *d, u64 n) { LAT_LOOP d[i] = curand_normal2(&s[t]); }
__global__ void lat_normal2_d(curandStateXORWOW *s, double2 *d, u64 n) { LAT_LOOP d[i] = curand_normal2_double(&s[t]); }
__global__ void lat_lognormal_f(curandStateXORWOW *s, float *d, float m, float sd, u64 n) { LAT_LOOP d[i] = curand_log_normal(&s[t], m, sd); }
__global__ void lat_lognormal_d(curandStateXORWOW *s, double *d, double m, double sd, u64 n) { LAT_LOOP d[i] = curand_log_normal_double(&s[t], m, sd); }
__global__ void lat_lognormal2_f(curandStateXORWOW *s, float2 *d, float m, float sd, u64 n) { LAT_LOOP d[i] = curand_log_normal2(&s[t], m, sd); }
__global__ void lat_lognormal2_d(curandStateXORWOW *s, double2 *d, double m, double sd, u64 n) { LAT_LOOP d[i] = curand_log_normal2_double(&s[t], m, sd); }
__global__ void lat_state_size(u64 *out) { *out = sizeof(curandStateXORWOW); }
}
"""


class XORWOWRandomNumberGenerator:
    """cuRAND's XORWOW generator, one state per thread of ``block_count`` blocks of
    ``generators_per_block`` threads, seeded by ``seed_getter(count)`` (an int32 GPUArray;
    default: random seeds) and advanced by ``offset`` draws."""

    has_box_muller = True

    def __init__(self, seed_getter: Any = None, offset: int = 0):
        from .compiler import SourceModule
        dev = _drv.Context.get_device()
        self.block_count = dev.get_attribute(_drv.device_attribute.MULTIPROCESSOR_COUNT)
        self.module = SourceModule(_XORWOW_SOURCE, no_extern_c=True)
        self._k = {name: self.module.get_function(name) for name in (
            "lat_init", "lat_skip", "lat_skip_sequence", "lat_u32", "lat_uniform_f",
            "lat_uniform_d", "lat_normal_f", "lat_normal_d", "lat_normal2_f",
            "lat_normal2_d", "lat_lognormal_f", "lat_lognormal_d", "lat_lognormal2_f",
            "lat_lognormal2_d")}
        self.generators_per_block = min(k.get_attribute("MAX_THREADS_PER_BLOCK")
                                        for k in self._k.values())
        count = self.block_count * self.generators_per_block
        size = _core.mem_alloc(8)
        self.module.get_function("lat_state_size")(size, block=(1, 1, 1))
        self.state = _core.mem_alloc(count * int(_drv.from_device(size, (), np.uint64)))
        if seed_getter is None:
            seed = _to_gpu(np.random.randint(0, 2**31 - 1, count).astype(np.int32))
        else:
            seed = seed_getter(count)
        if getattr(seed, "dtype", None) != np.int32 or getattr(seed, "size", None) != count:
            raise TypeError(f"seed_getter({count}) must give a GPUArray of {count} int32 seeds")
        self._launch("lat_init", np.uint64(count), seed, np.uint64(offset))

    def _launch(self, name: str, *args: Any, stream: Any = None) -> None:
        self._k[name](self.state, *args, grid=(self.block_count, 1),
                      block=(self.generators_per_block, 1, 1), stream=stream)

    def _fill(self, kind: str, data: GPUArray, *params: Any, stream: Any = None) -> None:
        dt = np.dtype(data.dtype)
        flags = getattr(data, "flags", None)
        if flags is not None and not (flags.c_contiguous or flags.f_contiguous):
            raise ValueError(f"fill_{kind}: the array must be contiguous")
        suffix = {np.dtype(np.float32): "f", np.dtype(np.float64): "d"}.get(dt)
        n = data.size
        if kind == "uniform" and dt in (np.int32, np.uint32):
            name = "lat_u32"
        elif suffix is None:
            raise NotImplementedError(f"fill_{kind}: dtype {dt} (float32 or float64"
                                      f"{', int32 or uint32' if kind == 'uniform' else ''})")
        elif kind != "uniform" and n % 2 == 0:
            # As PyCUDA: Box-Muller pairs for an even count.
            name, n = f"lat_{kind}2_{suffix}", n // 2
        else:
            name = f"lat_{kind}_{suffix}"
        params = tuple(dt.type(p) for p in params)
        self._launch(name, data, *params, np.uint64(n), stream=stream)

    def fill_uniform(self, data: GPUArray, stream: Any = None) -> None:
        self._fill("uniform", data, stream=stream)

    def fill_normal(self, data: GPUArray, stream: Any = None) -> None:
        self._fill("normal", data, stream=stream)

    def fill_log_normal(self, data: GPUArray, mean: float, stddev: float,
                        stream: Any = None) -> None:
        self._fill("lognormal", data, mean, stddev, stream=stream)

    def gen_uniform(self, shape: Any, dtype: Any, stream: Any = None) -> GPUArray:
        r = GPUArray(shape, dtype)
        self.fill_uniform(r, stream)
        return r

    def gen_normal(self, shape: Any, dtype: Any, stream: Any = None) -> GPUArray:
        r = GPUArray(shape, dtype)
        self.fill_normal(r, stream)
        return r

    def gen_log_normal(self, shape: Any, dtype: Any, mean: float, stddev: float,
                       stream: Any = None) -> GPUArray:
        r = GPUArray(shape, dtype)
        self.fill_log_normal(r, mean, stddev, stream)
        return r

    def fill_poisson(self, data: GPUArray, lambda_value: Any = None, stream: Any = None):
        _no_curand("Poisson draws (curand_poisson)")

    def gen_poisson(self, shape: Any, dtype: Any, lambda_value: Any, stream: Any = None):
        _no_curand("Poisson draws (curand_poisson)")

    def call_skip_ahead(self, i: int, stream: Any = None) -> None:
        """Advances every generator by i draws."""
        self._launch("lat_skip", np.uint64(self.block_count * self.generators_per_block),
                     np.uint64(i), stream=stream)

    def call_skip_ahead_sequence(self, i: int, stream: Any = None) -> None:
        """Advances every generator by i subsequences (2**67 draws each)."""
        self._launch("lat_skip_sequence",
                     np.uint64(self.block_count * self.generators_per_block), np.uint64(i),
                     stream=stream)


def _no_curand(what: str) -> None:
    raise NotImplementedError(f"curandom: {what} are not in lattice's curand_kernel.h "
                              "(it has XORWOW and Philox4x32-10: XORWOWRandomNumberGenerator, "
                              "rand)")


def _refused(name: str, what: str) -> type:
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        _no_curand(what)
    return type(name, (), {"__init__": __init__, "__doc__": f"Refused: {what}."})


MRG32k3aRandomNumberGenerator = _refused("MRG32k3aRandomNumberGenerator",
                                         "MRG32k3a generators")
Sobol32RandomNumberGenerator = _refused("Sobol32RandomNumberGenerator", "Sobol generators")
Sobol64RandomNumberGenerator = _refused("Sobol64RandomNumberGenerator", "Sobol generators")
ScrambledSobol32RandomNumberGenerator = _refused("ScrambledSobol32RandomNumberGenerator",
                                                 "scrambled Sobol generators")
ScrambledSobol64RandomNumberGenerator = _refused("ScrambledSobol64RandomNumberGenerator",
                                                 "scrambled Sobol generators")


class PhiloxGenerator(_array.Random):
    """lattice's Philox4x32-10 generator with PyCUDA's generator methods (gen_uniform,
    fill_normal...): the same numbers on the GPU and the emulator."""

    def __init__(self, seed_getter: Any = None, offset: int = 0, seed: int | None = None):
        s = seed if seed is not None else int(np.random.randint(2**31 - 1))
        super().__init__(int(s))

    def gen_uniform(self, shape: Any, dtype: Any = np.float32, stream: Any = None) -> GPUArray:
        return self.uniform(shape, dtype, cls=GPUArray)

    def gen_normal(self, shape: Any, dtype: Any = np.float32, stream: Any = None) -> GPUArray:
        return self.normal(shape, dtype, cls=GPUArray)

    def fill_uniform(self, data: GPUArray, stream: Any = None) -> GPUArray:  # type: ignore[override]
        return self.uniform(out=data)

    def fill_normal(self, data: GPUArray, stream: Any = None) -> GPUArray:  # type: ignore[override]
        return self.normal(out=data)
