"""lattice.pycuda's arrays against NumPy: random inputs, NumPy's result as the reference.
Each test names the PyCUDA/NumPy behaviour it holds to (issue 41: none may differ
silently)."""

import itertools
import operator

import numpy as np
import pytest

import lattice.pycuda.autoinit  # noqa: F401
import lattice.pycuda.cumath as cumath
import lattice.pycuda.driver as drv
import lattice.pycuda.gpuarray as gpuarray
from lattice.pycuda.elementwise import ElementwiseKernel
from lattice.pycuda.reduction import ReductionKernel
from lattice.pycuda.scan import ExclusiveScanKernel, InclusiveScanKernel

DTYPES = [np.int8, np.uint8, np.int32, np.uint32, np.int64, np.float32, np.float64,
          np.complex64, np.complex128]


def rand(rng, shape, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "c":
        r = rand(rng, shape, np.float32 if dt == np.complex64 else np.float64)
        return (r + 1j * rand(rng, shape, r.dtype)).astype(dt)
    if dt.kind == "f":
        return (rng.random(shape) * 4 - 2).astype(dt)
    if dt.kind == "u":
        return rng.integers(1, 50, shape).astype(dt)
    if dt == np.bool_:
        return rng.random(shape) > 0.5
    return rng.integers(-50, 50, shape).astype(dt)


def close(got, want):
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype.kind in "fc":
        tol = 2e-6 if want.dtype in (np.float32, np.complex64) else 1e-13
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("op", [operator.add, operator.sub, operator.mul, operator.truediv])
@pytest.mark.parametrize("lt,rt", list(itertools.product(
    [np.int8, np.int32, np.uint32, np.float32, np.float64, np.complex64], repeat=2)))
def test_binary_promotion_follows_numpy(rng, op, lt, rt):
    a, b = rand(rng, (7, 5), lt), rand(rng, (7, 5), rt)
    close(op(gpuarray.to_gpu(a), gpuarray.to_gpu(b)).get(), op(a, b))


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint8, np.float32, np.complex64])
@pytest.mark.parametrize("scalar", [3, 2.5, 1j, np.float64(1.5), np.int64(2)])
def test_scalars_weak_as_numpy2(rng, dtype, scalar):
    if isinstance(scalar, (int, np.integer)) and np.dtype(dtype).kind == "u":
        scalar = abs(scalar)
    a = rand(rng, (33,), dtype)
    g = gpuarray.to_gpu(a)
    close((g * scalar).get(), a * scalar)
    close((scalar - g).get(), scalar - a)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32, np.float32, np.float64])
