"""lattice.pycuda behaves as PyCUDA does (NumPy's semantics), and refuses what it cannot do
with a clear exception instead of a wrong result or a crash."""

import numpy as np
import pytest

import lattice.pycuda.autoinit  # noqa: F401
import lattice.pycuda.cumath as cumath
import lattice.pycuda.driver as drv
import lattice.pycuda.gpuarray as gpuarray
from lattice.pycuda.compiler import SourceModule
from lattice.pycuda.elementwise import ElementwiseKernel
from lattice.pycuda.scan import ExclusiveScanKernel, InclusiveScanKernel

COPY = """
__global__ void copy(float *out, const float *in) { out[threadIdx.x] = in[threadIdx.x]; }
"""


def test_host_arguments_that_would_corrupt_memory_are_refused(rng):
    f = SourceModule(COPY).get_function("copy")
    x = drv.to_device(rng.random(3).astype(np.float32))
    for wrap in (drv.In, drv.Out, drv.InOut):
        with pytest.raises(TypeError, match="Python objects"):
            wrap(np.array([object()] * 3))
    ro = np.zeros(3, np.float32)
    ro.flags.writeable = False
    for wrap in (drv.Out, drv.InOut):
        with pytest.raises(ValueError, match="read-only"):
            f(wrap(ro), x, block=(3, 1, 1))
    assert not ro.any()


def test_launch_sizes_are_never_truncated(rng):
    f = SourceModule(COPY).get_function("copy")
    x = drv.to_device(rng.random(3).astype(np.float32))
    y = drv.mem_alloc(12)
    for kw in ({"grid": (2**32 + 1, 1)}, {"block": (2**32 + 1, 1, 1)},
               {"shared": 2**32 + 1}, {"grid": (-1, 1)}):
        kw.setdefault("block", (1, 1, 1))
        with pytest.raises(OverflowError):
            f(y, x, **kw)


def test_numpy_semantics(rng):
    assert gpuarray.zeros(3).dtype == np.float64 and gpuarray.ones(3).dtype == np.float64
    a = rng.integers(-5, 5, 50).astype(np.int32)
    b = rng.random(50).astype(np.float32)
    r = gpuarray.to_gpu(a) + gpuarray.to_gpu(b)
    assert r.dtype == np.result_type(a, b)
    np.testing.assert_allclose(r.get(), a + b)
    g = gpuarray.to_gpu(b)
    assert (g > 0.5).any().get().dtype == np.bool_
    f = np.asfortranarray(rng.random((3, 4)))
    gf = gpuarray.to_gpu(f)
    assert gf.flags.f_contiguous and np.array_equal(gf.get(), f)
    with pytest.raises(ValueError):
        g.set(b.astype(np.float64))
    np.testing.assert_array_equal(g[::3].get(), b[::3])
    np.testing.assert_array_equal(gf.T.get(), f.T)


def test_elementwise_slice_writes_only_the_slice(rng):
    k = ElementwiseKernel("float *a", "a[i] = 7", "seven")
    y = gpuarray.to_gpu(rng.random(10).astype(np.float32))
    before = y.get()
    k(y, slice=slice(2, 5))
    expect = before.copy()
    expect[2:5] = 7
    np.testing.assert_array_equal(y.get(), expect)


def test_scans_without_neutral_over_negatives(rng):
    a = rng.integers(-1000, -1, 5000).astype(np.int32)
    g = gpuarray.to_gpu(a)
    InclusiveScanKernel(np.int32, "a > b ? a : b")(g)
    np.testing.assert_array_equal(g.get(), np.maximum.accumulate(a))
    g = gpuarray.to_gpu(a)
    out = gpuarray.empty_like(g)
    ExclusiveScanKernel(np.int32, "a+b", "0")(g, out)
    np.testing.assert_array_equal(out.get(), np.concatenate([[0], np.cumsum(a)[:-1]]))
    with pytest.raises(ValueError):
        ExclusiveScanKernel(np.int32, "a+b")


def test_complex_arrays_and_kernels(rng):
    for dt in (np.complex64, np.complex128):
        a = (rng.random(100) + 1j * rng.random(100)).astype(dt)
        b = (rng.random(100) + 1j * rng.random(100) + 0.5).astype(dt)
        ga, gb = gpuarray.to_gpu(a), gpuarray.to_gpu(b)
        tol = 1e-5 if dt == np.complex64 else 1e-12
        np.testing.assert_allclose((ga * gb / gb + ga).get(), a * b / b + a, rtol=tol)
        np.testing.assert_allclose(gpuarray.sum(ga).get(), a.sum(), rtol=tol)
        np.testing.assert_allclose(cumath.exp(ga).get(), np.exp(a), rtol=tol)
        np.testing.assert_allclose(ga.conj().get(), a.conj())
    m = SourceModule("""
    #include <pycuda-complex.hpp>
    typedef pycuda::complex<float> cf;
    __global__ void k(cf *z, const cf *x) {
        int i = threadIdx.x;
        z[i] = 2.0f * x[i] * x[i] + pycuda::sqrt(x[i]) - pycuda::conj(x[i]) / 3;
    }""")
    x = (rng.random(32) + 1j * rng.random(32)).astype(np.complex64)
    z = np.zeros_like(x)
    m.get_function("k")(drv.Out(z), drv.In(x), block=(32, 1, 1))
    np.testing.assert_allclose(z, 2 * x * x + np.sqrt(x) - x.conj() / 3, rtol=1e-5)


