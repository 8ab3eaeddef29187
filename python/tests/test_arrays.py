"""gpuarray, elementwise, reduction, scan, cumath and random, against NumPy."""

import numpy as np
import pytest

import lattice
import lattice.pycuda.autoinit  # noqa: F401
import lattice.pycuda.cumath as cumath
import lattice.pycuda.gpuarray as gpuarray
from lattice.pycuda.curandom import rand
from lattice.pycuda.elementwise import ElementwiseKernel
from lattice.pycuda.reduction import ReductionKernel
from lattice.pycuda.scan import ExclusiveScanKernel, InclusiveScanKernel


def test_round_trip_and_numpy_protocol(rng):
    a = rng.standard_normal((3, 5, 7)).astype(np.float32)
    g = gpuarray.to_gpu(a)
    assert g.shape == a.shape and g.dtype == a.dtype and g.strides == a.strides
    assert np.array_equal(g.get(), a)
    assert np.array_equal(np.asarray(g), a)
    assert isinstance(g, gpuarray.GPUArray) and int(g.gpudata) == g.ptr


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.uint8])
def test_arithmetic_matches_numpy(dtype, rng):
    a = (rng.random(1000) * 100 + 1).astype(dtype)
    b = (rng.random(1000) * 100 + 1).astype(dtype)
    ga, gb = gpuarray.to_gpu(a), gpuarray.to_gpu(b)
    wide = a.astype(np.float64) if a.dtype.kind == "f" else a.astype(np.int64)
    for op in ("__add__", "__sub__", "__mul__"):
        r = getattr(ga, op)(gb)
        # C's conversions, not NumPy's: uint8 * uint8 is int32 (docs/python.md).
        expect = getattr(wide, op)(b).astype(r.dtype)
        np.testing.assert_allclose(r.get(), expect, rtol=1e-6, err_msg=op)
    if a.dtype.kind == "f":
        np.testing.assert_allclose((ga / gb).get(), a / b, rtol=1e-6)
        np.testing.assert_allclose((2 * ga).get(), 2 * a, rtol=1e-6)
        assert (2 * ga).dtype == a.dtype and (ga * 0.5).dtype == a.dtype
    assert np.array_equal((ga > gb).get().astype(bool), a > b)


def test_in_place_and_slices(rng):
    a = rng.standard_normal(100).astype(np.float32)
    g = gpuarray.to_gpu(a)
    g += 1
    g *= 2
    np.testing.assert_allclose(g.get(), (a + 1) * 2, rtol=1e-6)
    np.testing.assert_allclose(g[10:20].get(), ((a + 1) * 2)[10:20], rtol=1e-6)
    g2 = g.reshape(10, 10)
    np.testing.assert_allclose(g2[3].get(), ((a + 1) * 2).reshape(10, 10)[3], rtol=1e-6)
    g.fill(3)
    assert (g.get() == 3).all()


def test_reductions_match_numpy(rng):
    a = rng.standard_normal((64, 33)).astype(np.float64)
    g = gpuarray.to_gpu(a)
    np.testing.assert_allclose(gpuarray.sum(g).get(), a.sum(), rtol=1e-10)
    assert gpuarray.max(g).get() == a.max() and gpuarray.min(g).get() == a.min()
    b = rng.standard_normal((64, 33))
    np.testing.assert_allclose(gpuarray.dot(g, gpuarray.to_gpu(b)).get(), (a * b).sum(),
                               rtol=1e-10)
    i = np.arange(1, 1001, dtype=np.int32)
    assert gpuarray.sum(gpuarray.to_gpu(i)).get() == i.sum()


def test_constructors():
    assert (gpuarray.zeros((4, 4), np.float32).get() == 0).all()
    assert (gpuarray.ones(5, np.int32).get() == 1).all()
    np.testing.assert_array_equal(gpuarray.arange(0, 10, 2, dtype=np.int32).get(),
                                  np.arange(0, 10, 2, dtype=np.int32))
    z = gpuarray.zeros_like(gpuarray.empty((2, 3), np.float64))
    assert z.shape == (2, 3) and z.dtype == np.float64