def test_floordiv_mod_pow_as_numpy(rng, dtype):
    a, b = rand(rng, (40,), dtype), rand(rng, (40,), dtype)
    if np.dtype(dtype).kind in "iu":
        b[b == 0] = 3
    ga, gb = gpuarray.to_gpu(a), gpuarray.to_gpu(b)
    close((ga // gb).get(), a // b)
    close((ga % gb).get(), a % b)
    e = np.abs(b) % 4 if np.dtype(dtype).kind in "iu" else b
    base = a if np.dtype(dtype).kind in "iu" else np.abs(a)
    close((gpuarray.to_gpu(base) ** gpuarray.to_gpu(e)).get(), base ** e)


def test_negative_integer_power_refused(rng):
    g = gpuarray.to_gpu(np.arange(1, 5, dtype=np.int32))
    with pytest.raises(ValueError):
        g ** gpuarray.to_gpu(np.array([1, -1, 2, 3], np.int32))
    with pytest.raises(ValueError):
        g ** -2


def test_comparisons_give_bool(rng):
    a, b = rand(rng, (50,), np.float32), rand(rng, (50,), np.float32)
    ga, gb = gpuarray.to_gpu(a), gpuarray.to_gpu(b)
    for op in (operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne):
        close(op(ga, gb).get(), op(a, b))
        close(op(ga, 0.25).get(), op(a, 0.25))


@pytest.mark.parametrize("dtype", [np.int32, np.bool_, np.float32, np.complex64])
def test_any_all_are_bool(rng, dtype):
    for a in (rand(rng, (20,), dtype), np.zeros(5, dtype), np.ones(3, dtype)):
        g = gpuarray.to_gpu(a)
        close(g.any().get(), np.asarray(np.any(a)))
        close(g.all().get(), np.asarray(np.all(a)))


def test_defaults_are_float64():
    assert gpuarray.zeros(4).dtype == np.float64
    assert gpuarray.ones(4).dtype == np.float64
    assert gpuarray.empty(4).dtype == np.float64


def test_set_refuses_other_dtype_and_size(rng):
    g = gpuarray.zeros(10, np.float32)
    with pytest.raises(ValueError):
        g.set(np.arange(10, dtype=np.float64))
    with pytest.raises(ValueError):
        g.set(np.arange(11, dtype=np.float32))
    a = rand(rng, (10,), np.float32)
    g.set(a)
    close(g.get(), a)


def test_fortran_order_kept(rng):
    a = np.asfortranarray(rand(rng, (6, 9), np.float64))
    g = gpuarray.to_gpu(a)
    assert g.strides == a.strides and g.flags.f_contiguous and not g.flags.c_contiguous
    close(g.get(), a)
    c = g.copy()
    assert c.strides == a.strides
    close((g * 2 + 1).get(), a * 2 + 1)
    assert (g * 2).flags.f_contiguous
    # a Fortran view of C memory (PyCUDA's gpudata= with order="F")
    gc = gpuarray.to_gpu(np.ascontiguousarray(a))
    f = gpuarray.GPUArray((9, 6), np.float64, gpudata=gc.gpudata, order="F")
    close(f.get(), np.ascontiguousarray(a).ravel().reshape((9, 6), order="F"))


@pytest.mark.parametrize("key", [
    (slice(1, 5), slice(None, None, 2)), (slice(None, None, -1), 2), (Ellipsis, 1),
    (None, slice(2, 4)), (1, None, Ellipsis, slice(3, 0, -2)), (slice(0, 7, 3),),
    (-1, -2, slice(None)), (Ellipsis, None),
])
def test_views_match_numpy(rng, key):
    a = rand(rng, (5, 6, 7), np.float32)
    g = gpuarray.to_gpu(a)
    v, want = g[key], a[key]
    assert v.shape == want.shape and v.strides == want.strides
    close(v.get(), want)
    close((v * 3 - 1).get(), want * 3 - 1)
    close(cumath.sin(v).get(), np.sin(want))
    np.testing.assert_allclose(gpuarray.sum(v).get(), want.sum(), rtol=1e-5)


def test_setitem_on_views(rng):
    a = rand(rng, (6, 8), np.float64)
    g = gpuarray.to_gpu(a)
    g[1:5:2, ::-3] = 7.5
    a[1:5:2, ::-3] = 7.5
    b = rand(rng, (8,), np.float64)
    g[3] = gpuarray.to_gpu(b)
    a[3] = b
    g[..., 0] = np.arange(6.0)
    a[..., 0] = np.arange(6.0)
    close(g.get(), a)


def test_transpose_reshape_view_squeeze(rng):
    a = rand(rng, (4, 5, 6), np.float32)
    g = gpuarray.to_gpu(a)
    close(g.T.get(), a.T)
    close(g.transpose((1, 2, 0)).get(), a.transpose((1, 2, 0)))
    close(g.transpose(2, 0, 1).get(), a.transpose(2, 0, 1))
    close(g[:, 1:3].transpose(axes=(1, 0, 2)).get(), a[:, 1:3].transpose(1, 0, 2))
    close(g.reshape(-1, 10).get(), a.reshape(-1, 10))
    close(g.reshape((10, -1), order="F").get(), a.reshape((10, -1), order="F"))
    assert g.reshape(12, 10, order="F").flags.f_contiguous
    close(g.T.reshape(30, 4).get(), a.T.reshape(30, 4))
    close(g.T.ravel().get(), a.T.ravel())
    with pytest.raises(ValueError):
        g.reshape(-1, -1, 2)
    close(g.view(np.int32).get(), a.view(np.int32))
    close(g.view(np.complex64).get(), a.view(np.complex64))
    close(g[:, 1:2, :].squeeze().get(), a[:, 1:2, :].squeeze())


def test_zero_d_and_broadcast(rng):
    a = rand(rng, (4, 5), np.float32)
    s = np.array(3, dtype=np.int64)
    g, gs = gpuarray.to_gpu(a), gpuarray.to_gpu(s)
    close((g * gs).get(), a * s)
    close((gs - g).get(), s - a)
    row = rand(rng, (5,), np.float64)
    close((g + gpuarray.to_gpu(row)).get(), a + row)
    assert bool(gpuarray.ones((1, 1), np.float32)) and not bool(gpuarray.zeros((), np.int32))


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint16, np.float32, np.float64,
                                   np.complex64, np.complex128])
