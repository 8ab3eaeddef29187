"""PyCUDA's ``pycuda.curandom``.

``rand``: uniform floats in [0, 1) or random 32-bit integers from lattice's Philox4x32-10
generator, seeded from ``numpy.random`` on every call as PyCUDA's is (the same numbers on
the GPU and the emulator; not PyCUDA's MD5 numbers).

The cuRAND generators, through curand_kernel.h, one generator state per thread as PyCUDA
keeps them, so the GPU gives cuRAND's numbers and the emulator (whose curand_kernel.h
follows cuRAND's algorithms) the same ones: ``XORWOWRandomNumberGenerator``,
``MRG32k3aRandomNumberGenerator``, ``Sobol32RandomNumberGenerator``,
``ScrambledSobol32RandomNumberGenerator``, ``Sobol64RandomNumberGenerator`` and
``ScrambledSobol64RandomNumberGenerator``, with PyCUDA's methods (``gen_uniform``,
``fill_normal``, ``gen_log_normal``, ``fill_poisson``, ``call_skip_ahead``...).

Sobol direction vectors (``generate_direction_vectors``) come from lattice's own table,
built from Joe and Kuo's published direction numbers (``_sobol_joe_kuo.py``), the data of
cuRAND's ``CURAND_DIRECTION_VECTORS_32/64_JOEKUO6`` sets, dimension ``i`` of ``count`` being
Joe and Kuo's dimension ``i % 20000`` as PyCUDA's copies are. The scrambled sets and the
scramble constants (``generate_scramble_constants32/64``) are random data that cuRAND ships
and no one publishes: lattice's are its own (a fixed random linear scrambling of the same
vectors and fixed random constants), so a scrambled Sobol generator built without explicit
``dir_vector`` / ``scramble_vector`` gives other points than PyCUDA with cuRAND, on every
backend alike (docs/python.md).
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import numpy as np

from .. import array as _array
from .. import core as _core
from . import driver as _drv
from .gpuarray import GPUArray

__all__ = ["rand", "get_curand_version", "seed_getter_uniform", "seed_getter_unique",
           "direction_vector_set", "generate_direction_vectors",
           "generate_scramble_constants32", "generate_scramble_constants64",
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


# ---- Sobol direction vectors and scramble constants ------------------------------------------


class direction_vector_set:  # noqa: N801 (PyCUDA's name)
    """cuRAND's ``curandDirectionVectorSet_t``."""

    VECTOR_32 = 101
    SCRAMBLED_VECTOR_32 = 102
    VECTOR_64 = 103
    SCRAMBLED_VECTOR_64 = 104


_SOBOL_DIMENSIONS = 20000


