"""lattice.pycuda.curandom's cuRAND generators against their definitions: MRG32k3a against
L'Ecuyer's recurrence stepped here, Sobol points against the Gray-code definition over the
direction vectors, the direction vectors against Joe and Kuo's numbers, and every generator's
distributions (Poisson included) against their moments."""

import numpy as np
import pytest

import lattice.pycuda.autoinit  # noqa: F401
from lattice.pycuda import curandom, gpuarray

GENERATORS = [curandom.XORWOWRandomNumberGenerator, curandom.MRG32k3aRandomNumberGenerator,
              curandom.Sobol32RandomNumberGenerator,
              curandom.ScrambledSobol32RandomNumberGenerator,
              curandom.Sobol64RandomNumberGenerator,
              curandom.ScrambledSobol64RandomNumberGenerator]


def mrg32k3a_values(seed, count):
    """L'Ecuyer's MRG32k3a from curand_init(seed, 0, 0), stepped: the combined values."""
    m1, m2 = 4294967087, 4294944443
    x1, x2 = (seed & 0xFFFFFFFF) ^ 0x55555555, (seed >> 32) ^ 0xAAAAAAAA
    s1 = [x1 * 12345 % m1, x2 * 12345 % m1, x1 * 12345 % m1]
    s2 = [x2 * 12345 % m2, x1 * 12345 % m2, x2 * 12345 % m2]
    out = []
    for _ in range(count):
        p1 = (1403580 * s1[1] - 810728 * s1[0]) % m1
        p2 = (527612 * s2[2] - 1370589 * s2[0]) % m2
        s1, s2 = [s1[1], s1[2], p1], [s2[1], s2[2], p2]
        out.append(p1 - p2 if p1 > p2 else p1 - p2 + m1)
    return out


def test_mrg32k3a_generator_gives_lecuyers_values():
    seeds = lambda n: gpuarray.to_gpu(np.full(n, 987654, np.int32))  # noqa: E731
    gen = curandom.MRG32k3aRandomNumberGenerator(seeds, offset=3)
    count = gen.block_count * gen.generators_per_block
    u = gen.gen_uniform(3 * count, np.float64).get()
    want = mrg32k3a_values(987654, 6)[3:]  # generator 0: subsequence 0, three draws skipped
    np.testing.assert_array_equal(u[::count], np.array(want) * 2.3283065498378288e-10)
    # a subsequence apart, generators differ
    assert len(set(u[:count])) == count


def gray_points(v, c, first, count):
    """Points first .. first + count - 1 of the Sobol dimension with vectors v, xor c."""
    out = []
    for i in range(first, first + count):
        g, x = i ^ (i >> 1), int(c)
        for k in range(len(v)):
            if g >> k & 1:
                x ^= int(v[k])
        out.append(x)
    return out


@pytest.mark.parametrize("bits,scrambled", [(32, False), (32, True), (64, False), (64, True)])
def test_sobol_generators_give_the_gray_code_points(bits, scrambled):
    cls = {(32, False): curandom.Sobol32RandomNumberGenerator,
           (32, True): curandom.ScrambledSobol32RandomNumberGenerator,
           (64, False): curandom.Sobol64RandomNumberGenerator,
           (64, True): curandom.ScrambledSobol64RandomNumberGenerator}[bits, scrambled]
    rng = np.random.default_rng(5)
    probe = cls()  # the generator count the device gives
    count = probe.block_count * probe.generators_per_block
    word = np.uint32 if bits == 32 else np.uint64
    v = rng.integers(0, 2**bits, (count, bits), dtype=np.uint64).astype(word)
    c = rng.integers(0, 2**bits, count, dtype=np.uint64).astype(word)
    args = (gpuarray.to_gpu(v),) + ((gpuarray.to_gpu(c),) if scrambled else ())
    gen = cls(*args, offset=7)
    got = gen.gen_uniform(3 * count, np.uint64 if bits == 64 else np.uint32).get()
    for dim in (0, 1, count - 1):
        want = gray_points(v[dim], c[dim] if scrambled else 0, 7, 3)
        assert [int(x) for x in got[dim::count]] == want, dim