def test_reductions_dtypes(rng, dtype):
    a = rand(rng, (1000,), dtype)
    g = gpuarray.to_gpu(a)
    s = gpuarray.sum(g).get()
    assert s.dtype == a.sum().dtype
    np.testing.assert_allclose(s, a.sum(), rtol=1e-5)
    b = rand(rng, (1000,), dtype)
    d = gpuarray.dot(g, gpuarray.to_gpu(b)).get()
    assert d.dtype == np.result_type(a, b)
    if np.dtype(dtype).kind in "fc":
        np.testing.assert_allclose(d, np.sum(a * b), rtol=1e-4)
        np.testing.assert_allclose(gpuarray.vdot(g, gpuarray.to_gpu(b)).get(),
                                   np.vdot(a, b), rtol=1e-4)
    if np.dtype(dtype).kind != "c":
        close(gpuarray.min(g).get(), np.asarray(a.min()))
        close(gpuarray.max(g).get(), np.asarray(a.max()))
        idx = rng.integers(0, 1000, 77).astype(np.int32)
        gi = gpuarray.to_gpu(idx)
        close(gpuarray.subset_min(gi, g).get(), np.asarray(a[idx].min()))
        np.testing.assert_allclose(gpuarray.subset_sum(gi, g).get(), a[idx].sum(), rtol=1e-5)


def test_min_max_propagate_nan(rng):
    a = rand(rng, (300,), np.float32)
    a[123] = np.nan
    g = gpuarray.to_gpu(a)
    assert np.isnan(gpuarray.min(g).get()) and np.isnan(gpuarray.max(g).get())
    b = rand(rng, (300,), np.float32)
    close(gpuarray.maximum(g, gpuarray.to_gpu(b)).get(), np.maximum(a, b))
    close(gpuarray.minimum(0, g).get(), np.minimum(0, a))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex(rng, dtype):
    a, b = rand(rng, (64,), dtype), rand(rng, (64,), dtype)
    ga, gb = gpuarray.to_gpu(a), gpuarray.to_gpu(b)
    close((ga * gb / (gb + 1)).get(), a * b / (b + 1))
    close(ga.real.get(), a.real)
    close(ga.imag.get(), a.imag)
    close(ga.conj().get(), a.conj())
    close(abs(ga).get(), np.abs(a))
    close((ga ** 2).get(), a ** 2)
    close(gpuarray.zeros(3, dtype).get(), np.zeros(3, dtype))
    tol = 2e-5 if dtype == np.complex64 else 1e-12
    for name in ("exp", "log", "log10", "sqrt", "sin", "cos", "tan", "sinh", "cosh",
                 "tanh"):
        np.testing.assert_allclose(getattr(cumath, name)(ga).get(), getattr(np, name)(a),
                                   rtol=tol, atol=tol)


def test_cumath_result_types_and_stream(rng):
    a = rand(rng, (100,), np.int32)
    g = gpuarray.to_gpu(a)
    close(cumath.sin(g).get(), np.sin(a))
    f = gpuarray.to_gpu(rand(rng, (100,), np.float32))
    s = drv.Stream()
    r = cumath.exp(f, s)  # a stream given positionally is a stream, never the output
    assert r is not f and r.dtype == np.float32
    np.testing.assert_allclose(r.get(), np.exp(f.get()), rtol=1e-6)
    out = gpuarray.empty_like(f)
    assert cumath.exp(f, out) is out
    with pytest.raises(TypeError):
        cumath.exp(f, 3)
    with pytest.raises(TypeError):
        cumath.fabs(gpuarray.to_gpu(rand(rng, (4,), np.complex64)))


def test_modf_frexp_ldexp(rng):
    a = rand(rng, (200,), np.float64) * 100
    g = gpuarray.to_gpu(a)
    fr, ip = cumath.modf(g)
    wf, wi = np.modf(a)
    close(fr.get(), wf)
    close(ip.get(), wi)
    m, e = cumath.frexp(g)
    wm, we = np.frexp(a)
    close(m.get(), wm)
    close(e.get(), we)
    close(cumath.ldexp(m, e).get(), np.ldexp(wm, we))