@functools.lru_cache(maxsize=None)
def _joe_kuo() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Joe and Kuo's dimensions 2 to 20000: the degrees s, the inner coefficients a and the
    initial numbers m (m_1 .. m_s in columns 0 .. s - 1)."""
    import base64
    import hashlib

    from . import _sobol_joe_kuo as jk
    raw = base64.b85decode(jk.DATA)
    if hashlib.sha256(raw).hexdigest() != jk.SHA256:
        raise RuntimeError("curandom: lattice's Sobol direction-number table is damaged")
    bits = np.unpackbits(np.frombuffer(raw, np.uint8)).astype(np.int64)
    # The degrees are the number of primitive polynomials of each degree, in order (the
    # stream's own 5-bit degrees are checked against them).
    counts = [1, 1, 2, 2, 6, 6, 18, 16, 48, 60, 176, 144, 630, 756, 1800, 2048, 7710]
    deg = np.repeat(np.arange(1, 18), counts)
    deg = np.concatenate([deg, np.full(jk.DIMENSIONS - deg.size, 18)])
    start = np.concatenate([[0], np.cumsum(5 + (deg - 1) + deg * (deg - 1) // 2)[:-1]])

    def field(at: np.ndarray, width: np.ndarray) -> np.ndarray:
        b = np.arange(18)
        idx = np.minimum(at[:, None] + b[None, :], bits.size - 1)
        w = np.where(b[None, :] < width[:, None], 1 << np.maximum(width[:, None] - 1 - b, 0), 0)
        return (bits[idx] * w).sum(axis=1)

    if not np.array_equal(field(start, np.full_like(deg, 5)), deg):
        raise RuntimeError("curandom: lattice's Sobol direction-number table is damaged")
    a = field(start + 5, deg - 1)
    m = np.zeros((jk.DIMENSIONS, 18), np.uint64)
    for k in range(1, 19):
        has = deg >= k
        at = start + 5 + (deg - 1) + (k - 1) * (k - 2) // 2
        m[has, k - 1] = (2 * field(at[has], np.full(int(has.sum()), k - 1)) + 1).astype(np.uint64)
    return deg, a, m


@functools.lru_cache(maxsize=None)
def _sobol_vectors64() -> np.ndarray:
    """The 64 direction vectors of each of the 20000 dimensions (dimension 0 the van der
    Corput sequence): v_k = m_k 2^(64 - k) for k <= s, then Bratley and Fox's recurrence
    over the polynomial."""
    deg, a, m = _joe_kuo()
    n = deg.size
    v = np.zeros((n + 1, 64), np.uint64)
    v[0] = np.uint64(1) << (np.uint64(63) - np.arange(64, dtype=np.uint64))
    rows = np.arange(n)
    for k in range(64):
        col = np.zeros(n, np.uint64)
        direct = k < deg
        if k < 18:
            col[direct] = m[direct, k] << np.uint64(63 - k)
        r = rows[~direct]
        s = deg[r]
        prev = v[r + 1, k - s]
        t = prev ^ (prev >> s.astype(np.uint64))
        for j in range(1, 18):
            use = (j < s) & (((a[r] >> np.maximum(s - 1 - j, 0)) & 1) == 1)
            t ^= np.where(use, v[r + 1, max(k - j, 0)], np.uint64(0))
        col[r] = t
        v[1:, k] = col
    return v


def _parity(x: np.ndarray) -> np.ndarray:
    for shift in (32, 16, 8, 4, 2, 1):
        x = x ^ (x >> np.uint64(shift))
    return x & np.uint64(1)


@functools.lru_cache(maxsize=None)
def _direction_table(direction: int) -> np.ndarray:
    v = _sobol_vectors64()
    if direction in (direction_vector_set.SCRAMBLED_VECTOR_32,
                     direction_vector_set.SCRAMBLED_VECTOR_64):
        # lattice's own scrambling: each dimension's vectors times a fixed random lower
        # triangular matrix with a unit diagonal (Matousek's linear scrambling), on the
        # digits most significant first.
        rs = np.random.RandomState(0x5eed501)
        words = (rs.randint(0, 2**32, size=(v.shape[0], 64), dtype=np.uint64) << np.uint64(32)
                 | rs.randint(0, 2**32, size=(v.shape[0], 64), dtype=np.uint64))
        out = np.zeros_like(v)
        for i in range(64):
            diag = np.uint64(1) << np.uint64(63 - i)
            row = (words[:, i] & ~(diag - np.uint64(1))) | diag  # digits 0 .. i
            out |= _parity(row[:, None] & v) << np.uint64(63 - i)
        v = out
    if direction in (direction_vector_set.VECTOR_32, direction_vector_set.SCRAMBLED_VECTOR_32):
        return (v[:, :32] >> np.uint64(32)).astype(np.uint32)
    if direction in (direction_vector_set.VECTOR_64, direction_vector_set.SCRAMBLED_VECTOR_64):
        return v
    raise ValueError(f"generate_direction_vectors: direction {direction!r} is not one of "
                     "direction_vector_set's")


def _get_direction_vectors(direction: int, result: np.ndarray, count: int) -> None:
    """Fills result[:count] with the vectors of dimensions 0 .. count - 1 of the set,
    dimension i being the table's i % 20000 (as PyCUDA copies cuRAND's)."""
    table = _direction_table(direction)
    result[:count] = table[np.arange(count) % _SOBOL_DIMENSIONS]


def generate_direction_vectors(count: int, direction: int | None = None) -> GPUArray:
    """A (count, 32) uint32 GPUArray of Sobol direction vectors, or (count, 64) uint64 for
    the 64-bit sets: dimension i is Joe and Kuo's dimension i % 20000 (see the module's
    note on the scrambled sets)."""
    if direction is None:
        direction = direction_vector_set.VECTOR_32
    table = _direction_table(direction)
    return _to_gpu(np.ascontiguousarray(table[np.arange(count) % _SOBOL_DIMENSIONS]))


@functools.lru_cache(maxsize=None)
def _scramble_table() -> np.ndarray:
    rs = np.random.RandomState(0x5c4a3b1e)
    return (rs.randint(0, 2**32, _SOBOL_DIMENSIONS, dtype=np.uint64) << np.uint64(32)
            | rs.randint(0, 2**32, _SOBOL_DIMENSIONS, dtype=np.uint64))


def _get_scramble_constants32(result: np.ndarray, count: int) -> None:
    result[:count] = (_scramble_table()[np.arange(count) % _SOBOL_DIMENSIONS]
                      >> np.uint64(32)).astype(np.uint32)


def _get_scramble_constants64(result: np.ndarray, count: int) -> None:
    result[:count] = _scramble_table()[np.arange(count) % _SOBOL_DIMENSIONS]


def generate_scramble_constants32(count: int) -> GPUArray:
    """count uint32 scramble constants (lattice's own fixed random ones), on the device."""
    r = np.empty(count, np.uint32)
    _get_scramble_constants32(r, count)
    return _to_gpu(r)


def generate_scramble_constants64(count: int) -> GPUArray:
    """count uint64 scramble constants (lattice's own fixed random ones), on the device."""
    r = np.empty(count, np.uint64)
    _get_scramble_constants64(r, count)
    return _to_gpu(r)


# ---- the generators --------------------------------------------------------------------------

_LOOP = r"""
extern "C" __global__ void %(name)s(%(state)s *s, %(out)s *d, %(params)sconst u64 n)
{
    const u64 tidx = blockIdx.x * (u64)blockDim.x + threadIdx.x;
    const u64 delta = (u64)blockDim.x * gridDim.x;
    for (u64 idx = tidx; idx < n; idx += delta)
        d[idx] = %(call)s;
}
"""

_SKIP = r"""
extern "C" __global__ void %(name)s(%(state)s *s, const u64 n, const %(skip)s skip)
{
    const u64 idx = blockIdx.x * (u64)blockDim.x + threadIdx.x;
    if (idx < n)
        %(fn)s(skip, &s[idx]);
}
extern "C" __global__ void %(name)s_array(%(state)s *s, const u64 n, const %(skip)s *skip)
{
    const u64 idx = blockIdx.x * (u64)blockDim.x + threadIdx.x;
    if (idx < n)
        %(fn)s(skip[idx], &s[idx]);
}
"""

# name, element type, extra parameters, call (PyCUDA's kernels; the Box-Muller pairs only for
# the generators that have them)
_KERNELS = [
    ("uniform_int", "unsigned int", "", "curand(&s[tidx])"),
    ("uniform_long", "unsigned long long", "", "curand(&s[tidx])"),
    ("uniform_float", "float", "", "curand_uniform(&s[tidx])"),
    ("uniform_double", "double", "", "curand_uniform_double(&s[tidx])"),
    ("normal_float", "float", "", "curand_normal(&s[tidx])"),
    ("normal_double", "double", "", "curand_normal_double(&s[tidx])"),
    ("normal_float2", "float2", "", "curand_normal2(&s[tidx])"),
    ("normal_double2", "double2", "", "curand_normal2_double(&s[tidx])"),
    ("normal_log_float", "float", "float mean, float stddev, ",
     "curand_log_normal(&s[tidx], mean, stddev)"),
    ("normal_log_double", "double", "double mean, double stddev, ",
     "curand_log_normal_double(&s[tidx], mean, stddev)"),
    ("normal_log_float2", "float2", "float mean, float stddev, ",
     "curand_log_normal2(&s[tidx], mean, stddev)"),
    ("normal_log_double2", "double2", "double mean, double stddev, ",
     "curand_log_normal2_double(&s[tidx], mean, stddev)"),
    ("poisson_int", "unsigned int", "double lambda, ", "curand_poisson(&s[tidx], lambda)"),
    ("poisson_inplace_float", "float", "", "(float)curand_poisson(&s[tidx], (double)d[idx])"),
    ("poisson_inplace_double", "double", "",
     "(double)curand_poisson(&s[tidx], (double)d[idx])"),
    ("poisson_inplace_int", "unsigned int", "",
     "(unsigned int)curand_poisson(&s[tidx], (double)d[idx])"),
]


class _RandomNumberGeneratorBase:
    """One cuRAND state per thread of ``block_count`` blocks (the device's multiprocessors)
    of ``generators_per_block`` threads, as PyCUDA keeps them."""

    has_box_muller = True
    state_type = ""
    generator_bits = 32
    _pseudo = True  # skipahead counts: unsigned long long, a 32-bit Sobol's unsigned int
    _skips: tuple[str, ...] = ("skipahead",)

    def __init__(self, init_source: str, init_args: Callable[[int], tuple[Any, ...]],
                 **substitutions: str) -> None:
        from .compiler import SourceModule
        dev = _drv.Context.get_device()
        self.block_count = dev.get_attribute(_drv.device_attribute.MULTIPROCESSOR_COUNT)
        kernels = [k for k in _KERNELS if self.has_box_muller or "2" not in k[1]]
        skip = "unsigned int" if self._skip_word == np.uint32 else "unsigned long long"
        source = ["#include <curand_kernel.h>\ntypedef unsigned long long u64;\n"]
        source += [_LOOP % {"name": n, "state": self.state_type, "out": t, "params": p,
                            "call": c} for n, t, p, c in kernels]
        names = {"skipahead": "skip_ahead", "skipahead_sequence": "skip_ahead_sequence",
                 "skipahead_subsequence": "skip_ahead_subsequence"}
        source += [_SKIP % {"name": names[fn], "state": self.state_type, "skip": skip,
                            "fn": fn} for fn in self._skips]
        source.append(init_source % {"state": self.state_type, **substitutions})
        source.append('extern "C" __global__ void lattice_state_size(u64 *out) '
                      f'{{ *out = sizeof({self.state_type}); }}\n')
        self.module = SourceModule("".join(source), no_extern_c=True)
        self.generators = {n: self.module.get_function(n) for n, _, _, _ in kernels}
        for fn in self._skips:
            setattr(self, names[fn], self.module.get_function(names[fn]))
            setattr(self, names[fn] + "_array", self.module.get_function(names[fn] + "_array"))
        prepare = self.module.get_function("prepare")
        self.generators_per_block = min(
            k.get_attribute("MAX_THREADS_PER_BLOCK")
            for k in [*self.generators.values(), prepare])
        count = self.block_count * self.generators_per_block
        size = _core.mem_alloc(8)
        self.module.get_function("lattice_state_size")(size, block=(1, 1, 1))
        self.state = _core.mem_alloc(count * int(_drv.from_device(size, (), np.uint64)))
        self._launch(prepare, np.uint64(count), *init_args(count))

    @property
    def _skip_word(self) -> type:
        return np.uint32 if self.generator_bits == 32 and not self._pseudo else np.uint64

    @property
    def _count(self) -> int:
        return self.block_count * self.generators_per_block

    def _launch(self, func: Any, *args: Any, stream: Any = None) -> None:
        func(self.state, *args, grid=(self.block_count, 1),
             block=(self.generators_per_block, 1, 1), stream=stream)

    def _run(self, name: str, data: GPUArray, *params: Any, n: int | None = None,
             stream: Any = None) -> None:
        flags = getattr(data, "flags", None)
        if flags is not None and not (flags.c_contiguous or flags.f_contiguous):
            raise ValueError(f"curandom: {name} needs a contiguous array")
        self._launch(self.generators[name], data, *params,
                     np.uint64(data.size if n is None else n), stream=stream)

    def fill_uniform(self, data: GPUArray, stream: Any = None) -> None:
        dt = np.dtype(data.dtype)
        if dt == np.float32:
            name = "uniform_float"
        elif dt == np.float64:
            name = "uniform_double"
        elif dt in (np.int32, np.uint32):
            name = "uniform_int"
        elif dt in (np.int64, np.uint64) and self.generator_bits >= 64:
            name = "uniform_long"
        else:
            wide = ", int64 or uint64" if self.generator_bits >= 64 else ""
            raise NotImplementedError(f"fill_uniform: dtype {dt} (float32, float64, int32 or "
                                      f"uint32{wide})")
        self._run(name, data, stream=stream)

    def _normal(self, what: str, data: GPUArray, params: tuple[Any, ...], stream: Any) -> None:
        dt = np.dtype(data.dtype)
        if dt not in (np.float32, np.float64):
            raise NotImplementedError(f"fill_{what}: dtype {dt} (float32 or float64)")
        name = f"{'normal_log' if what == 'log_normal' else 'normal'}_" \
               f"{'float' if dt == np.float32 else 'double'}"
        n = data.size
        if self.has_box_muller and n % 2 == 0:
            # As PyCUDA: Box-Muller pairs for an even count.
            name, n = name + "2", n // 2
        self._run(name, data, *(dt.type(p) for p in params), n=n, stream=stream)

    def fill_normal(self, data: GPUArray, stream: Any = None) -> None:
        self._normal("normal", data, (), stream)

    def fill_log_normal(self, data: GPUArray, mean: float, stddev: float,
                        stream: Any = None) -> None:
        self._normal("log_normal", data, (mean, stddev), stream)

    def fill_poisson(self, data: GPUArray, lambda_value: Any = None, stream: Any = None) -> None:
        """Poisson draws; without lambda_value each element's own value is its lambda
        (float32, float64 or uint32 arrays), with one (uint32 arrays) it is every one's."""
        dt = np.dtype(data.dtype)
        if lambda_value is None:
            name = {np.dtype(np.float32): "poisson_inplace_float",
                    np.dtype(np.float64): "poisson_inplace_double",
                    np.dtype(np.uint32): "poisson_inplace_int"}.get(dt)
            if name is None:
                raise NotImplementedError(f"fill_poisson: dtype {dt} (float32, float64 or "
                                          "uint32)")
            self._run(name, data, stream=stream)
        else:
            if dt != np.uint32:
                raise NotImplementedError(f"fill_poisson with a lambda: dtype {dt} (uint32)")
            self._run("poisson_int", data, np.float64(lambda_value), stream=stream)

    def gen_uniform(self, shape: Any, dtype: Any, stream: Any = None) -> GPUArray:
        r = _empty(shape, dtype)
        self.fill_uniform(r, stream)
        return r

    def gen_normal(self, shape: Any, dtype: Any, stream: Any = None) -> GPUArray:
        r = _empty(shape, dtype)
        self.fill_normal(r, stream)
        return r

    def gen_log_normal(self, shape: Any, dtype: Any, mean: float, stddev: float,
                       stream: Any = None) -> GPUArray:
        r = _empty(shape, dtype)
        self.fill_log_normal(r, mean, stddev, stream)
        return r

    def gen_poisson(self, shape: Any, dtype: Any, lambda_value: Any,
                    stream: Any = None) -> GPUArray:
        r = _empty(shape, dtype)
        self.fill_poisson(r, lambda_value, stream)
        return r

    def _skip(self, name: str, i: Any, stream: Any, count: int | None = None) -> None:
        func = getattr(self, name)
        n = np.uint64(self._count if count is None else count)
        if name.endswith("_array"):
            self._launch(func, n, i, stream=stream)
        else:
            self._launch(func, n, self._skip_word(i), stream=stream)

    # PyCUDA passes generators_per_block as the count of generators to skip: only the first
    # block's advance. lattice does the same, so that a program's numbers are PyCUDA's.
    def call_skip_ahead(self, i: int, stream: Any = None) -> None:
        """Advances the generators of the first block by i draws (as PyCUDA's)."""
        self._skip("skip_ahead", i, stream, self.generators_per_block)

    def call_skip_ahead_array(self, i: GPUArray, stream: Any = None) -> None:
        """Advances generator k of the first block by i[k] draws (as PyCUDA's)."""
        self._skip("skip_ahead_array", i, stream, self.generators_per_block)


def _empty(shape: Any, dtype: Any) -> GPUArray:
    from .gpuarray import empty
    return empty(shape, dtype)


def _seeds(seed_getter: Any, count: int) -> GPUArray:
    if seed_getter is None:
        seed = _to_gpu(np.random.randint(0, 2**31 - 1, count).astype(np.int32))
    else:
        seed = seed_getter(count)
    if not (isinstance(seed, GPUArray) and seed.dtype == np.int32 and seed.size == count):
        raise TypeError(f"seed_getter({count}) must give a GPUArray of {count} int32 seeds")
    return seed


_PSEUDO_INIT = r"""
extern "C" __global__ void prepare(%(state)s *s, const u64 n, const int *v, const u64 o)
{
    const u64 id = blockIdx.x * (u64)blockDim.x + threadIdx.x;
    if (id < n)
        curand_init((unsigned int)v[id], id, o, &s[id]);
}
"""


class _PseudoRandomNumberGeneratorBase(_RandomNumberGeneratorBase):
    _skips = ("skipahead", "skipahead_sequence")

    def __init__(self, seed_getter: Any = None, offset: int = 0) -> None:
        super().__init__(_PSEUDO_INIT, lambda count: (_seeds(seed_getter, count),
                                                      np.uint64(offset)))

    def call_skip_ahead_sequence(self, i: int, stream: Any = None) -> None:
        """Advances every generator by i sequences."""
        self._skip("skip_ahead_sequence", i, stream)

    def call_skip_ahead_sequence_array(self, i: GPUArray, stream: Any = None) -> None:
        self._skip("skip_ahead_sequence_array", i, stream)


class XORWOWRandomNumberGenerator(_PseudoRandomNumberGeneratorBase):
    """cuRAND's XORWOW generator (curandStateXORWOW), seeded by ``seed_getter(count)`` (an
    int32 GPUArray; default: random seeds), generator k on subsequence k (2**67 draws
    each), advanced by ``offset`` draws."""

    state_type = "curandStateXORWOW"


class MRG32k3aRandomNumberGenerator(_PseudoRandomNumberGeneratorBase):
    """cuRAND's MRG32k3a generator (curandStateMRG32k3a): as XORWOW's, subsequences 2**76
    draws apart and sequences 2**127."""

    state_type = "curandStateMRG32k3a"
    _skips = ("skipahead", "skipahead_sequence", "skipahead_subsequence")

    def call_skip_ahead_subsequence(self, i: int, stream: Any = None) -> None:
        """Advances every generator by i subsequences."""
        self._skip("skip_ahead_subsequence", i, stream)

    def call_skip_ahead_subsequence_array(self, i: GPUArray, stream: Any = None) -> None:
        self._skip("skip_ahead_subsequence_array", i, stream)


_SOBOL_INIT = r"""
extern "C" __global__ void prepare(%(state)s *s, const u64 n, %(vector)s *v, const u64 o)
{
    const u64 id = blockIdx.x * (u64)blockDim.x + threadIdx.x;
    if (id < n)
        curand_init(v[id], o, &s[id]);
}
"""

_SCRAMBLED_INIT = r"""
extern "C" __global__ void prepare(%(state)s *s, const u64 n, %(vector)s *v,
                                   %(scramble)s *scramble, const u64 o)
{
    const u64 id = blockIdx.x * (u64)blockDim.x + threadIdx.x;
    if (id < n)
        curand_init(v[id], scramble[id], o, &s[id]);
}
"""


class _SobolRandomNumberGeneratorBase(_RandomNumberGeneratorBase):
    """Generator k draws dimension k of a Sobol sequence from its direction vectors
    (``dir_vector``: a (count, bits) GPUArray; default: generate_direction_vectors),
    starting at point ``offset``; its normals are the inverse normal CDF of one value
    each (no Box-Muller pairs)."""

    has_box_muller = False
    _pseudo = False
    _direction = direction_vector_set.VECTOR_32
    _scrambled = False

    def __init__(self, dir_vector: Any = None, scramble_vector: Any = None,
                 offset: int = 0) -> None:
        bits = self.generator_bits
        word = np.uint32 if bits == 32 else np.uint64

        def args(count: int) -> tuple[Any, ...]:
            v = dir_vector if dir_vector is not None else \
                generate_direction_vectors(count, self._direction)
            if not (isinstance(v, GPUArray) and v.dtype == word and v.shape == (count, bits)):
                raise TypeError(f"dir_vector must be a GPUArray of shape ({count}, {bits}) "
                                f"and dtype {np.dtype(word)}")
            if not self._scrambled:
                return (v, np.uint64(offset))
            c = scramble_vector if scramble_vector is not None else (
                generate_scramble_constants32 if bits == 32 else
                generate_scramble_constants64)(count)
            if not (isinstance(c, GPUArray) and c.dtype == word and c.shape == (count,)):
                raise TypeError(f"scramble_vector must be a GPUArray of shape ({count},) and "
                                f"dtype {np.dtype(word)}")
            return (v, c, np.uint64(offset))

        super().__init__(_SCRAMBLED_INIT if self._scrambled else _SOBOL_INIT, args,
                         vector=f"curandDirectionVectors{bits}_t",
                         scramble="unsigned int" if bits == 32 else "unsigned long long")


class Sobol32RandomNumberGenerator(_SobolRandomNumberGeneratorBase):
    """cuRAND's Sobol32 quasi-random generator (curandStateSobol32)."""

    state_type = "curandStateSobol32"

    def __init__(self, dir_vector: Any = None, offset: int = 0) -> None:
        super().__init__(dir_vector, None, offset)


class ScrambledSobol32RandomNumberGenerator(_SobolRandomNumberGeneratorBase):
    """cuRAND's scrambled Sobol32 generator (curandStateScrambledSobol32): each dimension's
    points xor its scramble constant (``scramble_vector``: a (count,) uint32 GPUArray)."""

    state_type = "curandStateScrambledSobol32"
    _direction = direction_vector_set.SCRAMBLED_VECTOR_32
    _scrambled = True


class Sobol64RandomNumberGenerator(_SobolRandomNumberGeneratorBase):
    """cuRAND's Sobol64 quasi-random generator (curandStateSobol64)."""

    state_type = "curandStateSobol64"
    generator_bits = 64
    _direction = direction_vector_set.VECTOR_64

    def __init__(self, dir_vector: Any = None, offset: int = 0) -> None:
        super().__init__(dir_vector, None, offset)


class ScrambledSobol64RandomNumberGenerator(_SobolRandomNumberGeneratorBase):
    """cuRAND's scrambled Sobol64 generator (curandStateScrambledSobol64)."""

    state_type = "curandStateScrambledSobol64"
    generator_bits = 64
    _direction = direction_vector_set.SCRAMBLED_VECTOR_64
    _scrambled = True


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