def test_cumath_checks_its_handles_and_types(rng):
    x = gpuarray.to_gpu(rng.random(20))
    with pytest.raises(TypeError):
        cumath.sin(x, 3)
    out = gpuarray.empty_like(x)
    assert cumath.sin(x, out) is out
    np.testing.assert_allclose(out.get(), np.sin(x.get()))
    np.testing.assert_allclose(cumath.sin(x, drv.Stream()).get(), np.sin(x.get()))
    frac, whole = cumath.modf(x * 10)
    ref_frac, ref_whole = np.modf(x.get() * 10)
    np.testing.assert_array_equal(frac.get(), ref_frac)
    np.testing.assert_array_equal(whole.get(), ref_whole)
    with pytest.raises(TypeError):
        cumath.modf(gpuarray.to_gpu(np.arange(3)))


def test_versions_and_bounded_device_memory():
    v = drv.get_driver_version()
    assert v >= 12000 and drv.get_version()[:2] == (v // 1000, v % 1000 // 10)
    free, total = drv.mem_get_info()
    assert total == drv.Context.get_device().total_memory() and 0 < free <= total
    if drv.Context.get_device().name() and lattice_backend() == "emu":
        with pytest.raises(drv.MemoryError):
            drv.mem_alloc(total + 1)


def lattice_backend():
    import lattice
    return lattice.current_context().backend


def test_take_and_multi_take_put_without_texture_references(rng):
    a = rng.random(1000)
    idx = rng.integers(0, 1000, 300).astype(np.int32)
    ga, gidx = gpuarray.to_gpu(a), gpuarray.to_gpu(idx)
    np.testing.assert_array_equal(gpuarray.take(ga, gidx).get(), a[idx])
    arrays = [gpuarray.to_gpu(rng.random(1000).astype(np.float32)) for _ in range(3)]
    for got, src in zip(gpuarray.multi_take(arrays, gidx), arrays):
        np.testing.assert_array_equal(got.get(), src.get()[idx])
    dest_idx = rng.permutation(300).astype(np.int32)
    outs = gpuarray.multi_take_put(arrays, gpuarray.to_gpu(dest_idx), gidx, dest_shape=(300,))
    for got, src in zip(outs, arrays):
        expect = np.empty(300, np.float32)
        expect[dest_idx] = src.get()[idx]
        np.testing.assert_array_equal(got.get(), expect)


def test_ctrl_c_during_a_failing_launch_is_a_keyboard_interrupt():
    import os
    import subprocess
    import sys
    import lattice
    if lattice.current_context().backend != "emu":
        pytest.skip("the emulator's launch deadline ends the spinning kernel")
    prog = r"""
import os, signal, threading
import numpy as np
import lattice.pycuda.autoinit
import lattice.pycuda.driver as drv
from lattice.pycuda.compiler import SourceModule
f = SourceModule("__global__ void spin(volatile int *f) { while (*f == 0) ; }").get_function("spin")
flag = drv.mem_alloc(4)
drv.memset_d32(flag, 0, 1)
threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
try:
    f(flag, block=(1, 1, 1))
except KeyboardInterrupt:
    print("KeyboardInterrupt")
except Exception as e:
    print(type(e).__name__)
"""
    env = dict(os.environ, LATTICE_EMU_TIMEOUT="1.5")
    r = subprocess.run([sys.executable, "-c", prog], env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.stdout.strip() == "KeyboardInterrupt", r.stdout + r.stderr


def test_kernels_may_use_the_host_headers_unsigned_types(rng):
    # nvcc (PyCUDA's compiler) sees glibc's uint/ushort/ulong; PyCUDA programs use them.
    m = SourceModule("""
    __global__ void k(float *a) {
        const uint i = threadIdx.x; ushort s = 2; ulong l = 3;
        a[i] = a[i] * s + l;
    }""")
    a = rng.random(16).astype(np.float32)
    b = a.copy()
    m.get_function("k")(drv.InOut(b), block=(16, 1, 1))
    np.testing.assert_allclose(b, a * 2 + 3, rtol=1e-6)
    # A source that defines them itself keeps its own.
    SourceModule("typedef unsigned int uint;\n__global__ void k(uint *a) { a[0] = 1; }")
    with pytest.raises(drv.CompileError, match=":2:"):
        SourceModule("__global__ void k(uint *a) {\n  a[0] = nope; }")


def test_elementwise_visits_every_index_once_whatever_the_loop(rng):
    n = 100003
    x = gpuarray.to_gpu(rng.random(n).astype(np.float32))
    z = gpuarray.zeros(n, np.float32)
    ElementwiseKernel("float *z, float *x", "z[i] = x[n - 1 - i] + z[i]", "rev")(z, x)
    np.testing.assert_array_equal(z.get(), x.get()[::-1])
    # An operation that steps i by total_threads itself (as PyCUDA's rand does).
    c = gpuarray.zeros(n, np.int32)
    ElementwiseKernel("int *c", "c[i] += 1; if ((i += total_threads) < n) c[i] += 1",
                      "two")(c)
    assert c.get().min() >= 1 and c.get().max() <= 2
    from lattice.pycuda.curandom import rand
    v = rand(n).get()
    assert v.min() >= 0 and v.max() < 1