def test_elementwise_slice_and_range():
    k = ElementwiseKernel("float *z, float v", "z[i] = v", "set_value")
    for slc in (slice(5, 200), slice(5, 200, 17), slice(300, 5, -1), slice(10, -1),
                slice(-50, None, 3)):
        g = gpuarray.zeros(400, np.float32)
        a = np.zeros(400, np.float32)
        a[slc] = 7
        k(g, 7, slice=slc)
        close(g.get(), a)
    g = gpuarray.zeros(400, np.float32)
    a = np.zeros(400, np.float32)
    a[3:90:4] = 2
    k(g, 2, range=slice(3, 90, 4))
    close(g.get(), a)
    with pytest.raises(RuntimeError):
        k(gpuarray.zeros((4, 4), np.float32)[:, 1], 1)


def test_scan_without_neutral(rng):
    for n in (1, 7, 1000, 100003):
        a = -rng.integers(1, 1000, n).astype(np.int32)
        g = gpuarray.to_gpu(a)
        InclusiveScanKernel(np.int32, "max(a, b)")(g)
        close(g.get(), np.maximum.accumulate(a))
    a = rng.integers(0, 10, 5000).astype(np.int32)
    g = gpuarray.to_gpu(a)
    out = gpuarray.empty_like(g)
    ExclusiveScanKernel(np.int32, "a+b", "0")(g, out)
    close(out.get(), np.cumsum(a, dtype=np.int32) - a)


def test_reduction_kernel_out(rng):
    a = rand(rng, (10, 200), np.float32)
    g = gpuarray.to_gpu(a)
    red = ReductionKernel(np.float32, neutral=0, reduce_expr="max(a,b)", arguments="float *in")
    m = gpuarray.empty(10, np.float32)
    for i in range(10):
        red(g[i], out=m[i])
    close(m.get(), a.max(axis=1))


def test_joins_gathers_selects(rng):
    a, b = rand(rng, (3, 4), np.float32), rand(rng, (2, 4), np.float64)
    ga, gb = gpuarray.to_gpu(a), gpuarray.to_gpu(b)
    close(gpuarray.concatenate((ga, gb)).get(), np.concatenate((a, b)))
    x, y = rand(rng, (2, 3), np.float32), rand(rng, (2, 3), np.float32)
    for axis in (0, 1, 2, -1):
        close(gpuarray.stack((gpuarray.to_gpu(x), gpuarray.to_gpu(y)), axis=axis).get(),
              np.stack((x, y), axis=axis))
    src = rand(rng, (1000,), np.complex64)
    idx = rng.integers(0, 1000, 300).astype(np.uint32)
    close(gpuarray.take(gpuarray.to_gpu(src), gpuarray.to_gpu(idx)).get(), src[idx])
    c = rand(rng, (3, 4), np.int32)
    close(gpuarray.where(gpuarray.to_gpu(c), ga, 5).get(), np.where(c, a, 5))
    close(gpuarray.if_positive(gpuarray.to_gpu(c), ga, -ga).get(), np.where(c > 0, a, -a))
    for f in ("logical_and", "logical_or"):
        close(getattr(gpuarray, f)(gpuarray.to_gpu(c), ga).get(), getattr(np, f)(c, a))
    close(gpuarray.logical_not(ga).get(), np.logical_not(a))


def test_mul_add_out_arange_astype(rng):
    a, b = rand(rng, (50,), np.float32), rand(rng, (50,), np.float32)
    ga, gb = gpuarray.to_gpu(a), gpuarray.to_gpu(b)
    out = gpuarray.empty_like(ga)
    assert ga.mul_add(2, gb, 3, out=out) is out
    close(out.get(), 2 * a + 3 * b)
    close(gpuarray.arange(3, 40, 7, dtype=np.int64).get(), np.arange(3, 40, 7, dtype=np.int64))
    close(gpuarray.arange(0.5, 3.0, 0.25).get(), np.arange(0.5, 3.0, 0.25))
    close(gpuarray.arange(10).get(), np.arange(10))
    close(ga.astype(np.complex128).get(), a.astype(np.complex128))
    assert gpuarray.empty(np.array([2, 3]), np.float32).shape == (2, 3)
    close(gpuarray.zeros(np.array([2, 3]), np.int16).get(), np.zeros((2, 3), np.int16))


