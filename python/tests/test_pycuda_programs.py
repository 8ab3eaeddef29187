"""PyCUDA programs as people write them (the PyCUDA docs, its wiki examples, user code), on
lattice.pycuda: the parts of PyCUDA's API that such programs reach beyond its own test
suite, each checked against NumPy with random inputs."""

import io
import subprocess
import sys
import warnings

import numpy as np
import pytest

import lattice.pycuda.autoinit  # noqa: F401
import lattice.pycuda.driver as drv
from lattice.pycuda import elementwise as elw
from lattice.pycuda import gpuarray, tools
from lattice.pycuda.compiler import SourceModule


# ---- pycuda.elementwise's kernel builders (get_elwise_kernel and the get_*_kernel family) --

def test_get_elwise_kernel_is_prepared_with_n_last(rng):
    x = rng.standard_normal(1000).astype(np.float32)
    y = rng.standard_normal(1000).astype(np.float32)
    xg, yg = gpuarray.to_gpu(x), gpuarray.to_gpu(y)
    z = gpuarray.empty_like(xg)
    f = elw.get_elwise_kernel("float a, float *x, float *y, float *z", "z[i] = a*x[i] + y[i]",
                              "saxpy")
    f.prepared_call(xg._grid, xg._block, np.float32(2), xg.gpudata, yg.gpudata, z.gpudata,
                    xg.size)
    np.testing.assert_allclose(z.get(), 2 * x + y, rtol=1e-5, atol=1e-6)
    f.prepared_async_call(xg._grid, xg._block, None, 3.0, xg.gpudata, yg.gpudata, z.gpudata,
                          xg.size)
    np.testing.assert_allclose(z.get(), 3 * x + y, rtol=1e-5, atol=1e-6)


def test_get_elwise_kernel_with_range_runs_start_stop_step(rng):
    z = gpuarray.zeros(500, np.float32)
    _, fn, args = elw.get_elwise_kernel_and_types("float *z", "z[i] = i", "iota",
                                                  use_range=True)
    assert [a.name for a in args] == ["z", "start", "stop", "step"]
    start, stop, step = int(rng.integers(0, 50)), int(rng.integers(200, 500)), 3
    fn.prepared_call((2, 1), (128, 1, 1), z.gpudata, start, stop, step)
    ref = np.zeros(500, np.float32)
    ref[start:stop:step] = np.arange(start, stop, step)
    assert np.array_equal(z.get(), ref)
    z.fill(0)
    fn.prepared_call((2, 1), (128, 1, 1), z.gpudata, stop, start, -step)
    ref[:] = 0
    ref[stop:start:-step] = np.arange(stop, start, -step)
    assert np.array_equal(z.get(), ref)


def test_linear_combination_kernel_as_the_wiki_calls_it(rng):
    n = 3000
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    xg, yg = gpuarray.to_gpu(x), gpuarray.to_gpu(y)
    z = gpuarray.empty_like(xg)
    lc, texrefs = elw.get_linear_combination_kernel(
        ((False, np.float32, np.float32), (False, np.float32, np.float32)), np.float32)
    assert texrefs == []
    lc.prepared_call(xg._grid, xg._block, 5, xg.gpudata, 7, yg.gpudata, z.gpudata,
                     xg.mem_size)
    np.testing.assert_allclose(z.get(), 5 * x + 7 * y, rtol=1e-5, atol=1e-6)
    # A GPU scalar is read through a texture reference: refused, naming it.
    with pytest.raises(NotImplementedError, match="texture reference"):
        elw.get_linear_combination_kernel(((True, np.float32, np.float32),), np.float32)


def test_get_kernel_family_against_numpy(rng):
    n = 777
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    xg, yg = gpuarray.to_gpu(x), gpuarray.to_gpu(y)
    z = gpuarray.empty_like(xg)
    g, b = xg._grid, xg._block
    elw.get_axpbyz_kernel(np.float32, np.float32, np.float32).prepared_call(
        g, b, 2, xg.gpudata, -1, yg.gpudata, z.gpudata, n)
    np.testing.assert_allclose(z.get(), 2 * x - y, rtol=1e-5, atol=1e-6)
    elw.get_axpbz_kernel(np.float32, np.float32).prepared_call(
        g, b, 3, xg.gpudata, 1, z.gpudata, n)
    np.testing.assert_allclose(z.get(), 3 * x + 1, rtol=1e-5, atol=1e-6)
    elw.get_binary_op_kernel(np.float32, np.float32, np.float32, "*").prepared_call(
        g, b, xg.gpudata, yg.gpudata, z.gpudata, n)
    assert np.array_equal(z.get(), x * y)
    elw.get_fill_kernel(np.float32).prepared_call(g, b, 4.5, z.gpudata, n)
    assert (z.get() == 4.5).all()
    elw.get_reverse_kernel(np.float32).prepared_call(g, b, xg.gpudata, z.gpudata, n)
    assert np.array_equal(z.get(), x[::-1])
    zd = gpuarray.empty(n, np.float64)
    elw.get_copy_kernel(np.float64, np.float32).prepared_call(g, b, zd.gpudata, xg.gpudata, n)
    assert np.array_equal(zd.get(), x.astype(np.float64))
    elw.get_unary_func_kernel("fabsf", np.float32).prepared_call(g, b, xg.gpudata,
                                                                 z.gpudata, n)
    assert np.array_equal(z.get(), np.abs(x))
    elw.get_arange_kernel(np.float32).prepared_call(g, b, z.gpudata, 1.0, 0.5, n)
    np.testing.assert_allclose(z.get(), 1 + 0.5 * np.arange(n, dtype=np.float32))
    idx = rng.permutation(n).astype(np.int32)
    elw.get_put_kernel(np.float32, np.int32).prepared_call(
        g, b, gpuarray.to_gpu(idx).gpudata, z.gpudata, xg.gpudata, n)
    ref = np.empty(n, np.float32)
    ref[idx] = x
    assert np.array_equal(z.get(), ref)
    c = (x + 1j * y).astype(np.complex64)
    cg, cz = gpuarray.to_gpu(c), gpuarray.empty(n, np.complex64)
    elw.get_real_kernel(np.complex64, np.float32).prepared_call(g, b, cg.gpudata, z.gpudata, n)
    assert np.array_equal(z.get(), c.real)
    elw.get_imag_kernel(np.complex64, np.float32).prepared_call(g, b, cg.gpudata, z.gpudata, n)
    assert np.array_equal(z.get(), c.imag)
    elw.get_conj_kernel(np.complex64, np.complex64).prepared_call(g, b, cg.gpudata,
                                                                  cz.gpudata, n)
    assert np.array_equal(cz.get(), c.conj())
    elw.get_scalar_op_kernel(np.float32, np.float32, np.float32, "+").prepared_call(
        g, b, xg.gpudata, 2, z.gpudata, n)
    assert np.array_equal(z.get(), x + np.float32(2))
    crit = gpuarray.to_gpu(x)
    elw.get_if_positive_kernel(np.float32, np.float32).prepared_call(
        g, b, crit.gpudata, xg.gpudata, yg.gpudata, z.gpudata, n)
    assert np.array_equal(z.get(), np.where(x > 0, x, y))
    with pytest.raises(NotImplementedError, match="texture"):
        elw.get_take_put_kernel(np.float32, np.int32, False)


# ---- tools, driver and compiler names programs reach --------------------------------------

def test_get_default_device_warns_as_pycuda_and_reads_cuda_device(monkeypatch):
    monkeypatch.setenv("CUDA_DEVICE", "0")
    with pytest.warns(DeprecationWarning):
        dev = tools.get_default_device()
    assert dev.name() == drv.Context.get_device().name()
    monkeypatch.setenv("CUDA_DEVICE", "zero")
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError):
        tools.get_default_device()


def test_debug_memory_pool_reports_each_allocation(rng):
    log = io.StringIO()
    pool = tools.DebugMemoryPool(interactive=False, logfile=log)
    x = rng.standard_normal(10).astype(np.float32)
    a = gpuarray.to_gpu(x, allocator=pool.allocate)
    assert "Allocation of size 40" in log.getvalue()
    assert np.array_equal(a.get(), x)


def test_set_debugging_builds_modules_for_debuggers():
    try:
        drv.set_debugging()
        mod = SourceModule("__global__ void k(int *a) { a[threadIdx.x] = threadIdx.x; }")
        a = np.zeros(8, np.int32)
        mod.get_function("k")(drv.Out(a), block=(8, 1, 1))
        assert np.array_equal(a, np.arange(8))
    finally:
        drv.set_debugging(False)
    assert drv.CUDA_DEBUGGING is False


def test_shared_size_bytes_counts_static_shared_memory():
    mod = SourceModule("""
    __global__ void rev(float *a)
    {
        __shared__ float s[64];
        __shared__ double t[3];
        s[threadIdx.x] = a[threadIdx.x];
        if (threadIdx.x < 3) t[threadIdx.x] = 1.0;
        __syncthreads();
        a[threadIdx.x] = s[63 - threadIdx.x] + (float)t[0];
    }""")
    f = mod.get_function("rev")
    assert f.shared_size_bytes >= 64 * 4 + 3 * 8
    assert f.max_threads_per_block > 0