def test_elementwise_kernel(rng):
    lin_comb = ElementwiseKernel("float a, float *x, float b, float *y, float *z",
                                 "z[i] = a*x[i] + b*y[i]", "linear_combination")
    x = rng.standard_normal(5000).astype(np.float32)
    y = rng.standard_normal(5000).astype(np.float32)
    gx, gy = gpuarray.to_gpu(x), gpuarray.to_gpu(y)
    gz = gpuarray.empty_like(gx)
    lin_comb(5, gx, 6, gy, gz)
    np.testing.assert_allclose(gz.get(), 5 * x + 6 * y, rtol=1e-5, atol=1e-5)


def test_reduction_kernel(rng):
    dot = ReductionKernel(np.float32, neutral="0", reduce_expr="a+b",
                          map_expr="x[i]*y[i]", arguments="float *x, float *y")
    x = rng.standard_normal(10000).astype(np.float32)
    y = rng.standard_normal(10000).astype(np.float32)
    r = dot(gpuarray.to_gpu(x), gpuarray.to_gpu(y)).get()
    np.testing.assert_allclose(r, np.dot(x.astype(np.float64), y), rtol=1e-3, atol=1e-3)
    mx = ReductionKernel(np.float32, neutral="-INFINITY", reduce_expr="fmaxf(a, b)")
    assert mx(gpuarray.to_gpu(x)).get() == x.max()


def test_scans(rng):
    a = rng.integers(0, 100, 3000).astype(np.int32)
    g = gpuarray.to_gpu(a)
    InclusiveScanKernel(np.int32, "a+b")(g)
    np.testing.assert_array_equal(g.get(), np.cumsum(a))
    g = gpuarray.to_gpu(a)
    out = gpuarray.empty_like(g)
    ExclusiveScanKernel(np.int32, "a+b", "0")(g, out)
    np.testing.assert_array_equal(out.get(), np.concatenate([[0], np.cumsum(a)[:-1]]))


def test_cumath(rng):
    a = (rng.random(1000) + 0.1).astype(np.float32)
    g = gpuarray.to_gpu(a)
    for name in ("sqrt", "exp", "log", "sin", "cos", "tanh", "fabs", "floor"):
        np.testing.assert_allclose(getattr(cumath, name)(g).get(), getattr(
            np, {"fabs": "abs"}.get(name, name))(a), rtol=2e-6, atol=1e-6, err_msg=name)


def test_random():
    u = rand((100, 100))
    v = u.get()
    assert u.dtype == np.float32 and v.min() >= 0 and v.max() < 1
    assert abs(v.mean() - 0.5) < 0.02
    n = lattice.Random(7).normal(100000, np.float64).get()
    assert abs(n.mean()) < 0.02 and abs(n.std() - 1) < 0.02


def test_arrays_as_kernel_arguments(rng):
    from lattice.pycuda.compiler import SourceModule
    m = SourceModule("__global__ void sq(float *a, int n)"
                     "{ int i = threadIdx.x + blockIdx.x * blockDim.x; if (i < n) a[i] *= a[i]; }")
    a = rng.standard_normal(300).astype(np.float32)
    g = gpuarray.to_gpu(a)
    m.get_function("sq")(g, np.int32(300), block=(128, 1, 1), grid=(3, 1))
    m.get_function("sq")(g.gpudata, np.int32(300), block=(128, 1, 1), grid=(3, 1))
    np.testing.assert_allclose(g.get(), a ** 4, rtol=1e-5)


def test_cuda_array_interface_only_on_cuda(backend):
    g = gpuarray.zeros(4, np.float32)
    if backend == "cuda":
        cai = g.__cuda_array_interface__
        assert cai["shape"] == (4,) and cai["typestr"] == "<f4" and cai["data"][0] == g.ptr
        assert cai["strides"] == (4,)  # as PyCUDA's, contiguous or not
        t = gpuarray.zeros((3, 5), np.float64).T
        assert t.__cuda_array_interface__["strides"] == (8, 40)
    else:
        assert not hasattr(g, "__cuda_array_interface__")