def test_inplace_ops_cast_same_kind(rng):
    a, b = rand(rng, (20,), np.float32), rand(rng, (20,), np.float64)
    ga = gpuarray.to_gpu(a)
    ga += gpuarray.to_gpu(b)
    a += b
    close(ga.get(), a)
    gi = gpuarray.to_gpu(np.arange(20, dtype=np.int32))
    with pytest.raises(TypeError):
        gi += 0.5


def test_vector_types():
    g = gpuarray.GPUArray(10, dtype=gpuarray.vec.float3)
    g.fill(gpuarray.vec.make_float3(1.0, 2.0, 3.0))
    h = g.get()
    assert h.dtype == gpuarray.vec.float3 and (h["y"] == 2).all()


def test_overlapping_operands_as_numpy(rng):
    # NumPy buffers an operand that shares memory with the output in another layout.
    for n in (10, 5000):
        a = rand(rng, (n,), np.float32)
        g = gpuarray.to_gpu(a)
        g[1:] = g[:-1]
        a[1:] = a[:-1].copy()
        close(g.get(), a)
        g[:-2] += g[2:]
        a[:-2] += a[2:].copy()
        close(g.get(), a)
        g[::-1] = g
        a[::-1] = a.copy()
        close(g.get(), a)
    m = rand(rng, (30, 30), np.float64)
    gm = gpuarray.to_gpu(m)
    gm[...] = gm.T
    close(gm.get(), m.T.copy())


def test_setitem_values_of_every_kind(rng):
    g = gpuarray.zeros((3, 4), np.float32)
    g[0] = [1, 2, 3, 4]
    g[1] = np.float64(2.5)
    g[2, 1:3] = np.array([7, 8])
    want = np.zeros((3, 4), np.float32)
    want[0] = [1, 2, 3, 4]
    want[1] = 2.5
    want[2, 1:3] = [7, 8]
    close(g.get(), want)


def test_complex_view_at_odd_offset(rng):
    a = rand(rng, (33,), np.float32)
    g = gpuarray.to_gpu(a)
    v, want = g[1:].view(np.complex64), a[1:].view(np.complex64)
    close((v * v).get(), want * want)
    with pytest.warns(np.exceptions.ComplexWarning):
        r = v.astype(np.float32)
    close(r.get(), want.real.copy())


def test_splay_grid_block_and_scan_new(rng):
    for n in (1, 31, 1000, 10**6):
        (gx, gy), (bx, by, bz) = gpuarray.splay(n)
        assert gy == by == bz == 1 and bx % 32 == 0 and gx >= 1
        assert gx * bx >= min(n, gx * 128)
    a = rand(rng, (777,), np.int64)
    g = gpuarray.to_gpu(a)
    assert g._grid == gpuarray.splay(777)[0] and g._block == gpuarray.splay(777)[1]
    r = InclusiveScanKernel(np.int64, "a+b", "0")(g, "new")
    assert r is not g
    close(r.get(), np.cumsum(a))
    close(g.get(), a)
    with pytest.raises(ValueError):
        InclusiveScanKernel(np.int64, "a+b", "0")(g, gpuarray.empty(776, np.int64))


def test_gpudata_too_small_refused():
    mem = drv.mem_alloc(40)
    g = gpuarray.GPUArray((10,), np.float32, gpudata=mem)
    g.fill(3)
    close(g.get(), np.full(10, 3, np.float32))
    with pytest.raises(ValueError):
        gpuarray.GPUArray((11,), np.float32, gpudata=mem)
    with pytest.raises(ValueError):
        gpuarray.GPUArray((3, 3), np.float32, gpudata=mem, strides=(16, 4))


def test_handles_checked_by_kind(rng):
    g = gpuarray.to_gpu(rand(rng, (8,), np.float32))
    s = drv.Stream()
    for call in (lambda: gpuarray.take(g, gpuarray.arange(3, dtype=np.int32), s),
                 lambda: gpuarray.maximum(g, g, s),
                 lambda: gpuarray.sum(g, None, g),
                 lambda: g.fill(1, g),
                 lambda: g.conj(s)):
        with pytest.raises(TypeError):
            call()
    close(gpuarray.maximum(g, 0, stream=s).get(), np.maximum(g.get(), 0))
    close(gpuarray.sum(g, None, s).get(), np.asarray(g.get().sum()))


