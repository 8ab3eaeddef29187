"""The driver layer: contexts, memory, modules, kernel arguments, streams, events, errors."""

import threading

import numpy as np
import pytest

import lattice
import lattice.pycuda.autoinit  # noqa: F401
import lattice.pycuda.driver as drv
from lattice.pycuda.compiler import SourceModule

SAXPY = """
__global__ void saxpy(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
__device__ int counter;
__constant__ float coeffs[4];
__global__ void poly(float *out, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = coeffs[0] + x[i] * (coeffs[1] + x[i] * (coeffs[2] + x[i] * coeffs[3]));
        atomicAdd(&counter, 1);
    }
}
__global__ void types(double *d, long long *l, unsigned *u, double dv, long long lv, unsigned uv)
{ *d = dv; *l = lv; *u = uv; }
"""


@pytest.fixture(scope="module")
def mod():
    return SourceModule(SAXPY)


def test_in_out_inout_match_numpy(mod, rng):
    n = 1000
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    expect = np.float32(2.5) * x + y
    mod.get_function("saxpy")(drv.InOut(y), drv.In(x), np.float32(2.5), np.int32(n),
                              block=(128, 1, 1), grid=((n + 127) // 128, 1))
    np.testing.assert_allclose(y, expect, rtol=1e-5, atol=1e-6)  # a GPU may fuse a*x+y


def test_python_scalars_take_the_parameters_types(mod, rng):
    n = 300
    x = rng.standard_normal(n).astype(np.float32)
    y = np.zeros(n, np.float32)
    mod.get_function("saxpy")(drv.InOut(y), drv.In(x), 3, n, block=256, grid=2)
    np.testing.assert_allclose(y, 3 * x, rtol=1e-6)
    d, l, u = np.zeros(1), np.zeros(1, np.int64), np.zeros(1, np.uint32)
    mod.get_function("types")(drv.Out(d), drv.Out(l), drv.Out(u), 0.1, -2**40, 2**32 - 1,
                              block=(1, 1, 1))
    assert d[0] == 0.1 and l[0] == -2**40 and u[0] == 2**32 - 1


def test_mem_alloc_and_copies(mod, rng):
    n = 257
    x = rng.standard_normal(n).astype(np.float32)
    x_gpu, y_gpu = drv.mem_alloc(x.nbytes), drv.mem_alloc(x.nbytes)
    drv.memcpy_htod(x_gpu, x)
    drv.memcpy_dtod(y_gpu, x_gpu, x.nbytes)
    mod.get_function("saxpy")(y_gpu, x_gpu, np.float32(-1), np.int32(n), block=(64, 1, 1),
                              grid=(5, 1))
    out = np.empty_like(x)
    drv.memcpy_dtoh(out, y_gpu)
    assert not out.any()
    x_gpu.free()
    x_gpu.free()  # idempotent


def test_get_global_and_constant_memory(mod, rng):
    coeffs, size = mod.get_global("coeffs")
    assert size == 16
    c = np.array([1, 2, 3, 4], np.float32)
    drv.memcpy_htod(coeffs, c)
    counter, _ = mod.get_global("counter")
    drv.memcpy_htod(counter, np.zeros(1, np.int32))
    x = rng.standard_normal(100).astype(np.float32)
    out = np.empty_like(x)
    mod.get_function("poly")(drv.Out(out), drv.In(x), np.int32(100), block=(128, 1, 1))
    np.testing.assert_allclose(out, np.polyval(c[::-1], x), rtol=1e-5, atol=1e-5)
    got = np.empty(1, np.int32)
    drv.memcpy_dtoh(got, counter)
    assert got[0] == 100


def test_streams_and_events(mod, rng):
    n = 4096
    x = rng.standard_normal(n).astype(np.float32)
    x_gpu, y_gpu = drv.mem_alloc(x.nbytes), drv.mem_alloc(x.nbytes)
    s = drv.Stream()
    start, end = drv.Event(), drv.Event()
    start.record(s)
    drv.memcpy_htod_async(x_gpu, x, s)
    drv.memcpy_htod_async(y_gpu, x, s)
    mod.get_function("saxpy")(y_gpu, x_gpu, np.float32(1), np.int32(n), block=(256, 1, 1),
                              grid=(16, 1), stream=s)
    out = np.empty_like(x)
    drv.memcpy_dtoh_async(out, y_gpu, s)
    end.record(s)
    end.synchronize()
    assert s.is_done() and end.query()
    assert end.time_since(start) >= 0
    np.testing.assert_allclose(out, 2 * x, rtol=1e-6)
    secs = mod.get_function("saxpy")(y_gpu, x_gpu, np.float32(1), np.int32(n),
                                     block=(256, 1, 1), grid=(16, 1), time_kernel=True)
    assert secs >= 0


def test_compile_error_carries_status_and_log():
    with pytest.raises(drv.CompileError) as e:
        SourceModule("__global__ void broken(float *a) { a[0] = undefined_thing; }")
    assert e.value.status == "LAT_ERROR_COMPILE"
    assert "undefined_thing" in e.value.message
    assert isinstance(e.value, lattice.LatticeError) and isinstance(e.value, drv.Error)


def test_argument_errors(mod):
    f = mod.get_function("saxpy")
    with pytest.raises(lattice.ArgCountError) as e:
        f(np.int32(1), block=(1, 1, 1))
    assert e.value.status == "LAT_ERROR_ARG_COUNT"
    with pytest.raises(TypeError):
        f(np.zeros(4, np.float32), np.zeros(4, np.float32), 1.0, 4, block=(1, 1, 1))
    with pytest.raises(lattice.KernelNotFoundError):
        mod.get_function("nope")
    with pytest.raises(lattice.InvalidDimensionsError):
        f(drv.InOut(np.zeros(4, np.float32)), drv.In(np.zeros(4, np.float32)), 1.0, 4,
          block=(2048, 1, 1))


def test_no_extern_c_and_options():
    m = SourceModule("""
    template <typename T> __device__ T twice(T v) { return v + v; }
    extern "C" __global__ void k(float *a) { a[threadIdx.x] = twice(a[threadIdx.x]); }
    """, no_extern_c=True, options=["-DUNUSED=1", "--ptxas-options=-v"])
    a = np.arange(8, dtype=np.float32)
    m.get_function("k")(drv.InOut(a), block=(8, 1, 1))
    assert list(a) == [2 * i for i in range(8)]


def test_device_debug_option_computes_what_the_ordinary_build_does(rng):
    """-G: on the emulator the module is built for gdb by the system's C compiler
    (docs/debugging.md), its kernels run one block at a time; the results are the same."""
    with pytest.warns(UserWarning):  # nvcc's host -g is dropped, said as PyCUDA says it
        m = SourceModule(SAXPY, options=["-g", "-G"])
    assert m.dropped_options == ["-g"]
    n = 700
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    expect = np.float32(-1.5) * x + y
    m.get_function("saxpy")(drv.InOut(y), drv.In(x), np.float32(-1.5), np.int32(n),
                            block=(128, 1, 1), grid=((n + 127) // 128, 1))
    np.testing.assert_allclose(y, expect, rtol=1e-5, atol=1e-6)


def test_device_and_context_api():
    assert drv.Device.count() >= 1
    dev = drv.Context.get_device()
    assert dev.name() and dev.compute_capability()[0] >= 1
    free, total = drv.mem_get_info()
    assert 0 < free <= total
    drv.Context.synchronize()


def test_context_is_shared_across_threads(mod):
    """PyCUDA's per-thread context stack is a known pitfall: lattice's current context is
    the same in every thread."""
    out = np.zeros(4, np.float32)
    err = []

    def work():
        try:
            mod.get_function("saxpy")(drv.InOut(out), drv.In(np.ones(4, np.float32)),
                                      np.float32(2), np.int32(4), block=(4, 1, 1))
        except Exception as e:  # pragma: no cover
            err.append(e)
    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert not err and list(out) == [2, 2, 2, 2]


def test_context_manager_frees_everything():
    with lattice.Context() as ctx:
        assert lattice.current_context() is ctx
        a = lattice.mem_alloc(1024)
        m = lattice.Module("__global__ void k(int *p) { *p = 7; }")
        v = np.zeros(1, np.int32)
        m.get_kernel("k")(lattice.Out(v))
        assert v[0] == 7
    assert not ctx.alive
    a.free()  # after its context: a no-op, not a crash
    with pytest.raises(lattice.LatticeError):
        m.get_kernel("k")


HALF_AXPY = """
#include <cuda_fp16.h>
__global__ void haxpy(__half *y, const __half *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __float2half(a) * x[i] + y[i];
}
"""


def test_float16_arrays_are_cuda_fp16_halves(rng):
    mod = SourceModule(HALF_AXPY)
    n = 1000
    x = rng.standard_normal(n).astype(np.float16)
    y = rng.standard_normal(n).astype(np.float16)
    out = y.copy()
    mod.get_function("haxpy")(drv.InOut(out), drv.In(x), np.float32(2.5), np.int32(n), block=(128, 1, 1), grid=(8, 1))
    # the product and the sum fused into one fma, rounded once (exact in float64 first)
    want = (np.float64(np.float16(2.5)) * x.astype(np.float64) + y.astype(np.float64)).astype(np.float16)
    np.testing.assert_array_equal(out, want)


def _philox_words(seed, sequence, block):
    """Philox4x32-10's four words for counter (block, sequence) under seed, as numpy uint32s
    (sequence and block are arrays of uint64)."""
    m = np.uint64(0xFFFFFFFF)
    c = [block & m, block >> np.uint64(32), sequence & m, sequence >> np.uint64(32)]
    k0, k1 = np.uint64(seed & 0xFFFFFFFF), np.uint64(seed >> 32)
    for _ in range(10):
        p0 = np.uint64(0xD2511F53) * c[0]
        p1 = np.uint64(0xCD9E8D57) * c[2]
        c = [(p1 >> np.uint64(32)) ^ c[1] ^ k0, p1 & m, (p0 >> np.uint64(32)) ^ c[3] ^ k1, p0 & m]
        k0, k1 = (k0 + np.uint64(0x9E3779B9)) & m, (k1 + np.uint64(0xBB67AE85)) & m
    return [w.astype(np.uint32) for w in c]


def test_curand_kernel_h_draws_are_philoxs_words():
    """A kernel including curand_kernel.h (compiled as written, as PyCUDA programs do with
    no_extern_c=True): each thread's uniform draws against Philox computed here."""
    mod = SourceModule("""
#include <curand_kernel.h>
extern "C" __global__ void draws(float *u, unsigned long long seed)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandStatePhilox4_32_10_t s;
    curand_init(seed, id, 0, &s);
    for (int k = 0; k < 4; k++)
        u[4 * id + k] = curand_uniform(&s);
}
""", no_extern_c=True)
    n, seed = 2048, 0x1234_5678_9ABC_DEF0
    u = np.zeros(4 * n, np.float32)
    mod.get_function("draws")(drv.Out(u), np.uint64(seed), block=(256, 1, 1), grid=(n // 256, 1))
    words = _philox_words(seed, np.arange(n, dtype=np.uint64), np.zeros(n, np.uint64))
    # x 2^-32 + 2^-33: the product of a float and a power of two is exact, so one rounding
    expect = np.stack([w.astype(np.float32) * np.float32(2.0 ** -32) + np.float32(2.0 ** -33)
                       for w in words], axis=1).reshape(-1)
    np.testing.assert_array_equal(u, expect)


def test_a_kernel_says_how_its_threads_run():
    """Why a kernel is slow, without reading lattice: region loops or fibers, and the tier."""
    m = SourceModule("""
    __device__ float warpSum(float v)
    {
        for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
        return v;
    }
    __global__ void k(float *a) { a[threadIdx.x] = warpSum(a[threadIdx.x]); }
    """)
    f = m.get_function("k")
    a = np.arange(32, dtype=np.float32)
    f(drv.InOut(a), block=(32, 1, 1))
    assert list(a) == [float(sum(range(32)))] * 32
    if lattice.backend_of() == "emu":
        assert f.execution_path.startswith("region loops, helpers with collectives inlined, ")