def test_direction_vectors_are_joe_and_kuos():
    v = curandom.generate_direction_vectors(20003, curandom.direction_vector_set.VECTOR_32).get()
    assert v.shape == (20003, 32) and v.dtype == np.uint32
    # dimension 0: van der Corput; 1: x + 1; 2: x^2 + x + 1 with m = 1, 3
    assert [int(x) for x in v[0, :3]] == [1 << 31, 1 << 30, 1 << 29]
    assert [int(x) >> 28 for x in v[1, :4]] == [0x8, 0xC, 0xA, 0xF]
    assert [int(x) >> 28 for x in v[2, :4]] == [0x8, 0xC, 0x6, 0x9]
    np.testing.assert_array_equal(v[20000:], v[:3])  # PyCUDA's copies wrap at 20000
    # vector k is an odd m_k shifted left by 31 - k: its lowest set bit is 31 - k
    low = np.log2((v[:20000] & (~v[:20000] + np.uint32(1))).astype(np.float64))
    np.testing.assert_array_equal(low, np.broadcast_to(31 - np.arange(32), low.shape))
    v64 = curandom.generate_direction_vectors(50, curandom.direction_vector_set.VECTOR_64).get()
    np.testing.assert_array_equal((v64[:, :32] >> np.uint64(32)).astype(np.uint32), v[:50])
    for s in (curandom.direction_vector_set.SCRAMBLED_VECTOR_32,
              curandom.direction_vector_set.SCRAMBLED_VECTOR_64):
        sv = curandom.generate_direction_vectors(50, s).get()
        assert not np.array_equal(sv[:, :32], v[:50] if s == 102 else v64[:, :32])
        # still a Sobol net: 2^8 points of a dimension, shifted by any constant, fall one in
        # each of 2^8 equal intervals
        top = int(sv.dtype.itemsize * 8)
        for dim in (0, 7, 49):
            pts = gray_points(sv[dim, :9], 0x5A5A5A5A5A5A5A5A >> (64 - top), 0, 256)
            assert sorted(p >> (top - 8) for p in pts) == list(range(256)), (s, dim)
    with pytest.raises(ValueError, match="direction"):
        curandom.generate_direction_vectors(4, 7)
    c = curandom.generate_scramble_constants32(20001).get()
    assert c.dtype == np.uint32 and c[20000] == c[0] and len(set(c[:100])) == 100


@pytest.mark.parametrize("cls", GENERATORS, ids=lambda c: c.__name__)
def test_every_generator_draws_its_distributions(cls):
    # Sobol's point 0 is 0 in every plain dimension (a normal of -6.3): start at point 1.
    gen = cls(offset=1)
    # Element i comes from generator i % count, one Sobol dimension each, and there are as
    # many as the device runs threads at once (as PyCUDA: 132 x 1024 on an H100). Drawn
    # once, every dimension's next point is alike (points 3 of all dimensions are 0.25 or
    # 0.75: normals of +-0.674 only), so each generator draws 64 points here.
    n = max(1 << 16, 64 * gen.block_count * gen.generators_per_block)
    for dt in (np.float32, np.float64):
        u = gen.gen_uniform(n, dt).get()
        assert u.dtype == dt and 0 < u.min() and u.max() <= 1 and abs(u.mean() - 0.5) < 0.02
        for m in (n, n + 1):
            z = gen.gen_normal(m, dt).get()
            assert abs(z.mean()) < 0.05 and abs(z.std() - 1) < 0.1
        ln = np.log(gen.gen_log_normal(n, dt, 1.0, 0.5).get())
        assert abs(ln.mean() - 1) < 0.03 and abs(ln.std() - 0.5) < 0.05
    p = gen.gen_poisson(n, np.uint32, 13.0).get()
    assert abs(p.mean() - 13) < 0.2 and abs(p.var() - 13) < 1.5
    for dt in (np.float32, np.float64, np.uint32):
        a = gpuarray.to_gpu(np.repeat(np.array([2, 10, 100, 5000], dt), n // 4))
        gen.fill_poisson(a)
        h = a.get().reshape(4, -1).astype(np.float64)
        for row, lam in zip(h, (2, 10, 100, 5000)):
            assert abs(row.mean() - lam) < 6 * np.sqrt(lam / row.size) + 0.02, (dt, lam)
    with pytest.raises(NotImplementedError):
        gen.fill_poisson(gpuarray.empty(4, np.float32), 3.0)
    with pytest.raises(NotImplementedError):
        gen.gen_normal(4, np.int32)


def test_skip_ahead_moves_the_generators_pycuda_moves():
    seeds = lambda n: gpuarray.to_gpu(np.arange(n, dtype=np.int32))  # noqa: E731
    for cls in (curandom.XORWOWRandomNumberGenerator, curandom.MRG32k3aRandomNumberGenerator):
        plain, skipped = cls(seeds), cls(seeds)
        count, per_block = plain.block_count * plain.generators_per_block, plain.generators_per_block
        want = plain.gen_uniform(6 * count, np.uint32).get()
        skipped.call_skip_ahead(5)  # PyCUDA's: the first block's generators only
        got = skipped.gen_uniform(count, np.uint32).get()
        np.testing.assert_array_equal(got[:per_block], want[5 * count:5 * count + per_block])
        np.testing.assert_array_equal(got[per_block:], want[per_block:count])
        # with one seed, generator k is on subsequence k: a jump of one moves each onto its
        # neighbour's (XORWOW's sequence is curand_init's subsequence; MRG32k3a has both)
        same = lambda n: gpuarray.to_gpu(np.full(n, 77, np.int32))  # noqa: E731
        a, b = cls(same), cls(same)
        if cls is curandom.MRG32k3aRandomNumberGenerator:
            a.call_skip_ahead_subsequence(1)
        else:
            a.call_skip_ahead_sequence(1)
        np.testing.assert_array_equal(a.gen_uniform(count, np.uint32).get()[:-1],
                                      b.gen_uniform(count, np.uint32).get()[1:])