def test_pycuda_debug_runs_a_script_with_debugging_on(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text(
        "import sys\n"
        "import lattice.pycuda.driver as drv\n"
        "assert drv.CUDA_DEBUGGING\n"
        "print('args', sys.argv[1:])\n")
    import os
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(__file__))), env.get("PYTHONPATH", "")])
    r = subprocess.run([sys.executable, "-m", "lattice.pycuda.debug", str(script), "x", "y"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "args ['x', 'y']" in r.stdout


def test_kernels_name_pycuda_complex_without_including_it(rng):
    # PyCUDA's generated modules include <pycuda-complex.hpp> themselves.
    from lattice.pycuda.elementwise import ElementwiseKernel
    from lattice.pycuda.reduction import ReductionKernel
    c = (rng.standard_normal(1000) + 1j * rng.standard_normal(1000)).astype(np.complex64)
    cg = gpuarray.to_gpu(c)
    out = gpuarray.empty_like(cg)
    k = ElementwiseKernel("pycuda::complex<float> *a, pycuda::complex<float> *b, float s",
                          "b[i] = s * a[i] * pycuda::conj(a[i]) + pycuda::exp(a[i])", "cplx")
    k(cg, out, np.float32(0.5))
    np.testing.assert_allclose(out.get(), 0.5 * c * c.conj() + np.exp(c), rtol=1e-4, atol=1e-4)
    r = ReductionKernel(np.complex64, neutral="pycuda::complex<float>(0, 0)",
                        reduce_expr="a+b", map_expr="x[i]*x[i]",
                        arguments="pycuda::complex<float> *x")
    np.testing.assert_allclose(r(cg).get(), (c.astype(np.complex128) ** 2).sum(), rtol=1e-3)


def test_no_extern_c_kernels_by_nvcc_mangled_names(rng):
    mod = SourceModule("""
    __global__ void scale(float *a, int n) { if (threadIdx.x < n) a[threadIdx.x] *= 3; }
    namespace ns { __global__ void fill(double *a) { a[threadIdx.x] = 2.5; } }
    template <typename T, int N> __global__ void add(T *a) { a[threadIdx.x] += N; }
    template __global__ void add<float, 3>(float *);
    template <unsigned N> __global__ void put(int *a) { a[threadIdx.x] = N; }
    template __global__ void put<4>(int *);
    """, no_extern_c=True)
    x = rng.standard_normal(32).astype(np.float32)
    y = x.copy()
    mod.get_function("_Z5scalePfi")(drv.InOut(y), np.int32(32), block=(32, 1, 1))
    assert np.array_equal(y, x * 3)
    d = np.zeros(8)
    mod.get_function("_ZN2ns4fillEPd")(drv.Out(d), block=(8, 1, 1))
    assert (d == 2.5).all()
    y = x.copy()
    mod.get_function("_Z3addIfLi3EEvPT_")(drv.InOut(y), block=(32, 1, 1))
    assert np.array_equal(y, x + np.float32(3))
    o = np.zeros(4, np.int32)
    mod.get_function("_Z3putILj4EEvPi")(drv.Out(o), block=(4, 1, 1))
    assert (o == 4).all()
    # A mangled name of no kernel in the module is not found, as PyCUDA's.
    with pytest.raises(drv.LogicError):
        mod.get_function("_Z5otherPfi")


def test_logic_error_catches_what_pycuda_reports_as_logic_errors():
    mod = SourceModule("__global__ void k(int *a) { a[threadIdx.x] = 1; }")
    with pytest.raises(drv.LogicError):
        mod.get_function("missing")
    a = gpuarray.zeros(4, np.int32)
    with pytest.raises(drv.LogicError):
        mod.get_function("k")(a, block=(4096, 1, 1))
    with pytest.raises(drv.Error):
        mod.get_function("k")(a, block=(4096, 1, 1))


def test_compile_error_carries_the_compiler_output_as_pycuda_s():
    with pytest.raises(drv.CompileError) as e:
        SourceModule("__global__ void bad(int *a) { a[0] = undeclared_name; }")
    assert "undeclared_name" in e.value.stderr
    assert e.value.msg and isinstance(e.value.command_line, str)


def test_what_the_compiler_refuses_is_a_compile_error_as_a_failed_nvcc_run(backend):
    """PyCUDA reports every failed nvcc run as drv.CompileError, which programs catch to
    print the compiler's output or to fall back: a header not found, or a construct lattice
    does not have (texture references, removed in CUDA 12, where nvcc fails too)."""
    import lattice.errors as lerr
    with pytest.raises(drv.CompileError) as e:
        SourceModule("#include <no_such_header.h>\n__global__ void k(float *x) {}")
    assert "no_such_header.h" in e.value.stderr
    if backend == "emu":  # NVRTC's is a compilation error like any other (H100, NVRTC 13.0)
        assert isinstance(e.value, lerr.FileError) and e.value.status == "LAT_ERROR_FILE"
    with pytest.raises(drv.CompileError) as e:
        SourceModule("texture<float, 1> tex;\n"
                     "__global__ void k(float *x) { x[0] = tex1Dfetch(tex, 0); }")
    assert "texture" in e.value.stderr
    if backend == "emu":
        assert isinstance(e.value, NotImplementedError) and isinstance(e.value, drv.Error)
        assert e.value.status == "LAT_ERROR_UNSUPPORTED"


def test_get_into_an_array_checks_as_pycuda_does(rng):
    x = rng.standard_normal((3, 4)).astype(np.float32)
    g = gpuarray.to_gpu(x)
    with pytest.raises(TypeError):
        g.get(ary=np.empty((3, 4), np.float64))
    with pytest.raises(ValueError):
        g.get(ary=np.empty(5, np.float32))
    flat = np.empty(12, np.float32)
    with pytest.warns(DeprecationWarning):
        got = g.get(ary=flat)
    assert got.shape == (3, 4) and np.array_equal(got, x) and np.array_equal(flat, x.ravel())


def test_get_pagelocked_gives_page_locked_memory(rng):
    # PyCUDA's get(pagelocked=True) copies into drv.pagelocked_empty's memory, which
    # programs then hand to memcpy_*_async.
    x = rng.standard_normal((30, 40))
    g = gpuarray.to_gpu(x)
    h = g.get(pagelocked=True)
    assert isinstance(h.base, drv.PagelockedHostAllocation)
    assert np.array_equal(h, x)
    f = gpuarray.to_gpu(np.asfortranarray(x)).get(pagelocked=True)
    assert isinstance(f.base, drv.PagelockedHostAllocation) and np.array_equal(f, x)
    s = drv.Stream()
    g2 = gpuarray.empty_like(g)
    g2.set_async(h, stream=s)
    s.synchronize()
    assert np.array_equal(g2.get(), x)


def test_arange_without_stop_raises_as_pycuda():
    with pytest.raises(ValueError):
        gpuarray.arange()
    assert np.array_equal(gpuarray.arange(stop=5).get(), np.arange(5))


def test_float_grid_or_block_extents_raise_instead_of_truncating():
    # grid=(n / 256, 1) in Python 3 is a float: PyCUDA refuses it; truncating would launch
    # fewer blocks than meant.
    k = SourceModule("__global__ void k(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] "
                     "+= 1; }").get_function("k")
    a = gpuarray.zeros(640, np.float32)
    with pytest.raises(TypeError, match="integer"):
        k(a, block=(256, 1, 1), grid=(640 / 256, 1))
    with pytest.raises(TypeError, match="integer"):
        k(a, block=(64.0, 1, 1), grid=(10, 1))
    k(a, block=(np.int32(64), 1, 1), grid=(np.int64(10), 1))
    assert (a.get() == 1).all()


def test_sizes_must_be_integers_and_memset_values_must_fit(rng):
    # NumPy and PyCUDA refuse a float size or shape; int() would truncate it silently, and
    # ctypes would wrap a memset value that does not fit.
    with pytest.raises(TypeError):
        gpuarray.empty((2, 3.0), np.float32)
    with pytest.raises(TypeError):
        gpuarray.zeros(4, np.float32).reshape(2.0, 2)
    with pytest.raises(TypeError):
        drv.mem_alloc(16.0)
    with pytest.raises(TypeError):
        drv.pagelocked_empty(4.0, np.float32)
    k = SourceModule("__global__ void k(float *a) { extern __shared__ float s[]; "
                     "s[threadIdx.x] = 1; a[threadIdx.x] = s[threadIdx.x]; }").get_function("k")
    a = gpuarray.zeros(64, np.float32)
    with pytest.raises(TypeError):
        k(a, block=(64, 1, 1), shared=256.0)
    k(a, block=(64, 1, 1), shared=256)
    assert (a.get() == 1).all()
    b = gpuarray.zeros(16, np.uint8)
    with pytest.raises(OverflowError):
        drv.memset_d8(b.gpudata, 256, 16)
    with pytest.raises(OverflowError):
        drv.memset_d32(b.gpudata, 2**32 + 1, 4)
    v = int(rng.integers(0, 256))
    drv.memset_d8(b.gpudata, v, 16)
    assert (b.get() == v).all()


def test_enums_print_as_their_names_as_pycuda_s():
    # PyCUDA's dump_properties.py prints str(att) of get_attributes()'s keys.
    attrs = drv.Context.get_device().get_attributes()
    names = {str(k) for k in attrs}
    assert "WARP_SIZE" in names and "MAX_THREADS_PER_BLOCK" in names
    a = drv.device_attribute.WARP_SIZE
    assert f"{a}" == "%s" % a == "WARP_SIZE"
    assert "%d" % a == f"{a:d}" == "10" and a == 10
    assert str(drv.func_cache.PREFER_L1) == "PREFER_L1"


def test_results_take_their_operand_s_allocator(rng):
    # PyCUDA's results come from their operand's allocator: a DeviceMemoryPool serves a
    # whole computation.
    pool = tools.DeviceMemoryPool()
    x = rng.standard_normal(100).astype(np.float32)
    a = gpuarray.to_gpu(x, allocator=pool.allocate)
    idx = gpuarray.to_gpu(np.arange(5, dtype=np.int32))
    results = {"a*2+1": (a * 2 + 1, x * 2 + 1), "a>0": (a > 0, x > 0),
               "a**2": (a ** 2, x ** 2), "sum": (gpuarray.sum(a), x.sum()),
               "dot": (gpuarray.dot(a, a), np.dot(x, x)), "max": (a.max(), x.max()),
               "take": (gpuarray.take(a, idx), x[:5]),
               "where": (gpuarray.where(a > 0, a, -a), np.abs(x))}
    for name, (g, ref) in results.items():
        assert g.allocator == pool.allocate, name
        np.testing.assert_allclose(g.get(), ref, rtol=1e-5, err_msg=name)
    assert pool.active_blocks >= len(results) + 1


def test_elementwise_loop_prep_without_a_semicolon(rng):
    # PyCUDA's template writes "%(loop_prep)s;", so programs leave the ';' out.
    from lattice.pycuda.elementwise import ElementwiseKernel
    x = rng.standard_normal(300).astype(np.float32)
    xg = gpuarray.to_gpu(x)
    z = gpuarray.empty_like(xg)
    k = ElementwiseKernel("float *x, float *z", "z[i] = x[i] * s", "prep",
                          loop_prep="const float s = 2.5f")
    k(xg, z)
    assert np.array_equal(z.get(), x * np.float32(2.5))


def test_float16_arrays_are_held_copied_and_passed_to_kernels(rng):
    # PyCUDA's GPUArray holds float16 (to_gpu, get, slices, copies) for kernels that read
    # __half; lattice.pycuda computes nothing with it (TypeError), rather than guess.
    x = rng.standard_normal((6, 8)).astype(np.float16)
    g = gpuarray.to_gpu(x)
    assert g.dtype == np.float16 and np.array_equal(g.get(), x)
    assert np.array_equal(g[::2, 1::3].get(), x[::2, 1::3])
    assert np.array_equal(g.T.copy().get(), x.T)
    assert np.array_equal(gpuarray.zeros(5, np.float16).get(), np.zeros(5, np.float16))
    g2 = g.copy()
    g2[1:3] = 1.5
    g2[:, 0] = g[:, 1]
    x2 = x.copy()
    x2[1:3] = 1.5
    x2[:, 0] = x[:, 1]
    assert np.array_equal(g2.get(), x2)
    assert np.array_equal(gpuarray.concatenate((g, g)).get(), np.concatenate((x, x)))
    assert np.array_equal(g.view(np.uint16).get(), x.view(np.uint16))
    mod = SourceModule("#include <cuda_fp16.h>\n"
                       "__global__ void k(const __half *a, float *o) { int i = threadIdx.x; "
                       "o[i] = __half2float(a[i]) * 2.0f; }")
    o = gpuarray.empty(48, np.float32)
    mod.get_function("k")(g, o, block=(48, 1, 1))
    assert np.array_equal(o.get(), x.ravel().astype(np.float32) * 2)
    for op in (lambda: g + g, lambda: g * 2, lambda: gpuarray.sum(g), lambda: g.max(),
               lambda: g.astype(np.float32), lambda: g > 0, lambda: -g):
        with pytest.raises(TypeError, match="float16"):
            op()


def test_wiki_mandelbrot_kernel_calls_complex_functions_unqualified(rng):
    # PyCUDA's wiki mandelbrot.py: abs(z[i]) of a pycuda::complex, found by
    # argument-dependent lookup.
    from lattice.pycuda.elementwise import ElementwiseKernel
    k = ElementwiseKernel(
        "pycuda::complex<float> *z, pycuda::complex<float> *q, int *iteration, int maxiter",
        "for (int n=0; n < maxiter; n++) {z[i] = (z[i]*z[i])+q[i]; if (abs(z[i]) > 2.0f) "
        "{iteration[i]=n; z[i] = pycuda::complex<float>(); q[i] = pycuda::complex<float>();};}",
        "complex5", preamble="#include <pycuda-complex.hpp>")
    q = (rng.uniform(-2.1, 0.8, 500) + 1j * rng.uniform(-1.3, 1.3, 500)).astype(np.complex64)
    it = gpuarray.zeros(500, np.int32)
    k(gpuarray.zeros(500, np.complex64), gpuarray.to_gpu(q), it, np.int32(30))
    zz, qq, ref = np.zeros_like(q), q.copy(), np.zeros(500, np.int32)
    for n in range(30):
        zz = zz * zz + qq
        m = np.abs(zz) > 2
        ref[m], zz[m], qq[m] = n, 0, 0
    # Float rounding may move a point on the set's edge by an iteration.
    assert (it.get() != ref).mean() < 0.02


@pytest.mark.parametrize("opts", [["-Xptxas", "-v"], ["-Xcompiler", "-Wall"],
                                  ["--compiler-options", "-fPIC"], ["--maxrregcount", "32"],
                                  ["--expt-relaxed-constexpr"], ["--extended-lambda"],
                                  ["--ptxas-options", "-v"]])
def test_nvcc_options_in_their_two_word_and_relaxation_forms(opts, rng, backend):
    src = ("__host__ __device__ constexpr float twice(float v) { return 2 * v; }\n"
           "__global__ void k(float *a) { a[threadIdx.x] = twice(a[threadIdx.x]); }")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mod = SourceModule(src, options=opts)
    x = rng.standard_normal(16).astype(np.float32)
    y = x.copy()
    mod.get_function("k")(drv.InOut(y), block=(16, 1, 1))
    assert np.array_equal(y, 2 * x)
    if backend == "emu" or opts[0] not in ("--expt-relaxed-constexpr", "--extended-lambda",
                                           "--maxrregcount"):
        assert all(f"option {o} ignored" in mod.log for o in opts)


# ---- ElementwiseKernel operations that read PyCUDA's loop variables ----------------------

def _pycuda_thread_of(i, n):
    """(tid, cta_start, total_threads) of the thread of PyCUDA's grid-stride loop that
    runs index i, under PyCUDA's splay of n items."""
    (blocks, _), (threads, _, _) = gpuarray.splay(n)
    total = blocks * threads
    t = i % total
    return t % threads, t - t % threads, total


@pytest.mark.parametrize("n", [7, 1000, 50_000])
def test_elementwise_operation_reads_tid_total_threads_and_cta_start(n, rng):
    x = rng.standard_normal(n).astype(np.float32)
    k = elw.ElementwiseKernel(
        "float *x, long *t, long *c, long *g, float *y",
        "t[i] = tid; c[i] = cta_start; g[i] = total_threads; y[i] = 2 * x[i]",
        "loop_vars")
    t, c, g = (gpuarray.zeros(n, np.int64) for _ in range(3))
    y = gpuarray.empty(n, np.float32)
    k(gpuarray.to_gpu(x), t, c, g, y)
    want = np.array([_pycuda_thread_of(i, n) for i in range(n)])
    np.testing.assert_array_equal(t.get(), want[:, 0])
    np.testing.assert_array_equal(c.get(), want[:, 1])
    np.testing.assert_array_equal(g.get(), want[:, 2])
    np.testing.assert_allclose(y.get(), 2 * x)


def test_elementwise_loop_variables_with_slice_and_range(rng):
    x = rng.standard_normal(300).astype(np.float32)
    k = elw.ElementwiseKernel("float *x, float *y", "y[i] = x[i] + 0 * tid", "sl")
    y = gpuarray.zeros(300, np.float32)
    k(gpuarray.to_gpu(x), y, slice=slice(250, 10, -7))
    want = np.zeros(300, np.float32)
    want[250:10:-7] = x[250:10:-7]
    np.testing.assert_array_equal(y.get(), want)
    y.fill(0)
    k(gpuarray.to_gpu(x), y, range=slice(3, 200, 4))
    want[:] = 0
    want[3:200:4] = x[3:200:4]
    np.testing.assert_array_equal(y.get(), want)


def test_elementwise_loop_prep_uses_tid_for_shared_memory(rng):
    # A block-local table filled in loop_prep by thread id, as PyCUDA users write it.
    n = 5000
    x = rng.integers(0, 16, n).astype(np.int32)
    k = elw.ElementwiseKernel(
        "int *x, int *y", "y[i] = tab[x[i]]", "lut",
        loop_prep="__shared__ int tab[16]; if (tid < 16) tab[tid] = tid * tid + 1; "
                  "__syncthreads()")
    y = gpuarray.empty(n, np.int32)
    k(gpuarray.to_gpu(x), y)
    np.testing.assert_array_equal(y.get(), x * x + 1)


def test_splay_is_pycuda_s_rule():
    dev = drv.Context.get_device()
    mp = dev.get_attribute(drv.device_attribute.MULTIPROCESSOR_COUNT)
    warp = dev.get_attribute(drv.device_attribute.WARP_SIZE)
    max_blocks = 4 * 8 * mp
    assert gpuarray.splay(1) == ((1, 1), (warp, 1, 1))
    assert gpuarray.splay(warp * 3 + 1) == ((4, 1), (warp, 1, 1))
    n = max_blocks * warp * 2 + 5
    assert gpuarray.splay(n) == ((max_blocks, 1), (3 * warp, 1, 1))
    assert gpuarray.splay(max_blocks * 128 * 4) == ((max_blocks, 1), (128, 1, 1))
    a = gpuarray.empty(n, np.float32)
    assert (a._grid, a._block) == gpuarray.splay(n)


# ---- pycuda.reduction's kernel builders --------------------------------------------------

def test_reduction_builders_against_numpy(rng):
    from lattice.pycuda import reduction as red
    n = 3001
    a = rng.standard_normal(n)
    b = rng.standard_normal(n).astype(np.float32)
    ia = rng.integers(-1000, 1000, n).astype(np.int32)
    lut = rng.integers(0, n, 400).astype(np.int32)
    ga, gb, gi, gl = (gpuarray.to_gpu(v) for v in (a, b, ia, lut))
    s = red.get_sum_kernel(np.float64, np.float64)(ga).get()
    assert s.shape == () and s.dtype == np.float64
    np.testing.assert_allclose(s, a.sum(), rtol=1e-10)
    assert red.get_sum_kernel(None, np.int32)(gi).get() == ia.sum()
    np.testing.assert_allclose(red.get_dot_kernel(np.float64, np.float64, np.float32)(ga, gb)
                               .get(), a @ b.astype(np.float64), rtol=1e-9)
    np.testing.assert_allclose(red.get_subset_sum_kernel(None, np.int32, np.float64)(gl, ga)
                               .get(), a[lut].sum(), rtol=1e-10)
    np.testing.assert_allclose(red.get_subset_dot_kernel(np.float64, np.int32)(gl, ga, ga)
                               .get(), a[lut] @ a[lut], rtol=1e-10)
    for what, f in (("min", np.min), ("max", np.max)):
        assert red.get_minmax_kernel(what, np.dtype(np.float64))(ga).get() == f(a)
        assert red.get_minmax_kernel(what, np.dtype(np.int32))(gi).get() == f(ia)
        assert red.get_subset_minmax_kernel(what, np.dtype(np.float32), np.int32)(
            gl, gb).get() == f(b[lut])
    assert red.get_minmax_neutral("min", np.int16) == "32767"
    with pytest.raises(ValueError):
        red.get_minmax_neutral("mid", np.float32)
    with pytest.raises(TypeError):
        red.get_minmax_kernel("min", np.dtype(np.complex64))
    assert bool(red.get_any_kernel(np.bool_, np.int32)(gi).get())
    assert red.get_sum_kernel(np.float64, np.float64) is red.get_sum_kernel(np.float64,
                                                                            np.float64)


# ---- drv.In/Out/InOut pass an array's memory as it lies, as PyCUDA's ---------------------

def test_in_out_of_fortran_arrays_pass_their_memory_as_it_lies(rng):
    mod = SourceModule("""
    __global__ void iota(float *a) { a[threadIdx.x] = threadIdx.x; }
    __global__ void cp(float *o, const float *a) { o[threadIdx.x] = 2 * a[threadIdx.x]; }
    """)
    iota, cp = mod.get_function("iota"), mod.get_function("cp")
    for wrap in (drv.Out, drv.InOut):
        r = np.zeros((3, 4), np.float32, order="F")
        iota(wrap(r), block=(12, 1, 1))
        np.testing.assert_array_equal(r.ravel(order="F"), np.arange(12))
    a = rng.standard_normal((3, 4)).astype(np.float32)
    for host in (np.asfortranarray(a), a.T):
        o = np.zeros(12, np.float32)
        cp(drv.Out(o), drv.In(host), block=(12, 1, 1))
        np.testing.assert_array_equal(o, 2 * host.ravel(order="K"))
    # A view of neither order is still copied (PyCUDA refuses it), element by element.
    o = np.zeros(6, np.float32)
    cp(drv.Out(o), drv.In(a[:, ::2]), block=(6, 1, 1))
    np.testing.assert_array_equal(o, 2 * a[:, ::2].ravel())


# ---- threads each pushing a context (CUDA's context stacks are per thread) ---------------

def test_threads_each_push_and_pop_their_own_context(rng):
    import threading
    dev = drv.Context.get_device()
    main_ctx = drv.Context.get_current()
    pushed, popped = threading.Barrier(4), threading.Barrier(4)
    results, errors = {}, []
    k = rng.integers(1, 100, 4)

    def worker(t):
        try:
            assert drv.Context.get_current() is main_ctx  # none pushed: the main one
            ctx = dev.make_context()
            pushed.wait()  # every thread has pushed before any launches or pops
            m = SourceModule("__global__ void f(int *o, int k) { o[threadIdx.x] = k * "
                             "threadIdx.x; }")
            o = np.zeros(32, np.int32)
            m.get_function("f")(drv.Out(o), np.int32(k[t]), block=(32, 1, 1))
            results[t] = (o, drv.Context.get_current() is ctx)
            popped.wait()
            drv.Context.pop()
            with pytest.raises(drv.LogicError):
                drv.Context.pop()  # this thread's stack is empty, whatever main holds
            ctx.detach()
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)
            pushed.abort()
            popped.abort()

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors
    for t in range(4):
        o, own = results[t]
        np.testing.assert_array_equal(o, k[t] * np.arange(32))
        assert own
    assert drv.Context.get_current() is main_ctx


def test_a_bad_device_ordinal_raises_without_a_stray_stderr_line():
    code = ("import lattice.pycuda.driver as drv\n"
            "drv.init()\n"
            "for n in (drv.Device.count(), -1):\n"
            "    try:\n"
            "        drv.Device(n)\n"
            "    except drv.LogicError as e:\n"
            "        print(type(e).__name__)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["InvalidDeviceError"] * 2
    assert "lattice: error" not in r.stderr, r.stderr


# ---- NumPy scalars of each type as kernel arguments --------------------------------------

def test_numpy_scalars_of_each_type_reach_their_parameters(rng):
    mod = SourceModule("""
    __global__ void k(double *o, unsigned char a, short b, bool c, long d,
                      unsigned long long e, char f, float g, double h, const float *p)
    { o[0] = a; o[1] = b; o[2] = c; o[3] = d; o[4] = (double)e; o[5] = f; o[6] = g;
      o[7] = h; o[8] = p[0]; }""")
    k = mod.get_function("k")
    p = drv.to_device(rng.standard_normal(1).astype(np.float32))
    want_p = drv.from_device(p, 1, np.float32)[0]
    vals = (int(rng.integers(0, 256)), int(rng.integers(-30000, 30000)), True,
            int(rng.integers(-2**40, 2**40)), int(rng.integers(0, 2**62)),
            int(rng.integers(-128, 128)), float(rng.standard_normal()),
            float(rng.standard_normal()))
    types = (np.uint8, np.int16, np.bool_, np.int64, np.uint64, np.int8, np.float32,
             np.float64)
    o = np.zeros(9)
    for ptr in (p, np.intp(int(p)), np.uintp(int(p)), int(p)):
        o[:] = 0
        k(drv.Out(o), *(t(v) for t, v in zip(types, vals)), ptr, block=(1, 1, 1))
        want = [float(t(v)) for t, v in zip(types, vals)] + [want_p]
        np.testing.assert_array_equal(o, np.array(want))
    # A wider integer holding a value the parameter can hold fills it; one it cannot hold
    # is refused rather than cut to its low bytes.
    args = [t(v) for t, v in zip(types, vals)]
    k(drv.Out(o), np.int32(200), *args[1:], p, block=(1, 1, 1))
    assert o[0] == 200
    k(drv.Out(o), np.int64(201), np.int64(-300), *args[2:], p, block=(1, 1, 1))
    assert (o[0], o[1]) == (201, -300)
    scale = SourceModule("__global__ void s(float *x, int n) { int i = threadIdx.x; "
                         "if (i < n) x[i] *= 2; }").get_function("s")
    h = rng.standard_normal(32).astype(np.float32)
    got = h.copy()
    scale(drv.InOut(got), np.int64(20), block=(32, 1, 1))  # np.int64(n) for "int n"
    np.testing.assert_array_equal(got, np.where(np.arange(32) < 20, 2 * h, h))
    for bad in (np.int32(300), np.int32(-1), np.int64(256)):
        with pytest.raises(OverflowError, match="unsigned char a"):
            k(drv.Out(o), bad, *args[1:], p, block=(1, 1, 1))
    with pytest.raises(OverflowError, match="short b"):
        k(drv.Out(o), args[0], np.int32(40000), *args[2:], p, block=(1, 1, 1))


def test_device_data_and_occupancy_follow_pycuda_s_tables():
    dd = tools.DeviceData()
    cc = drv.Context.get_device().compute_capability()
    assert dd.warps_per_mp == (64 if cc >= (3, 0) else 48)
    assert (dd.smem_alloc_granularity, dd.register_allocation_unit) == (128, "warp")
    rng = np.random.default_rng(5)
    for _ in range(50):
        threads = int(rng.integers(1, dd.max_threads + 1))
        smem = int(rng.integers(0, dd.shared_memory // 4))
        regs = int(rng.integers(0, 64))
        # PyCUDA's occupancy calculator, as its tools.py computes it
        warps = -(-threads // dd.warp_size)
        asmem = -(-smem // 128) * 128
        aregs = warps * 32 * regs
        if aregs > dd.registers:
            with pytest.raises(ValueError):
                tools.OccupancyRecord(dd, threads, smem, regs)
            continue
        limits = [(8, "device"), (dd.warps_per_mp // warps, "warps")]
        if regs > 0:
            limits.append((dd.registers // aregs, "regs"))
        if smem > 0:
            limits.append((dd.shared_memory // asmem, "smem"))
        tb, by = min(limits)
        rec = tools.OccupancyRecord(dd, threads, smem, regs)
        assert (rec.tb_per_mp, rec.limited_by) == (tb, by)
        assert rec.occupancy == tb * warps / dd.warps_per_mp


def test_a_program_may_pop_autoinit_s_context_as_in_pycuda():
    code = ("import numpy as np, threading\n"
            "import lattice.pycuda.autoinit as ai\n"
            "import lattice.pycuda.driver as drv\n"
            "from lattice.pycuda import gpuarray\n"
            "x = np.random.default_rng(2).standard_normal(64)\n"
            "g = gpuarray.to_gpu(x)\n"
            "out = []\n"
            "th = threading.Thread(target=lambda: out.append((g * 3).get()))\n"
            "th.start(); th.join()\n"
            "assert np.array_equal(out[0], 3 * x)\n"
            "assert drv.Context.get_current() is ai.context\n"
            "ai.context.pop()\n"
            "try:\n"
            "    drv.Context.pop()\n"
            "except drv.LogicError:\n"
            "    print('second pop raises')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "second pop raises"
    assert "lattice: error" not in r.stderr


def test_more_elementwise_builders_against_numpy(rng):
    n = 777
    x = (rng.standard_normal(n) * 10).astype(np.float32)
    y = (rng.random(n) + 0.5).astype(np.float32)
    gx, gy = gpuarray.to_gpu(x), gpuarray.to_gpu(y)
    z, w = gpuarray.empty_like(gx), gpuarray.empty_like(gx)
    (grid, block) = gx._grid, gx._block
    elw.get_fmod_kernel().prepared_call(grid, block, gx.gpudata, gy.gpudata, z.gpudata, n)
    np.testing.assert_allclose(z.get(), np.fmod(x, y), rtol=1e-6, atol=1e-6)
    # get_modf_kernel's modf(float, float *) is C++'s float overload, which the emulator's
    # front end lacks (a CompileError); cumath.modf does the same work.
    elw.get_frexp_kernel().prepared_call(grid, block, gx.gpudata, z.gpudata, w.gpudata, n)
    m, e = np.frexp(x)
    np.testing.assert_array_equal(z.get(), m)
    np.testing.assert_array_equal(w.get(), e.astype(np.float32))
    elw.get_ldexp_kernel().prepared_call(grid, block, z.gpudata, w.gpudata, gy.gpudata, n)
    np.testing.assert_array_equal(gy.get(), x)
    gy = gpuarray.to_gpu(y)
    k = elw.get_pow_array_kernel(np.float32, np.float32, np.float32, True, True)
    k.prepared_call(grid, block, gy.gpudata, gy.gpudata, z.gpudata, n)
    np.testing.assert_allclose(z.get(), y ** y, rtol=1e-5)
    k = elw.get_pow_array_kernel(np.float64, np.float32, np.float64, False, True)
    zd = gpuarray.empty(n, np.float64)
    k.prepared_call(grid, block, 1.5, gy.gpudata, zd.gpudata, n)
    np.testing.assert_allclose(zd.get(), 1.5 ** y.astype(np.float64), rtol=1e-12)
    k = elw.get_binary_minmax_kernel("max", np.dtype(np.float32), np.dtype(np.float32),
                                     np.dtype(np.float32), False)
    k.prepared_call(grid, block, gx.gpudata, gy.gpudata, z.gpudata, n)
    np.testing.assert_array_equal(z.get(), np.fmax(x, y))


# ---- compiler.compile, then module_from_buffer / module_from_file ------------------------

def test_compile_once_then_load_from_buffer_or_file(rng, tmp_path):
    from lattice.pycuda import compiler
    src = """
    #include "scale.h"
    __global__ void scale(float *p, float a) { p[threadIdx.x] = SCALE(p[threadIdx.x], a); }
    """
    (tmp_path / "scale.h").write_text("#define SCALE(x, a) ((x) * (a) + 1)\n")
    try:
        image = compiler.compile(src, include_dirs=[str(tmp_path)])
    except NotImplementedError:  # a CUDA backend that produced PTX only
        pytest.skip("this backend's compile gives PTX")
    assert isinstance(image, bytes)
    (tmp_path / "scale.cubin").write_bytes(image)
    x = rng.standard_normal(64).astype(np.float32)
    for mod in (drv.module_from_buffer(image),
                drv.module_from_file(str(tmp_path / "scale.cubin"))):
        h = x.copy()
        mod.get_function("scale")(drv.InOut(h), np.float32(3), block=(64, 1, 1))
        np.testing.assert_allclose(h, x * 3 + 1, rtol=1e-6)
    with pytest.raises(drv.CompileError):
        compiler.compile("__global__ void broken( { }")


# ---- the PyCUDA tutorial's struct of pointers, filled by copies to int(ptr) + offset -----

def test_tutorial_double_op_struct(rng):
    class DoubleOpStruct:
        mem_size = 8 + np.uintp(0).nbytes

        def __init__(self, array, struct_arr_ptr):
            self.data = drv.to_device(array)
            self.shape, self.dtype = array.shape, array.dtype
            drv.memcpy_htod(int(struct_arr_ptr), memoryview(np.int32(array.size)))
            drv.memcpy_htod(int(struct_arr_ptr) + 8, memoryview(np.uintp(int(self.data))))

        def get(self):
            return drv.from_device(self.data, self.shape, self.dtype)

    struct_arr = drv.mem_alloc(2 * DoubleOpStruct.mem_size)
    do2_ptr = int(struct_arr) + DoubleOpStruct.mem_size
    a1 = rng.standard_normal(37).astype(np.float32)
    a2 = rng.standard_normal(5).astype(np.float32)
    s1, s2 = DoubleOpStruct(a1, struct_arr), DoubleOpStruct(a2, do2_ptr)
    func = SourceModule("""
    struct DoubleOperation { int datalen, __padding; float *ptr; };
    __global__ void double_array(DoubleOperation *a)
    {
        a = a + blockIdx.x;
        for (int idx = threadIdx.x; idx < a->datalen; idx += blockDim.x)
            a->ptr[idx] *= 2;
    }""").get_function("double_array")
    func(struct_arr, block=(32, 1, 1), grid=(2, 1))
    np.testing.assert_array_equal(s1.get(), 2 * a1)
    np.testing.assert_array_equal(s2.get(), 2 * a2)
    func.prepare("P")
    assert func.arg_format == "P"
    func.prepared_call((1, 1), (32, 1, 1), do2_ptr)
    np.testing.assert_array_equal(s1.get(), 2 * a1)
    np.testing.assert_array_equal(s2.get(), 4 * a2)


def test_constant_memory_filled_through_get_global(rng):
    mod = SourceModule("""
    __constant__ float coef[16];
    __device__ int counter;
    __global__ void conv(float *o, const float *x, int n)
    {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
            float s = 0;
            for (int k = 0; k < 16; k++) s += coef[k] * x[(i + k) % n];
            o[i] = s;
            atomicAdd(&counter, 1);
        }
    }""")
    c_ptr, size = mod.get_global("coef")
    assert size == 64
    coef = rng.standard_normal(16).astype(np.float32)
    drv.memcpy_htod(c_ptr, coef)
    n = 300
    x = rng.standard_normal(n).astype(np.float32)
    o = np.zeros_like(x)
    mod.get_function("conv")(drv.Out(o), drv.In(x), np.int32(n), block=(128, 1, 1),
                             grid=(3, 1))
    idx = (np.arange(n)[:, None] + np.arange(16)[None, :]) % n
    np.testing.assert_allclose(o, (x[idx] * coef).sum(axis=1), rtol=1e-4, atol=1e-5)
    cnt, _ = mod.get_global("counter")
    assert drv.from_device(cnt, 1, np.int32)[0] == n


def test_a_module_variable_by_address_is_device_memory(rng):
    """A GPUArray over get_global's address, memset of a variable, copies at an offset into
    it and between it and an allocation, as PyCUDA programs do."""
    mod = SourceModule("""
    __device__ float table[64];
    __constant__ int lut[16];
    __global__ void rd(float *o) { o[threadIdx.x] = table[threadIdx.x] + lut[threadIdx.x % 16]; }
    """)
    t_ptr, t_size = mod.get_global("table")
    l_ptr, _ = mod.get_global("lut")
    assert t_size == 256
    x = rng.standard_normal(64).astype(np.float32)
    view = gpuarray.GPUArray((64,), np.float32, gpudata=t_ptr)
    view.set(x)
    np.testing.assert_array_equal(view.get(), x)
    drv.memset_d32(l_ptr, 3, 16)
    drv.memcpy_htod(int(l_ptr) + 8, np.array([-5, 9], np.int32))
    lut = np.full(16, 3, np.int32)
    lut[2:4] = [-5, 9]
    o = np.empty(64, np.float32)
    mod.get_function("rd")(drv.Out(o), block=(64, 1, 1))
    np.testing.assert_array_equal(o, x + lut[np.arange(64) % 16].astype(np.float32))
    d = drv.to_device(x[::-1].copy())
    drv.memcpy_dtod(t_ptr, d, 128)
    back = drv.mem_alloc(256)
    drv.memcpy_dtod(back, t_ptr, 256)
    np.testing.assert_array_equal(drv.from_device(back, 64, np.float32),
                                  np.concatenate([x[::-1][:32], x[32:]]))
    (view * 2).get()  # a kernel over it as over any array
    with pytest.raises(drv.LogicError):
        drv.memcpy_htod(int(t_ptr) + 4, x)  # past its end, as past an allocation's


def test_kernel_builders_honour_define_options(rng):
    """options=["-DNAME=value"] reaches ElementwiseKernel, ReductionKernel and the scans
    (they were compiled without it: 'SCALE' undeclared); an option lattice cannot honour
    there raises naming it."""
    from lattice.pycuda.reduction import ReductionKernel
    from lattice.pycuda.scan import ExclusiveScanKernel, InclusiveScanKernel
    a = rng.standard_normal(1000).astype(np.float32)
    g = gpuarray.to_gpu(a)
    k = elw.ElementwiseKernel("float *x, float *y", "y[i] = SCALE * x[i] + OFF", "scale",
                              options=["-DSCALE=3", "-D", "OFF=1.5f", "-use_fast_math"])
    y = gpuarray.zeros_like(g)
    k(g, y)
    np.testing.assert_allclose(y.get(), 3 * a + 1.5, rtol=1e-5, atol=1e-6)
    y.fill(0)
    k(g, y, slice=slice(10, 100, 3))
    want = np.zeros_like(a)
    want[10:100:3] = 3 * a[10:100:3] + 1.5
    np.testing.assert_allclose(y.get(), want, rtol=1e-5, atol=1e-6)
    r = ReductionKernel(np.float32, "0", "a+b", "x[i]*W", "float *x", options=["-DW=2.0f", "-O3"])
    np.testing.assert_allclose(r(g).get(), 2 * a.sum(), rtol=1e-4)
    ints = rng.integers(-50, 50, 3000).astype(np.int32)
    s = InclusiveScanKernel(np.int32, "a+b+BIAS", options=["-DBIAS=0"])
    h = gpuarray.to_gpu(ints)
    s(h)
    np.testing.assert_array_equal(h.get(), np.cumsum(ints))
    s = ExclusiveScanKernel(np.int32, "STEP(a, b)", "0",
                            options=["--define-macro=STEP(a,b)=((a)+(b))"])
    h = gpuarray.to_gpu(ints)
    s(h)
    np.testing.assert_array_equal(h.get(), np.concatenate([[0], np.cumsum(ints)[:-1]]))
    with pytest.raises(NotImplementedError, match="-I/tmp"):
        ReductionKernel(np.float32, "0", "a+b", "x[i]", "float *x", options=["-I/tmp"])


def test_struct_reduction_with_a_registered_dtype(rng):
    """A min/max collector struct reduced with a ReductionKernel, as PyCUDA's docs do."""
    from lattice.pycuda.reduction import ReductionKernel
    dt = tools.get_or_register_dtype("minmax_collector", np.dtype(
        [("cur_min", np.int32), ("cur_max", np.int32), ("pad", np.int32)]))
    preamble = r"""
    struct minmax_collector { int cur_min; int cur_max; int pad; };
    __device__ minmax_collector mmc_neutral()
    { minmax_collector r; r.cur_min = 1 << 30; r.cur_max = -(1 << 30); r.pad = 0; return r; }
    __device__ minmax_collector mmc_from_scalar(float x)
    { minmax_collector r; r.cur_min = x; r.cur_max = x; r.pad = 0; return r; }
    __device__ minmax_collector agg_mmc(minmax_collector a, minmax_collector b)
    {
        minmax_collector r = a;
        if (b.cur_min < r.cur_min) r.cur_min = b.cur_min;
        if (b.cur_max > r.cur_max) r.cur_max = b.cur_max;
        return r;
    }"""
    red = ReductionKernel(dt, neutral="mmc_neutral()", reduce_expr="agg_mmc(a, b)",
                          map_expr="mmc_from_scalar(x[i])", arguments="float *x",
                          preamble=preamble)
    x = rng.integers(-1000, 1000, 30000).astype(np.float32)
    got = red(gpuarray.to_gpu(x)).get()
    assert got["cur_min"] == x.min() and got["cur_max"] == x.max()


def test_library_code_extending_gpuarray_through_its_private_helpers(rng):
    """What libraries built on PyCUDA (scikit-cuda-style helpers, PyCUDA's own sparse CG)
    call: _new_like_me, _get_common_dtype, _memcpy_discontig, with a prepared elementwise
    kernel launched on the array's own _grid and _block."""
    from lattice.pycuda.elementwise import get_elwise_kernel

    def guarded_div(a, b):
        result = a._new_like_me(gpuarray._get_common_dtype(a, b))
        func = get_elwise_kernel("float *x, int *y, double *z",
                                 "z[i] = y[i] == 0 ? 0 : (x[i] / y[i])", "divide")
        func.prepared_async_call(a._grid, a._block, None, a.gpudata, b.gpudata,
                                 result.gpudata, a.mem_size)
        return result

    x = rng.standard_normal(5000).astype(np.float32)
    y = rng.integers(-3, 4, 5000).astype(np.int32)
    r = guarded_div(gpuarray.to_gpu(x), gpuarray.to_gpu(y))
    assert r.dtype == np.float64 and r.shape == x.shape
    with np.errstate(divide="ignore", invalid="ignore"):
        want = np.where(y == 0, 0, x / y)
    np.testing.assert_allclose(r.get(), want, rtol=1e-6)
    assert gpuarray._get_common_dtype(gpuarray.to_gpu(x), 2) == np.float32
    m = rng.standard_normal((20, 30))
    g = gpuarray.to_gpu(m)
    same = g._new_like_me()
    assert same.shape == g.shape and same.dtype == g.dtype and same.strides == g.strides
    dst = gpuarray.zeros((20, 15), np.float64)
    gpuarray._memcpy_discontig(dst, g[:, ::2])
    np.testing.assert_array_equal(dst.get(), m[:, ::2])
    host = np.zeros((20, 15))
    gpuarray._memcpy_discontig(host, g[:, 1::2])
    np.testing.assert_array_equal(host, m[:, 1::2])
    with pytest.raises(TypeError):  # PyCUDA's exception types for its checks
        gpuarray._memcpy_discontig(gpuarray.zeros((20, 15), np.float32), g[:, ::2])
    with pytest.raises(ValueError):
        gpuarray._memcpy_discontig(dst, g)


def test_a_subclass_of_gpuarray_gets_its_own_class_from_operations(rng):
    """PyCUDA makes results through ``self.__class__`` (``_new_like_me``), so a program's
    subclass of GPUArray keeps its methods through arithmetic, cumath and astype."""
    import lattice.pycuda.cumath as cumath

    class Vector(gpuarray.GPUArray):
        def norm(self):
            return float(gpuarray.dot(self, self).get()) ** 0.5

    x = rng.standard_normal(300).astype(np.float32)
    v = Vector(x.shape, x.dtype)
    v.set(x)
    for r, want in ((v + 1, x + 1), (2 * v, 2 * x), (v * v, x * x), (-v, -x), (abs(v), abs(x)),
                    (v ** 2, x ** 2), (cumath.exp(v), np.exp(x)), (v.astype(np.float64), x),
                    (v.mul_add(2, v, 3), 5 * x), (v._new_like_me(), None), (v > 0, x > 0)):
        assert type(r) is Vector
        if want is not None:
            np.testing.assert_allclose(r.get(), want, rtol=1e-5)
    np.testing.assert_allclose((v + 1).norm(), np.linalg.norm(x + 1), rtol=1e-4)


# ---- programs of "Hands-On GPU Programming with Python and CUDA" (Packt), as written ------

def test_atomics_after_a_barrier():
    mod = SourceModule("""
    __global__ void atomic_ker(int *add_out, int *max_out)
    {
        int tid = blockIdx.x * blockDim.x + threadIdx.x;
        atomicExch(add_out, 0);
        __syncthreads();
        atomicAdd(add_out, 1);
        atomicMax(max_out, tid);
    }""")
    add_out = gpuarray.empty((1,), dtype=np.int32)
    max_out = gpuarray.to_gpu(np.array([-5], np.int32))
    mod.get_function("atomic_ker")(add_out, max_out, grid=(1, 1, 1), block=(100, 1, 1))
    drv.Context.synchronize()
    assert add_out.get()[0] == 100 and max_out.get()[0] == 99


def test_vectorized_loads_through_reinterpret_cast(rng):
    mod = SourceModule(r"""
    __global__ void vec_ker(int *ints, double *doubles, int *iout, double *dout)
    {
        int4 f1 = *reinterpret_cast<int4*>(ints);
        int4 f2 = *reinterpret_cast<int4*>(&ints[4]);
        double2 d1 = *reinterpret_cast<double2*>(doubles);
        double2 d2 = *reinterpret_cast<double2*>(&doubles[2]);
        *reinterpret_cast<int4*>(iout) = make_int4(f2.w, f2.z, f1.y, f1.x);
        *reinterpret_cast<double2*>(dout) = make_double2(d2.y + d1.x, d2.x * d1.y);
    }""")
    ints = rng.integers(-1000, 1000, 8).astype(np.int32)
    dbl = rng.standard_normal(4)
    iout, dout = gpuarray.empty(4, np.int32), gpuarray.empty(2, np.float64)
    mod.get_function("vec_ker")(gpuarray.to_gpu(ints), gpuarray.to_gpu(dbl), iout, dout,
                                grid=(1, 1, 1), block=(1, 1, 1))
    np.testing.assert_array_equal(iout.get(), [ints[7], ints[6], ints[1], ints[0]])
    np.testing.assert_array_equal(dout.get(), [dbl[3] + dbl[0], dbl[2] * dbl[1]])


def test_inline_ptx_helpers():
    mod = SourceModule(r"""
    __device__ void set_to_zero(int &x) { asm("mov.s32 %0, 0;" : "=r"(x)); }
    __device__ void add_floats(float &out, float in1, float in2)
    { asm("add.f32 %0, %1, %2 ;" : "=f"(out) : "f"(in1), "f"(in2)); }
    __device__ void plusplus(int &x) { asm("add.s32 %0, %0, 1;" : "+r"(x)); }
    __device__ int laneid() { int id; asm("mov.u32 %0, %%laneid; " : "=r"(id)); return id; }
    __device__ void split64(double val, int &lo, int &hi)
    { asm volatile("mov.b64 {%0, %1}, %2; " : "=r"(lo), "=r"(hi) : "d"(val)); }
    __device__ void combine64(double &val, int lo, int hi)
    { asm volatile("mov.b64 %0, {%1, %2}; " : "=d"(val) : "r"(lo), "r"(hi)); }
    __global__ void ptx_test_ker(int *o, float *f, double *d)
    {
        int x = 123;
        set_to_zero(x);
        plusplus(x);
        o[3 * threadIdx.x] = x;
        add_floats(f[threadIdx.x], 1.25f, (float)threadIdx.x);
        o[3 * threadIdx.x + 1] = laneid();
        int lo, hi;
        split64(d[threadIdx.x], lo, hi);
        double back;
        combine64(back, lo, hi);
        o[3 * threadIdx.x + 2] = back == d[threadIdx.x] && lo == (int)__double2loint(back);
    }""")
    o = gpuarray.zeros(3 * 40, np.int32)
    f = gpuarray.zeros(40, np.float32)
    d = gpuarray.to_gpu(np.random.default_rng(3).standard_normal(40))
    mod.get_function("ptx_test_ker")(o, f, d, grid=(1, 1, 1), block=(40, 1, 1))
    got = o.get().reshape(40, 3)
    np.testing.assert_array_equal(got[:, 0], 1)
    np.testing.assert_array_equal(got[:, 1], np.arange(40) % 32)
    np.testing.assert_array_equal(got[:, 2], 1)
    np.testing.assert_array_equal(f.get(), 1.25 + np.arange(40, dtype=np.float32))


def test_curand_device_api_monte_carlo_integrator():
    code = """
    #include <curand_kernel.h>
    #define ULL unsigned long long
    #define _P2(z) ((z) * (z))
    __device__ inline double f(double x) { double y; y = log(x) * _P2(sin(x)); return y; }
    extern "C" {
    __global__ void monte_carlo(int iters, double lo, double hi, double *ys_out)
    {
        curandState cr_state;
        int tid = blockIdx.x * blockDim.x + threadIdx.x;
        int num_threads = blockDim.x * gridDim.x;
        double t_width = (hi - lo) / (double) num_threads;
        double density = ((double) iters) / t_width;
        double t_lo = t_width * tid + lo;
        curand_init((ULL) clock() + (ULL) tid, (ULL) 0, (ULL) 0, &cr_state);
        double y_sum = 0.0f;
        for (int i = 0; i < iters; i++)
            y_sum += f(t_lo + t_width * curand_uniform_double(&cr_state));
        ys_out[tid] = y_sum / density;
    }
    }"""
    ker = SourceModule(no_extern_c=True, options=["-w"], source=code).get_function("monte_carlo")
    ys = gpuarray.empty((32 * 10,), dtype=np.float64)
    ker(np.int32(2000), np.float64(11.733), np.float64(18.472), ys, block=(32, 1, 1),
        grid=(10, 1, 1))
    # The book's expected value: 8.9999 (the integral of log(x) sin(x)^2 over the range).
    x = np.linspace(11.733, 18.472, 200001)
    trapezoid = getattr(np, "trapezoid", None) or np.trapz  # NumPy 1 names it trapz
    exact = trapezoid(np.log(x) * np.sin(x) ** 2, x)
    assert abs(ys.get().sum() - exact) < 0.01 * abs(exact)


def test_work_efficient_prefix_sum_by_up_and_down_sweeps(rng):
    up = SourceModule("""
    __global__ void up_ker(double *x, double *x_old, int k)
    {
        int tid = blockIdx.x * blockDim.x + threadIdx.x;
        int _2k = 1 << k, _2k1 = 1 << (k + 1);
        int j = tid * _2k1;
        x[j + _2k1 - 1] = x_old[j + _2k - 1] + x_old[j + _2k1 - 1];
    }""").get_function("up_ker")
    down = SourceModule("""
    __global__ void down_ker(double *y, double *y_old, int k)
    {
        int tid = blockIdx.x * blockDim.x + threadIdx.x;
        int _2k = 1 << k, _2k1 = 1 << (k + 1);
        int j = tid * _2k1;
        y[j + _2k - 1] = y_old[j + _2k1 - 1];
        y[j + _2k1 - 1] = y_old[j + _2k1 - 1] + y_old[j + _2k - 1];
    }""").get_function("down_ker")

    def sweep(fn, x, ks):
        x_gpu = gpuarray.to_gpu(x)
        x_old_gpu = x_gpu.copy()
        for k in ks:
            num_threads = int(np.ceil(x.size / 2 ** (k + 1)))
            grid_size = int(np.ceil(num_threads / 32))
            block_size = 32 if grid_size > 1 else num_threads
            fn(x_gpu, x_old_gpu, np.int32(k), block=(block_size, 1, 1), grid=(grid_size, 1, 1))
            x_old_gpu[:] = x_gpu[:]
        return x_gpu.get()

    testvec = rng.standard_normal(4 * 1024)
    levels = int(np.log2(testvec.size))
    y = sweep(up, testvec, range(levels))
    y[-1] = 0
    got = sweep(down, y, reversed(range(levels)))
    want = np.roll(np.cumsum(testvec), 1)
    want[0] = 0
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)


def test_game_of_life_in_shared_memory(rng):
    mod = SourceModule("""
    #define _X (threadIdx.x + blockIdx.x * blockDim.x)
    #define _Y (threadIdx.y + blockIdx.y * blockDim.y)
    #define _WIDTH (blockDim.x * gridDim.x)
    #define _HEIGHT (blockDim.y * gridDim.y)
    #define _XM(x) ((x + _WIDTH) % _WIDTH)
    #define _YM(y) ((y + _HEIGHT) % _HEIGHT)
    #define _INDEX(x, y) (_XM(x) + _YM(y) * _WIDTH)
    __device__ int nbrs(int x, int y, int *in)
    {
        return (in[_INDEX(x - 1, y + 1)] + in[_INDEX(x - 1, y)] + in[_INDEX(x - 1, y - 1)]
                + in[_INDEX(x, y + 1)] + in[_INDEX(x, y - 1)]
                + in[_INDEX(x + 1, y + 1)] + in[_INDEX(x + 1, y)] + in[_INDEX(x + 1, y - 1)]);
    }
    __global__ void conway_ker_shared(int *p_lattice, int iters)
    {
        int x = _X, y = _Y;
        __shared__ int lattice[32 * 32];
        lattice[_INDEX(x, y)] = p_lattice[_INDEX(x, y)];
        __syncthreads();
        for (int i = 0; i < iters; i++) {
            int n = nbrs(x, y, lattice);
            int cell_value;
            if (lattice[_INDEX(x, y)] == 1)
                switch (n) {
                case 2:
                case 3: cell_value = 1; break;
                default: cell_value = 0;
                }
            else if (lattice[_INDEX(x, y)] == 0)
                switch (n) {
                case 3: cell_value = 1; break;
                default: cell_value = 0;
                }
            __syncthreads();
            lattice[_INDEX(x, y)] = cell_value;
            __syncthreads();
        }
        __syncthreads();
        p_lattice[_INDEX(x, y)] = lattice[_INDEX(x, y)];
    }""")
    n, iters = 32, 25
    life = rng.choice([1, 0], n * n, p=[0.25, 0.75]).reshape(n, n).astype(np.int32)
    g = gpuarray.to_gpu(life)
    mod.get_function("conway_ker_shared")(g, np.int32(iters), grid=(1, 1, 1), block=(32, 32, 1))
    want = life.copy()
    for _ in range(iters):
        nb = sum(np.roll(np.roll(want, dy, 0), dx, 1)
                 for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))
        want = ((nb == 3) | ((want == 1) & (nb == 2))).astype(np.int32)
    np.testing.assert_array_equal(g.get(), want)


def test_dense_layer_on_a_stream_with_async_copies(rng):
    """The book's neural network layer: to_gpu_async / set_async / get_async on a stream,
    NumPy-int shapes, a launch with stream=."""
    mod = SourceModule("""
    #define _RELU(x) (((x) > 0.0f) ? (x) : 0.0f)
    __global__ void dense_eval(int num_outputs, int num_inputs, int relu, float *w, float *b,
                               float *x, float *y, int batch_size)
    {
        int i = blockDim.x * blockIdx.x + threadIdx.x;
        if (i < num_outputs)
            for (int k = 0; k < batch_size; k++) {
                double temp = 0.0f;
                for (int j = 0; j < num_inputs; j++)
                    temp += ((double) w[num_inputs * i + j]) * ((double) x[k * num_inputs + j]);
                temp += (double) b[i];
                y[k * num_outputs + i] = relu ? _RELU((float) temp) : (float) temp;
            }
    }""")
    eval_ker = mod.get_function("dense_eval")
    stream = drv.Stream()
    n_in, n_out, batch = np.int32(37), np.int32(50), np.int32(16)
    w = (rng.random((n_out, n_in)) - 0.5).astype(np.float32)
    b = rng.standard_normal(n_out).astype(np.float32)
    x = rng.standard_normal((batch, n_in)).astype(np.float32)
    w_gpu = gpuarray.to_gpu_async(w, stream=stream)
    b_gpu = gpuarray.to_gpu_async(b, stream=stream)
    x_gpu = gpuarray.empty((batch, n_in), dtype=np.float32)
    x_gpu.set_async(x, stream=stream)
    y_gpu = gpuarray.empty((batch, n_out), dtype=np.float32)
    eval_ker(n_out, n_in, np.int32(1), w_gpu, b_gpu, x_gpu, y_gpu, batch, block=(32, 1, 1),
             grid=(int(np.ceil(n_out / 32)), 1, 1), stream=stream)
    y = y_gpu.get_async(stream=stream)
    stream.synchronize()
    want = np.maximum(x.astype(np.float64) @ w.T.astype(np.float64) + b, 0)
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)


# ---- programs of vitalitylearning2021/problemSolvingPyCUDA, as written --------------------

def _idiv_up(a, b):
    a, b = np.int32(a), np.int32(b)
    return (a / b + 1) if (a % b != 0) else (a / b)


def test_leapfrog_advection_with_host_device_helpers():
    """A host+device helper, '#include <stdio.h>', memset_d32 of a mem_alloc, kernels
    stepping a time-space array in place; checked against the same scheme in NumPy."""
    mod = SourceModule("""
    #include <stdio.h>
    #define PI_f 3.14159265358979323846
    __host__ __device__ float propagatingFunction(const float x)
    { return exp(-x * x / (2.f * (PI_f / 4.f) * (PI_f / 4.f))); };
    __global__ void initialConditionKernel(float * __restrict__ d_u, const float * __restrict__ d_t,
                                           const float * __restrict__ d_x, const float v, const int N)
    {
        const int tid = threadIdx.x + blockIdx.x * blockDim.x;
        if (tid >= N + 1) return;
        d_u[tid] = propagatingFunction(d_x[tid] - v * d_t[0]);
    }
    __global__ void matsunoFirstStep(float * __restrict__ d_u, const float * __restrict__ d_t,
                                     const float * __restrict__ d_x, const float v,
                                     const float alpha, const int N)
    {
        const int tid = threadIdx.x + blockIdx.x * blockDim.x;
        if (tid > N + 1) return;
        if (tid == 0) d_u[N + 1] = propagatingFunction(d_x[tid] - v * d_t[1]);
        else if (tid <= N - 1) d_u[tid + N + 1] = d_u[tid] - 0.5 * alpha * (d_u[tid + 1] - d_u[tid - 1]);
    }
    __global__ void updateKernel(float * __restrict__ d_u, const float * __restrict__ d_t,
                                 const float * __restrict__ d_x, const float v, const float alpha,
                                 const float Q, const int l, const int N)
    {
        const int tid = threadIdx.x + blockIdx.x * blockDim.x;
        if (tid >= N + 1) return;
        if ((tid > 0) && (tid < N))
            d_u[tid + (l + 1) * (N + 1)] = d_u[tid + (l - 1) * (N + 1)]
                - alpha * (d_u[tid + 1 + l * (N + 1)] - d_u[tid - 1 + l * (N + 1)]);
        else if (tid == 0)
            d_u[tid + (l + 1) * (N + 1)] = propagatingFunction(d_x[tid] - v * d_t[l + 1]);
        else if (tid == N)
            d_u[tid + (l + 1) * (N + 1)] = (1.f - Q) * d_u[tid - 1 + l * (N + 1)] + Q * d_u[tid + l * (N + 1)];
    }""")
    M, N, v = 60, 165, 0.5
    x, dx = np.linspace(0, 2 * np.pi, N + 1, dtype=np.float32, retstep=True)
    t, dt = np.linspace(0.0, 15.0 * M / 200, M + 1, dtype=np.float32, retstep=True)
    alpha = v * dt / dx
    d_x, d_t = drv.mem_alloc(x.nbytes), drv.mem_alloc(t.nbytes)
    drv.memcpy_htod(d_x, x)
    drv.memcpy_htod(d_t, t)
    d_u = drv.mem_alloc((N + 1) * (M + 1) * 4)
    drv.memset_d32(d_u, 0x00, (N + 1) * (M + 1))
    block, grid = (256, 1, 1), (int(_idiv_up(N + 1, 256)), 1, 1)
    mod.get_function("initialConditionKernel")(d_u, d_t, d_x, np.float32(v), np.int32(N),
                                               block=block, grid=grid)
    mod.get_function("matsunoFirstStep")(d_u, d_t, d_x, np.float32(v), np.float32(alpha),
                                         np.int32(N), block=block, grid=grid)
    Q = (1.0 - alpha) / (1.0 + alpha)
    for step in range(1, M):
        mod.get_function("updateKernel")(d_u, d_t, d_x, np.float32(v), np.float32(alpha),
                                         np.float32(Q), np.int32(step), np.int32(N),
                                         block=block, grid=grid)
    u = np.zeros((M + 1, N + 1), dtype=np.float32)
    drv.memcpy_dtoh(u, d_u)

    def prop(z):
        return np.exp(-z * z / (2 * (np.pi / 4) ** 2))
    a, q = np.float64(np.float32(alpha)), np.float64(np.float32(Q))
    ref = np.zeros((M + 1, N + 1))
    ref[0] = prop(x - v * t[0])
    ref[1, 0] = prop(x[0] - v * t[1])
    ref[1, 1:N] = ref[0, 1:N] - 0.5 * a * (ref[0, 2:N + 1] - ref[0, 0:N - 1])
    for step in range(1, M):
        ref[step + 1, 1:N] = ref[step - 1, 1:N] - a * (ref[step, 2:] - ref[step, :N - 1])
        ref[step + 1, 0] = prop(x[0] - v * t[step + 1])
        ref[step + 1, N] = (1 - q) * ref[step, N - 1] + q * ref[step, N]
    np.testing.assert_allclose(u, ref, rtol=1e-3, atol=1e-4)


def test_n_body_forces_on_float2_arrays_and_gpuarray_arithmetic(rng):
    """(N, 2) float32 GPUArrays passed as float2*, then combined with Python floats
    (NumPy keeps float32) in an RK4 step, and an int32 sum with dtype=."""
    mod = SourceModule("""
    #define G 1.0e4f
    __global__ void computeForcesKernel(const float2 * __restrict__ d_pos,
                                        const float * __restrict__ d_mass,
                                        const int * __restrict__ d_active,
                                        float2 * __restrict__ d_force, const float dt, const int N)
    {
        int p = blockDim.x * blockIdx.x + threadIdx.x;
        if ((p >= N) || (p == 0) || (d_active[p] == 0)) return;
        float fx = 0.0f, fy = 0.0f;
        for (int q = 0; q < N; q++) {
            float dx = d_pos[q].x - d_pos[p].x;
            float dy = d_pos[q].y - d_pos[p].y;
            float dsq = dx * dx + dy * dy;
            float invDistSqr = 1.0f / dsq;
            float invDist = rsqrtf(dsq);
            if (dsq > 1.e-10f) {
                fx += G * d_mass[q] * invDistSqr * dx * invDist;
                fy += G * d_mass[q] * invDistSqr * dy * invDist;
            }
        }
        d_force[p].x = dt * fx;
        d_force[p].y = dt * fy;
    }""")
    forces = mod.get_function("computeForcesKernel")
    n, dt = 100, 0.1
    pos = (rng.random((n, 2)) * [900, 600]).astype(np.float32)
    vel = (200 * (rng.random((n, 2)) - 0.5)).astype(np.float32)
    mass = (rng.random((n, 1)) * 0.01 + 0.001).astype(np.float32)
    active = (rng.random((n, 1)) < 0.8).astype(np.int32)
    active[0] = 1
    d_pos, d_vel = gpuarray.to_gpu(pos), gpuarray.to_gpu(vel)
    d_mass, d_active = gpuarray.to_gpu(mass), gpuarray.to_gpu(active)
    d_k1v = gpuarray.zeros((n, 2), dtype=np.float32)
    d_k1v.fill(np.float32(0))
    block, grid = (32, 1, 1), (int(_idiv_up(n, 32)), 1, 1)
    forces(d_pos, d_mass, d_active, d_k1v, np.float32(dt), np.int32(n), block=block, grid=grid)
    d_k1x = dt * d_vel
    d_k2v = gpuarray.zeros_like(d_k1v)
    forces(d_pos + 0.5 * d_k1x, d_mass, d_active, d_k2v, np.float32(dt), np.int32(n),
           block=block, grid=grid)
    new_vel = d_vel + (1.0 / 6.0) * (d_k1v + 2.0 * d_k2v)
    assert d_k1x.dtype == np.float32 and new_vel.dtype == np.float32

    def ref_forces(p):
        d = p[None, :, :] - p[:, None, :]
        dsq = (d ** 2).sum(-1)
        with np.errstate(divide="ignore", invalid="ignore"):
            w = np.where(dsq > 1e-10, 1.0e4 * mass[:, 0][None, :] / dsq ** 1.5, 0)
        f = dt * (w[:, :, None] * d).sum(1)
        f[(active[:, 0] == 0) | (np.arange(n) == 0)] = 0
        return f
    k1 = ref_forces(pos.astype(np.float64))
    k2 = ref_forces(pos + 0.5 * dt * vel.astype(np.float64))
    np.testing.assert_allclose(d_k1v.get(), k1, rtol=2e-3, atol=1e-3)
    np.testing.assert_allclose(new_vel.get(), vel + (k1 + 2 * k2) / 6, rtol=2e-3, atol=1e-3)
    total = gpuarray.sum(d_active, dtype=np.int32)
    assert total.dtype == np.int32 and total.get() == active.sum()


# ---- what libraries built on PyCUDA do (reikna's CUDA backend) -----------------------------

def test_a_library_s_own_argument_handler_and_int_pointer_holders(rng):
    """reikna's Buffer subclasses drv.ArgumentHandler without calling its __init__ and gives
    its memory through get_device_alloc(); PyCUDA calls pre_call/post_call around the
    launch and packs a prepared 'P' argument with int()."""
    calls = []

    class Buffer(drv.ArgumentHandler):
        def __init__(self, size):
            self._buffer = drv.mem_alloc(size)
            self.size = size

        def __int__(self):
            return int(self._buffer)

        def get_device_alloc(self):
            return self._buffer

        def pre_call(self, stream):
            calls.append(("pre", stream))

        def post_call(self, stream):
            calls.append(("post", stream))

    x = rng.standard_normal(300).astype(np.float32)
    buf = Buffer(x.nbytes)
    drv.memcpy_htod(buf.get_device_alloc(), x)
    f = SourceModule("__global__ void k(float *a, int n)"
                     "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] *= 3; }"
                     ).get_function("k")
    s = drv.Stream()
    f(buf, np.int32(300), block=(128, 1, 1), grid=(3, 1), stream=s)
    s.synchronize()
    assert calls == [("pre", s), ("post", s)]
    f.prepare("Pi")
    f.prepared_call((3, 1), (128, 1, 1), buf, 300)
    out = np.empty_like(x)
    drv.memcpy_dtoh(out, buf.get_device_alloc())
    np.testing.assert_array_equal(out, np.float32(3) * (np.float32(3) * x))


def test_a_library_popping_its_context_in_a_finaliser_at_exit(tmp_path):
    """reikna's Thread pops the context it made when it is collected, which at interpreter
    exit is after lattice closed its contexts: nothing to pop then, and nothing printed."""
    script = tmp_path / "finaliser.py"
    script.write_text(
        "import numpy as np\n"
        "import lattice.pycuda.driver as drv\n"
        "from lattice.pycuda import gpuarray\n"
        "drv.init()\n"
        "class Thread:\n"
        "    def __init__(self):\n"
        "        self.ctx = drv.Device(0).make_context()\n"
        "    def __del__(self):\n"
        "        drv.Context.pop()\n"
        "        self.ctx.detach()\n"
        "thr = Thread()\n"
        "print((gpuarray.to_gpu(np.arange(4.0)) * 2).get().sum())\n")
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "12.0", r.stderr
    assert "Exception ignored" not in r.stderr and "LogicError" not in r.stderr, r.stderr


def test_managed_memory_arrays_passed_straight_to_kernels(rng):
    """Thomas10111/PyCuda_examples' unified-memory programs: managed_zeros arrays filled on
    the host, passed to a kernel as they are, read back on the host after a
    synchronize; a view goes by its own address."""
    mod = SourceModule("""
    extern "C" {
    __device__ float log_device[64][10];
    __global__ void update_individuals(unsigned int count, float dt, float *age,
                                       unsigned int *alive, float *death_age)
    {
        int idx = threadIdx.x + blockIdx.x * blockDim.x;
        if (idx >= count) return;
        age[idx] += dt;
        if (age[idx] > death_age[idx]) {
            alive[idx] = 0;
            log_device[idx][0] = death_age[idx];
        }
    }
    __global__ void scale(float *a, int n) { int i = threadIdx.x; if (i < n) a[i] *= 2; }
    }""", no_extern_c=True)
    n = 40
    flags = drv.mem_attach_flags.GLOBAL
    alive = drv.managed_zeros(shape=n, dtype=np.uint32, mem_flags=flags)
    age = drv.managed_zeros(shape=n, dtype=np.float32, mem_flags=flags)
    death = drv.managed_empty_like(age, mem_flags=flags)
    assert isinstance(age.base, drv.ManagedAllocation) and (age == 0).all()
    alive[:] = 1
    age[:] = rng.integers(10, 20, n)
    death[:] = rng.integers(12, 30, n)
    start = age.copy()
    for _ in range(5):
        mod.get_function("update_individuals")(np.uint32(n), np.float32(1.0), age, alive, death,
                                               block=(1024, 1, 1), grid=(1, 1), time_kernel=True)
    drv.Context.synchronize()
    np.testing.assert_array_equal(age, start + 5)
    np.testing.assert_array_equal(alive, (start + 5 <= death).astype(np.uint32))
    log, _ = mod.get_global("log_device")
    logged = drv.from_device(log, (64, 10), np.float32)[:n, 0]
    np.testing.assert_array_equal(logged, np.where(start + 5 > death, death, 0))
    m = drv.managed_zeros((8, 5), np.float32, order="F")
    m[:] = rng.standard_normal((8, 5))
    want = m.copy()
    col = m[:, 2]  # a contiguous column of a Fortran array
    mod.get_function("scale")(col, np.int32(8), block=(32, 1, 1))
    drv.Context.synchronize()
    want[:, 2] *= 2
    np.testing.assert_array_equal(m, want)
    assert int(m.base) == m.base.get_device_pointer()


def test_gpuarray_iterates_as_pycuda_s_through_getitem(rng):
    """PyCUDA's GPUArray has no __iter__: it is no collections.abc.Iterable (reikna's
    temporary-allocation walk recursed into lattice's arrays element by element and failed
    on a 0-d one), iteration goes through __getitem__, and a 0-d array iterates to nothing."""
    import collections.abc
    a = rng.standard_normal((3, 2)).astype(np.float32)
    g = gpuarray.to_gpu(a)
    assert not isinstance(g, collections.abc.Iterable)
    rows = [r.get() for r in g]
    np.testing.assert_array_equal(np.array(rows), a)
    assert list(gpuarray.sum(g)) == []
    with pytest.raises(IndexError):
        g[3]


# ---- a kernel call without block= --------------------------------------------------------

def test_a_pycuda_kernel_call_without_block_raises_as_pycuda_does(rng):
    """PyCUDA raises ValueError("must specify block size"); a launch of one thread would
    have written one element of the answer without a word."""
    x = rng.standard_normal(64).astype(np.float32)
    src = "__global__ void twice(float *x) { x[threadIdx.x] *= 2; }"
    for mod in (SourceModule(src), drv.module_from_buffer(
            __import__("lattice.pycuda.compiler", fromlist=["compile"]).compile(src))):
        f = mod.get_function("twice")
        xg = gpuarray.to_gpu(x)
        with pytest.raises(ValueError, match="must specify block size"):
            f(xg)
        with pytest.raises(ValueError, match="must specify block size"):
            f(xg, grid=(1, 1))
        np.testing.assert_array_equal(xg.get(), x)  # nothing ran
        f(xg, block=(64, 1, 1))
        np.testing.assert_array_equal(xg.get(), 2 * x)


def test_mul_add_calls_add_timer_with_flops_and_a_timer(rng):
    """PyCUDA's mul_add(..., add_timer=f) calls f(3 * size, seconds_fn); it was ignored."""
    x = rng.standard_normal(1000).astype(np.float32)
    y = rng.standard_normal(1000).astype(np.float32)
    calls = []
    r = gpuarray.to_gpu(x).mul_add(2.0, gpuarray.to_gpu(y), -3.0,
                                   add_timer=lambda n, t: calls.append((n, t)))
    np.testing.assert_allclose(r.get(), 2 * x - 3 * y, rtol=1e-6, atol=1e-6)
    assert len(calls) == 1 and calls[0][0] == 3 * 1000
    assert isinstance(calls[0][1](), float) and calls[0][1]() >= 0


def test_nvcc_host_and_target_options_are_dropped_with_a_note(rng, backend):
    """-ccbin, -m64 and -gencode, which nvcc users pass to SourceModule, say nothing about
    what the device code computes (lattice builds for the context's device, as with arch=);
    -rdc=true too on the emulator. They were refused as unknown options."""
    x = rng.standard_normal(64).astype(np.float32)
    opts = ["-ccbin", "gcc", "-m64", "-gencode", "arch=compute_70,code=sm_70",
            "--generate-code=arch=compute_80,code=sm_80", "-DSCALE=3"]
    if backend == "emu":
        opts.append("-rdc=true")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = SourceModule("__global__ void k(float *x) { x[threadIdx.x] *= SCALE; }",
                         options=opts)
    assert "-ccbin" in m.dropped_options and "-m64" in m.dropped_options
    assert "arch=compute_70,code=sm_70" in m.dropped_options
    xg = gpuarray.to_gpu(x)
    m.get_function("k")(xg, block=(64, 1, 1))
    np.testing.assert_allclose(xg.get(), 3 * x, rtol=1e-6)


def test_context_cache_and_shared_config_read_back_what_was_set():
    """CUDA's driver keeps a context's preferences; get_cache_config() gave PREFER_NONE
    whatever was set."""
    for c in (drv.func_cache.PREFER_SHARED, drv.func_cache.PREFER_L1,
              drv.func_cache.PREFER_EQUAL, drv.func_cache.PREFER_NONE):
        drv.Context.set_cache_config(c)
        assert drv.Context.get_cache_config() == c
    for c in (drv.shared_config.EIGHT_BYTE_BANK_SIZE, drv.shared_config.DEFAULT_BANK_SIZE):
        drv.Context.set_shared_config(c)
        assert drv.Context.get_shared_config() == c


def test_the_curand_idiom_with_device_new_and_mangled_names(rng):
    """talonmies' answer, as public code copies it (HEXOMAP's RandomCuda.py): a state per
    thread from device `new`, kernels found by nvcc's mangled names. Its numbers are those
    of states kept in an array the host allocated, seeded alike."""
    code = """
    #include <curand_kernel.h>
    const int nstates = %(N)s;
    __device__ curandState_t* states[nstates];
    __global__ void initkernel(int seed)
    {
        int tidx = threadIdx.x + blockIdx.x * blockDim.x;
        if (tidx < nstates) {
            curandState_t* s = new curandState_t;
            if (s != 0)
                curand_init(seed, tidx, 0, s);
            states[tidx] = s;
        }
    }
    __global__ void randfillkernel(float *values, int N)
    {
        int tidx = threadIdx.x + blockIdx.x * blockDim.x;
        if (tidx < nstates) {
            curandState_t s = *states[tidx];
            for (int i = tidx; i < N; i += blockDim.x * gridDim.x)
                values[i] = curand_uniform(&s);
            *states[tidx] = s;
        }
    }
    __global__ void arrayfill(curandState_t *st, int seed, float *values, int N)
    {
        int tidx = threadIdx.x + blockIdx.x * blockDim.x;
        curand_init(seed, tidx, 0, &st[tidx]);
        for (int i = tidx; i < N; i += blockDim.x * gridDim.x)
            values[i] = curand_uniform(&st[tidx]);
    }
    """
    n = 256
    mod = SourceModule(code % {"N": n}, no_extern_c=True)
    seed = np.int32(rng.integers(1, 2**31 - 1))
    mod.get_function("_Z10initkerneli")(seed, block=(n, 1, 1), grid=(1, 1, 1))
    got = gpuarray.zeros(10 * n, dtype=np.float32)
    mod.get_function("_Z14randfillkernelPfi")(got, np.int32(got.size), block=(n, 1, 1),
                                              grid=(1, 1, 1))
    from lattice.pycuda import characterize
    states = drv.mem_alloc(n * characterize.sizeof("curandState_t",
                                                   "#include <curand_kernel.h>"))
    want = gpuarray.zeros(10 * n, dtype=np.float32)
    mod.get_function("arrayfill")(states, seed, want, np.int32(want.size), block=(n, 1, 1),
                                  grid=(1, 1, 1))
    g = got.get()
    np.testing.assert_array_equal(g, want.get())
    assert 0 < g.min() and g.max() <= 1 and abs(g.mean() - 0.5) < 0.03


def test_multiprocessing_children_forked_after_the_parent_ran_kernels(backend):
    """Python's multiprocessing forks on Linux: a child of a parent that had run kernels
    on the emulator's OpenMP team waited for ever for the parent's threads. (On a GPU a
    forked child cannot use the parent's CUDA state, as with PyCUDA: emulator only.)"""
    if backend != "emu":
        pytest.skip("a forked child cannot use CUDA that its parent initialised")
    import multiprocessing
    prog = """
import multiprocessing as mp, numpy as np
import lattice.pycuda.autoinit
import lattice.pycuda.gpuarray as ga

def work(i, q):
    y = ga.to_gpu(np.arange(1 << 18, dtype=np.int64) * i)
    q.put((i, int(ga.sum(y * 2 + 1).get())))

if __name__ == "__main__":
    x = ga.to_gpu(np.ones(1 << 20, np.float32))
    assert float(ga.sum(x + x).get()) == 2 * (1 << 20)
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    ps = [ctx.Process(target=work, args=(i, q)) for i in (1, 2)]
    [p.start() for p in ps]
    got = dict(q.get(timeout=120) for _ in ps)
    [p.join(60) for p in ps]
    n = 1 << 18
    for i in (1, 2):
        assert got[i] == i * n * (n - 1) + n, (i, got[i])
    assert [p.exitcode for p in ps] == [0, 0]
    print("ok")
"""
    assert "fork" in multiprocessing.get_all_start_methods()
    r = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


def test_clock64_cycles_over_clock_rate_are_milliseconds(rng):
    """Programs time parts of kernels with clock64() and divide by the device's CLOCK_RATE
    (kHz) to get milliseconds: the rate is never 0 (it divided by zero on the emulator),
    and the interval a kernel measures lies within the host's around the launch."""
    import time
    rate = drv.Context.get_device().get_attribute(drv.device_attribute.CLOCK_RATE)
    assert rate > 0
    mod = SourceModule("""
    __global__ void timed(long long *t, float *x, int n) {
        long long t0 = clock64();
        float v = x[threadIdx.x];
        for (int i = 0; i < n; i++) v = v * 0.999f + 0.5f;
        x[threadIdx.x] = v;
        long long t1 = clock64();
        if (threadIdx.x == 0) { t[0] = t0; t[1] = t1; }
    }""")
    t = gpuarray.zeros(2, np.int64)
    x = gpuarray.to_gpu(rng.standard_normal(32).astype(np.float32))
    start = time.perf_counter()
    mod.get_function("timed")(t, x, np.int32(200000), block=(32, 1, 1))
    drv.Context.synchronize()
    host_ms = (time.perf_counter() - start) * 1e3
    t0, t1 = t.get()
    assert 0 < (t1 - t0) / rate <= host_ms


def test_a_kernel_writing_past_managed_or_mapped_memory_fails_its_launch(backend):
    """Managed and mapped page-locked arrays are host memory kernels write: one written
    past its end (a program indexing by thread over a short array; a GPU's page-sized
    allocations let it pass silently) wrote over the Python heap, and the process died
    at exit ("free(): invalid pointer"). Each is now pages of its own followed by an
    inaccessible one: the launch fails naming the address."""
    if backend != "emu":
        pytest.skip("what a GPU does with such a write is its own")
    prog = """
import numpy as np
import lattice.pycuda.autoinit
import lattice.pycuda.driver as drv
from lattice.pycuda.compiler import SourceModule
f = SourceModule("__global__ void k(float *a) { int i = blockIdx.x * blockDim.x + threadIdx.x;"
                 " a[i] = i; }").get_function("k")
for alloc in (lambda: drv.managed_zeros(160, np.float32),
              lambda: drv.pagelocked_zeros(160, np.float32,
                                           mem_flags=drv.host_alloc_flags.DEVICEMAP)):
    a = alloc()
    base = a.base
    ptr = np.intp(int(base)) if isinstance(base, drv.ManagedAllocation) else \\
        np.intp(base.get_device_pointer())
    f(ptr, block=(160, 1, 1))
    drv.Context.synchronize()
    assert np.array_equal(a, np.arange(160, dtype=np.float32))
    assert int(np.asarray(a).ctypes.data) % 4096 == 0
    try:
        f(ptr, block=(1024, 1, 1), grid=(16, 1))
        drv.Context.synchronize()
        raise SystemExit("no error")
    except drv.LaunchError as e:
        assert "segmentation fault at address" in str(e), e
    del a, base
print("ok")
"""
    r = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


def test_names_pycuda_s_compiled_module_exports_into_driver():
    # pycuda.driver re-exports pycuda._driver's names: the host allocations' base class,
    # bitlog2 and cuRAND's version and direction-vector sets.
    h = drv.pagelocked_empty(8, np.float32)
    assert isinstance(h.base, drv.HostPointer)
    assert drv.bitlog2(1024) == 10 and drv.bitlog2(1025) == 10
    from lattice.pycuda import curandom
    assert drv.get_curand_version() == curandom.get_curand_version()
    assert drv.direction_vector_set is curandom.direction_vector_set
    with pytest.raises(AttributeError):
        drv.no_such_name  # noqa: B018