def test_multi_take_put_and_subset_dot(rng):
    src = rand(rng, (64,), np.float32)
    g = gpuarray.to_gpu(src)
    dest = np.array([0, 5, 2, 7], np.uint32)
    read = np.array([3, 1, 0, 2], np.uint32)
    outs = gpuarray.multi_take_put([g, g], gpuarray.to_gpu(dest), gpuarray.to_gpu(read),
                                   dest_shape=(8,), src_offsets=[0, 10])
    for o, off in zip(outs, (0, 10)):
        got = o.get()
        np.testing.assert_array_equal(got[dest], src[read + off])
    puts = gpuarray.multi_put([g[:4]], gpuarray.to_gpu(dest), dest_shape=(8,))
    np.testing.assert_array_equal(puts[0].get()[dest], src[:4])
    takes = gpuarray.multi_take([g, g * 2], gpuarray.to_gpu(read))
    close(takes[1].get(), (src * 2)[read])
    b = rand(rng, (64,), np.float32)
    idx = rng.integers(0, 64, 20).astype(np.int32)
    np.testing.assert_allclose(
        gpuarray.subset_dot(gpuarray.to_gpu(idx), g, gpuarray.to_gpu(b)).get(),
        np.dot(src[idx], b[idx]), rtol=1e-5)
    close(g.reverse().get(), src[::-1].copy())
    v = g[::3]
    v.fill(-1)
    src[::3] = -1
    close(g.get(), src)


def test_strides_given_allocate_their_extent(rng):
    g = gpuarray.GPUArray((3, 3), np.float32, strides=(16, 4))
    a = rand(rng, (3, 3), np.float32)
    g.set(a)
    close(g.get(), a)
    assert g.gpudata.nbytes >= 2 * 16 + 2 * 4 + 4
    with pytest.raises(ValueError):
        gpuarray.GPUArray((3,), np.float32, strides=(-4,))


@pytest.mark.parametrize("dtype", [np.uint8, np.uint32, np.uint64, np.int8, np.int16])
def test_comparisons_with_a_python_int_beyond_the_type_s_range(dtype, rng):
    # NumPy 2 compares exactly (uint8 > -3 everywhere) where converting -3 would overflow.
    a = rand(rng, (5, 7), dtype)
    ag = gpuarray.to_gpu(a)
    info = np.iinfo(dtype)
    for s in (-3, info.min - 1, info.max + 1, 2**70):
        for op in (operator.eq, operator.ne, operator.lt, operator.le, operator.gt,
                   operator.ge):
            close(op(ag, s).get(), op(a, s))
            close(op(s, ag[:, 1:]).get(), op(s, a[:, 1:]))
    with pytest.raises(OverflowError):
        ag + (info.max + 1)


@pytest.mark.parametrize("op", [operator.floordiv, operator.mod, operator.pow])
def test_bool_floordiv_mod_pow_give_int8_as_numpy_s(op, rng):
    a, b = rng.random(40) > 0.5, np.ones(40, bool)
    with np.errstate(all="ignore"):
        close(op(gpuarray.to_gpu(a), gpuarray.to_gpu(b)).get(), op(a, b))
        close(op(gpuarray.to_gpu(a), True).get(), op(a, True))


def test_big_endian_data_is_refused_with_the_conversion_to_make(rng):
    # Big-endian data (FITS files) must not reach kernels with its bytes swapped.
    a = rng.standard_normal(20).astype(">f8")
    with pytest.raises(TypeError, match="byte order.*newbyteorder"):
        gpuarray.to_gpu(a)
    g = gpuarray.to_gpu(a.astype(a.dtype.newbyteorder("=")))
    close((g * 2).get(), (a * 2).astype(np.float64))


def test_a_dtype_kernels_do_not_compute_with_raises_pycuda_s_valueerror_too(rng):
    # PyCUDA's dtype_to_ctype raises ValueError ("unable to map dtype 'float16'"), which
    # programs catch; NumPy's refusals are TypeErrors: lattice's is both.
    h = gpuarray.to_gpu(rng.standard_normal(10).astype(np.float16))
    for op in (lambda: h + 1, lambda: h.astype(np.float32), lambda: gpuarray.sum(h)):
        with pytest.raises(ValueError, match="float16"):
            op()
        with pytest.raises(TypeError, match="float16"):
            op()
    with pytest.raises(ValueError):
        gpuarray.to_gpu(np.zeros(3, np.longdouble))
