"""PyCUDA's driver, tools, characterize and curandom API on lattice.pycuda: what PyCUDA's own
tests and programs use, as PyCUDA documents it (each refused feature raises, saying so)."""

import os
import subprocess
import sys

import numpy as np
import pytest

import lattice.pycuda.autoinit  # noqa: F401
import lattice.pycuda.driver as drv
from lattice.pycuda import characterize, curandom, gpuarray, tools
from lattice.pycuda._vec import vec
from lattice.pycuda.compiler import DynamicModule, SourceModule

KERNELS = r"""
__global__ void axpb(float *y, const float *x, double a, int b, unsigned long long n)
{
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = (float)(a * x[i] + b);
}
__global__ void shift(float3 *out, float3 d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { out[i].x += d.x; out[i].y += d.y; out[i].z += d.z; }
}
"""


@pytest.fixture(scope="module")
def mod():
    return SourceModule(KERNELS)


# ---- versions and the device ------------------------------------------------------------

def test_versions_are_the_cuda_the_backend_follows(backend):
    v = drv.get_driver_version()
    if backend == "emu":
        assert v == 12080
    assert v >= 11000
    assert drv.get_version() == (v // 1000, v % 1000 // 10, 0)
    # PyCUDA's guard for texture references skips on CUDA 12.
    assert drv.get_driver_version() // 1000 >= 12 or backend != "emu"


def test_emulated_memory_is_bounded_and_reported():
    code = ("import lattice.pycuda.autoinit, lattice.pycuda.driver as drv;"
            "print(drv.Context.get_device().total_memory(), *drv.mem_get_info())")
    env = dict(os.environ, LATTICE_BACKEND="emu", LATTICE_EMU_MEMORY="96M")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    total, free, total2 = map(int, out)
    assert total == total2 == 96 << 20 and free <= total


def test_device_attributes_by_enum_name_and_property():
    dev = drv.Context.get_device()
    assert dev.get_attribute(drv.device_attribute.WARP_SIZE) == 32
    assert dev.warp_size == 32
    assert dev.max_threads_per_block == dev.get_attribute("MAX_THREADS_PER_BLOCK")
    attrs = dev.get_attributes()
    assert attrs[drv.device_attribute.MAX_THREADS_PER_BLOCK] == dev.max_threads_per_block
    with pytest.raises(TypeError):
        dev.get_attribute(10)  # a bare int is ambiguous: the enum member is asked for
    with pytest.raises(AttributeError):
        dev.no_such_attribute


def test_contexts_push_pop_and_primary():
    before = drv.Context.get_current()
    ctx = drv.Context.get_device().make_context()
    assert drv.Context.get_current() is ctx
    a = drv.mem_alloc(64)
    assert int(a) != 0
    assert drv.Context.pop() is None  # PyCUDA's pop returns nothing
    assert drv.Context.get_current() is before
    p = drv.Context.get_device().retain_primary_context()
    p.push()
    drv.mem_alloc(16)
    p.detach()
    ctx.detach()


# ---- memory and arguments ------------------------------------------------------------------

class Wrapped(drv.PointerHolderBase):
    def __init__(self, alloc):
        super().__init__()
        self.alloc = alloc

    def get_pointer(self):
        return int(self.alloc)


def test_pointer_holder_and_intp_offsets_and_mem_alloc_like(mod, rng):
    x = rng.standard_normal(300).astype(np.float32)
    xd = drv.mem_alloc_like(x)
    assert xd.nbytes == x.nbytes
    drv.memcpy_htod(xd, x)
    y = Wrapped(drv.mem_alloc(x.nbytes))
    k = mod.get_function("axpb")
    k(y, np.intp(int(xd)) + 4, np.float64(2.5), np.int32(-3), np.uint64(299), block=(128, 1, 1),
      grid=(3, 1))
    out = np.zeros_like(x)
    drv.memcpy_dtoh(out, y)
    np.testing.assert_allclose(out[:299], (2.5 * x[1:].astype(np.float64) - 3).astype(np.float32))
    g = gpuarray.GPUArray((300,), np.float32, gpudata=y)
    np.testing.assert_array_equal(g.get(), out)


def test_prepared_calls_convert_by_their_declared_types(mod, rng):
    x = rng.standard_normal(1000).astype(np.float32)
    xd, yd = drv.to_device(x), drv.mem_alloc(x.nbytes)
    k = mod.get_function("axpb")
    assert k.prepare("PPdiQ") is k
    k.prepared_call((8, 1), (128, 1, 1), yd, xd, 1.5, 7, 1000)  # Python numbers, as PyCUDA
    ref = (1.5 * x.astype(np.float64) + 7).astype(np.float32)
    np.testing.assert_allclose(drv.from_device_like(yd, x), ref)
    k.prepare([np.intp, np.intp, np.float64, np.int32, np.uint64])
    s = drv.Stream()
    k.prepared_async_call((8, 1), (128, 1, 1), s, yd, xd, -1.0, 2, 1000)
    s.synchronize()
    np.testing.assert_allclose(drv.from_device_like(yd, x),
                               (-x.astype(np.float64) + 2).astype(np.float32))
    secs = k.prepared_timed_call((8, 1), (128, 1, 1), yd, xd, 0.0, 1, 1000)()
    assert secs >= 0 and (drv.from_device_like(yd, x) == 1).all()
    with pytest.raises(TypeError, match="prepared with 5"):
        k.prepared_call((8, 1), (128, 1, 1), yd, xd)
    with pytest.raises(TypeError, match="float"):
        k.prepared_call((8, 1), (128, 1, 1), yd, xd, 1.0, 2.5, 1000)
    with pytest.raises(OverflowError):
        k.prepared_call((8, 1), (128, 1, 1), yd, xd, 1.0, 2**40, 1000)
    with pytest.raises(ValueError):
        k.prepare("PPxq")


def test_vector_types_by_value(mod, rng):
    n = 100
    pts = np.zeros(n, vec.float3)
    for f in "xyz":
        pts[f] = rng.standard_normal(n)
    d = vec.make_float3(1, -2, 0.5)
    assert vec.float3.itemsize == 12 and tools.dtype_to_ctype(vec.float3) == "float3"
    out = pts.copy()
    k = mod.get_function("shift")
    k(drv.InOut(out), d, np.int32(n), block=(128, 1, 1))
    for f, dv in zip("xyz", (1, -2, 0.5)):
        np.testing.assert_allclose(out[f], pts[f] + np.float32(dv))
    k.prepare([np.intp, vec.float3, np.int32])
    out2 = drv.to_device(pts)
    k.prepared_call((1, 1), (128, 1, 1), out2, d, n)
    np.testing.assert_array_equal(drv.from_device_like(out2, pts), out)


def test_function_attributes_and_refusals(mod):
    k = mod.get_function("axpb")
    assert k.max_threads_per_block >= 1
    assert k.get_attribute(drv.function_attribute.MAX_THREADS_PER_BLOCK) == \
        k.max_threads_per_block
    with pytest.raises(NotImplementedError, match="texture references"):
        k(np.intp(0), np.intp(0), 1.0, 1, 0, block=(1, 1, 1), texrefs=[object()])
    with pytest.raises(NotImplementedError, match="texture references"):
        mod.get_texref("t")
    with pytest.raises(NotImplementedError, match="texture references"):
        drv.Array(drv.ArrayDescriptor3D())
    with pytest.raises(NotImplementedError, match="texture references"):
        drv.np_to_array(np.zeros((2, 2), np.float32), "C")
    with pytest.raises(NotImplementedError, match="rdc"):
        DynamicModule()
    with pytest.raises(TypeError, match="Stream"):
        k(np.intp(0), np.intp(0), 1.0, 1, 0, block=(1, 1, 1), stream=42)


def test_source_module_takes_bytes_and_objects():
    class Template:
        def __str__(self):
            return "__global__ void one(int *p) { *p = 1; }"

    for src in (Template(), b"__global__ void one(int *p) { *p = 1; }"):
        out = np.zeros(1, np.int32)
        SourceModule(src).get_function("one")(drv.Out(out), block=(1, 1, 1))
        assert out[0] == 1


def test_event_flags_disable_timing():
    start, end = drv.Event(), drv.Event(drv.event_flags.DISABLE_TIMING)
    start.record()
    end.record()
    end.synchronize()
    with pytest.raises(drv.Error):
        end.time_since(start)


def test_array_descriptors_and_formats():
    d = drv.ArrayDescriptor3D()
    d.width, d.height, d.depth = 2, 4, 8
    d.format = drv.dtype_to_array_format(np.float32)
    assert d.format == drv.array_format.FLOAT
    with pytest.raises(ValueError):
        drv.dtype_to_array_format(np.float64)


# ---- tools ----------------------------------------------------------------------------------

def test_bitlog2_and_pool_bins(rng):
    assert [tools.bitlog2(v) for v in (1, 17, 0xAFFE, 0x3AFFE, 0xCC3AFFE)] == [0, 4, 15, 17, 27]
    pool = tools.DeviceMemoryPool()
    for s in rng.integers(0, 1 << 40, 500):
        b = pool.bin_number(int(s))
        assert pool.alloc_size(b) >= s and pool.bin_number(pool.alloc_size(b)) == b


def test_device_memory_pool_holds_and_reuses_blocks(rng):
    pool = tools.DeviceMemoryPool()
    a = pool.allocate(1000)
    x = rng.standard_normal(250).astype(np.float32)
    drv.memcpy_htod(a, x)
    np.testing.assert_array_equal(drv.from_device_like(a, x), x)
    ptr = int(a)
    assert (pool.active_blocks, pool.held_blocks) == (1, 0)
    a.free()
    assert (pool.active_blocks, pool.held_blocks) == (0, 1)
    b = pool.allocate(1001)  # same bin: the held block comes back
    assert int(b) == ptr and pool.held_blocks == 0
    del b
    assert pool.held_blocks == 1
    pool.free_held()
    assert pool.held_blocks == 0 and pool.managed_bytes == 0
    pool.stop_holding()
    pool.allocate(10).free()
    assert pool.held_blocks == 0


def test_page_locked_pool_returns_memory_when_arrays_die():
    pool = tools.PageLockedMemoryPool()
    a = pool.allocate((10, 3), np.float64, order="F")
    assert a.shape == (10, 3) and a.flags.f_contiguous and a.dtype == np.float64
    view = a[2:]
    del a
    assert pool.active_blocks == 1  # the view keeps the block
    del view
    assert (pool.active_blocks, pool.held_blocks) == (0, 1)


def test_dtype_registry_and_c_arguments():
    assert tools.dtype_to_ctype(np.complex64) == "pycuda::complex<float>"
    assert tools.dtype_to_ctype(np.int64) == "long"
    arg = tools.parse_c_arg("const float *__restrict__ x")
    assert isinstance(arg, tools.VectorArg) and arg.dtype == np.float32 and arg.name == "x"
    arg = tools.parse_c_arg("unsigned int n")
    assert isinstance(arg, tools.ScalarArg) and arg.dtype == np.uint32
    assert arg.declarator() == "unsigned n" and arg.struct_char == "I"
    pair = np.dtype([("lo", np.float32), ("hi", np.float32)])
    assert tools.get_or_register_dtype("lattice_test_pair", pair) == pair
    assert tools.dtype_to_ctype(pair) == "lattice_test_pair"
    assert tools.get_or_register_dtype("lattice_test_pair") == pair
    with pytest.raises(RuntimeError):
        tools.get_or_register_dtype("lattice_test_pair", np.float64)
    with pytest.raises(ValueError, match="unknown type"):
        tools.parse_c_arg("mystery_t *p")


def test_context_dependent_memoize_per_context():
    calls = []

    @tools.context_dependent_memoize
    def f(x):
        calls.append(x)
        return x * 2

    assert f(3) == 6 and f(3) == 6 and calls == [3]
    ctx = drv.Context.get_device().make_context()
    try:
        assert f(3) == 6 and calls == [3, 3]
    finally:
        drv.Context.pop()
        ctx.detach()
    tools.clear_context_caches()
    assert f(3) == 6 and calls == [3, 3, 3]


def test_mark_cuda_test_and_fixture_make_and_pop_a_context():
    before = drv.Context.get_current()
    seen = []

    @tools.mark_cuda_test
    def inner():
        seen.append(drv.Context.get_current())

    inner()
    assert seen[0] is not before and drv.Context.get_current() is before
    gen = tools.init_cuda_context_fixture()
    next(gen)
    assert drv.Context.get_current() is not before
    with pytest.raises(StopIteration):
        next(gen)
    assert drv.Context.get_current() is before


def test_device_data_and_occupancy():
    dd = tools.DeviceData()
    assert dd.warp_size == 32 and dd.max_threads >= 256
    occ = tools.OccupancyRecord(dd, 256)
    assert 0 < occ.occupancy <= 1 and occ.tb_per_mp >= 1


# ---- characterize -----------------------------------------------------------------------

def test_characterize():
    assert characterize.platform_bits() == 64
    assert characterize.has_double_support() and characterize.has_stack()
    assert characterize.sizeof("float3") == 12
    assert characterize.sizeof("struct s", "struct s { double a; char b; };") == 16


# ---- curandom -------------------------------------------------------------------------------

def test_rand_of_every_dtype_pycuda_has():
    np.random.seed(3)
    f = curandom.rand((4000,), np.float64).get()
    assert f.dtype == np.float64 and 0 <= f.min() and f.max() < 1 and abs(f.mean() - .5) < .05
    i = curandom.rand((4000,), np.int32).get()
    assert i.dtype == np.int32 and i.min() < -2**30 and i.max() > 2**30
    u = curandom.rand((4000,), np.uint32).get()
    assert u.dtype == np.uint32 and u.max() > 3 * 2**30
    np.random.seed(3)
    np.testing.assert_array_equal(curandom.rand((4000,), np.float64).get(), f)
    with pytest.raises(NotImplementedError):
        curandom.rand((10,), np.int64)


def test_xorwow_generator_distributions():
    gen = curandom.XORWOWRandomNumberGenerator(curandom.seed_getter_unique)
    u = gen.gen_uniform(20000, np.float32).get()
    assert 0 < u.min() and u.max() <= 1 and abs(u.mean() - 0.5) < 0.02
    for n in (20000, 20001):  # Box-Muller pairs and single draws
        z = gen.gen_normal(n, np.float64).get()
        assert abs(z.mean()) < 0.05 and abs(z.std() - 1) < 0.05
    ln = gen.gen_log_normal(20000, np.float32, 1.0, 0.5).get()
    assert abs(np.log(ln).mean() - 1) < 0.05 and abs(np.log(ln).std() - 0.5) < 0.05
    w = gen.gen_uniform(20000, np.uint32).get()
    assert w.max() > 3 * 2**30
    p = gen.gen_poisson(20000, np.uint32, 3.0).get()
    assert abs(p.mean() - 3) < 0.1 and abs(p.var() - 3) < 0.3


def test_xorwow_is_reproducible_from_its_seeds():
    seeds = lambda n: gpuarray.to_gpu(np.arange(n, dtype=np.int32))  # noqa: E731
    a = curandom.XORWOWRandomNumberGenerator(seeds).gen_uniform(5000, np.float64).get()
    b = curandom.XORWOWRandomNumberGenerator(seeds).gen_uniform(5000, np.float64).get()
    np.testing.assert_array_equal(a, b)
    assert curandom.get_curand_version() >= (10, 0, 0)


def test_pitched_memory_and_2d_3d_copies(rng):
    a = rng.standard_normal((7, 5)).astype(np.float32)
    d, pitch = drv.mem_alloc_pitch(5 * 4, 7, 4)
    assert pitch >= 20 and d.nbytes == pitch * 7
    c = drv.Memcpy2D()
    c.set_src_host(a)
    c.set_dst_device(d)
    c.width_in_bytes = c.src_pitch = 20
    c.dst_pitch, c.height = pitch, 7
    c(aligned=True)
    out = np.zeros((5, 3), np.float32)
    c = drv.Memcpy2D()
    c.set_src_device(d)
    c.set_dst_host(out)
    c.src_x_in_bytes, c.src_y, c.src_pitch = 4, 1, pitch
    c.dst_pitch = c.width_in_bytes = 12
    c.height = 5
    c()
    np.testing.assert_array_equal(out, a[1:6, 1:4])
    s = drv.Stream()
    out2 = np.zeros_like(out)
    c.set_dst_host(out2)
    c(s)
    s.synchronize()
    np.testing.assert_array_equal(out2, out)
    c.set_dst_host(np.zeros(3, np.float32))  # too small: refused, never written past
    with pytest.raises(ValueError, match="holds 12 bytes"):
        c()
    b = rng.standard_normal((4, 6, 5)).astype(np.float32)
    dd = drv.mem_alloc(b.nbytes)
    m = drv.Memcpy3D()
    m.set_src_host(b)
    m.set_dst_device(dd)
    m.width_in_bytes = m.src_pitch = m.dst_pitch = 20
    m.height, m.depth = 6, 4
    m()
    np.testing.assert_array_equal(drv.from_device_like(dd, b), b)
    sub = np.zeros((2, 3, 5), np.float32)
    m = drv.Memcpy3D()
    m.set_src_device(dd)
    m.set_dst_host(sub)
    m.width_in_bytes = m.src_pitch = m.dst_pitch = 20
    m.src_height, m.src_y, m.src_z, m.height, m.depth = 6, 2, 1, 3, 2
    m()
    np.testing.assert_array_equal(sub, b[1:3, 2:5])
    with pytest.raises(NotImplementedError):
        m.set_src_array(None)


def test_a_host_array_is_a_struct_by_value_where_the_parameter_is_one(rng):
    # PyCUDA passes an ndarray's bytes by value; lattice does where the kernel takes a
    # struct of that size, and refuses it for a pointer (the array is not device memory).
    mod = SourceModule("""
    struct P { float a; int b; double c; };
    __global__ void k(double *o, P p, float *q) { *o = p.a + p.b + p.c; }""")
    dt = np.dtype([("a", np.float32), ("b", np.int32), ("c", np.float64)])
    p = np.array([(rng.standard_normal(), 7, rng.standard_normal())], dt)
    o = np.zeros(1)
    mod.get_function("k")(drv.Out(o), p, np.intp(0), block=(1, 1, 1))
    # C: float + int is float, then + double.
    assert o[0] == np.float64(p["a"][0] + np.float32(7)) + p["c"][0]
    with pytest.raises(TypeError, match="host array"):
        mod.get_function("k")(drv.Out(o), p, np.zeros(3, np.float32), block=(1, 1, 1))
    with pytest.raises(TypeError, match="host array"):
        mod.get_function("k")(drv.Out(o), np.zeros(2, dt), np.intp(0), block=(1, 1, 1))


def test_peer_copies_and_2d_memsets(rng):
    x = rng.integers(0, 2**31, 64).astype(np.int32)
    a = drv.to_device(x)
    ctx2 = drv.Context.get_device().make_context()
    try:
        b = drv.mem_alloc(x.nbytes)
        drv.memcpy_peer(b, a, x.nbytes)
        np.testing.assert_array_equal(drv.from_device_like(b, x), x)
    finally:
        drv.Context.pop()
    d, pitch = drv.mem_alloc_pitch(40, 6, 4)
    drv.memset_d8(d, 0, pitch * 6)
    drv.memset_d2d32(d, pitch, 0x01020304, 5, 6)  # 5 words of each row
    rows = drv.from_device(d, (6, pitch // 4), np.uint32)
    assert (rows[:, :5] == 0x01020304).all() and (rows[:, 5:] == 0).all()
    with pytest.raises(ValueError, match="pitch"):
        drv.memset_d2d32(d, 16, 0, 5, 2)
    assert drv.ArgumentHandler is type(drv.In(x)).__mro__[1]
    with pytest.raises(NotImplementedError, match="IPC"):
        drv.mem_get_ipc_handle(a)


def test_compile_gives_device_code_where_the_backend_has_some(backend):
    from lattice.pycuda.compiler import compile as cuda_compile
    src = "__global__ void one(int *p) { *p = 1; }"
    if backend == "emu":
        ptx = cuda_compile(src, target="ptx")  # text, not PTX: it names the kernels
        assert b"// .visible .entry one(" in ptx and b"host code" in ptx
        for code in (cuda_compile(src), ptx):  # lattice's image of the source
            out = np.zeros(1, np.int32)
            drv.module_from_buffer(code).get_function("one")(drv.Out(out), block=(1, 1, 1))
            assert out[0] == 1
        return
    try:
        code = cuda_compile(src)
    except NotImplementedError as e:  # NVRTC gave PTX: the other target is there
        assert "produced ptx" in str(e)
        code = cuda_compile(src, target="ptx")
    out = np.zeros(1, np.int32)
    drv.module_from_buffer(code).get_function("one")(drv.Out(out), block=(1, 1, 1))
    assert out[0] == 1


def test_page_locked_mapped_and_registered_host_memory(rng):
    a = drv.pagelocked_empty((40, 3), np.float32, order="F",
                             mem_flags=drv.host_alloc_flags.DEVICEMAP)
    assert isinstance(a.base, drv.PagelockedHostAllocation) and a.flags.f_contiguous
    x = rng.standard_normal((40, 3)).astype(np.float32)
    a[:] = x
    mod = SourceModule("__global__ void dbl(float *p, int n)"
                       "{ int i = threadIdx.x; if (i < n) p[i] *= 2; }")
    # Mapped memory: the kernel works on the host array itself.
    mod.get_function("dbl")(np.intp(a.base.get_device_pointer()), np.int32(a.size),
                            block=(128, 1, 1))
    drv.Context.synchronize()
    np.testing.assert_array_equal(a, 2 * x)
    plain = drv.pagelocked_zeros_like(a)  # Fortran order too: the copies move raw bytes
    assert (plain == 0).all() and plain.base.get_flags() == 0
    with pytest.raises(drv.LogicError, match="DEVICEMAP"):
        plain.base.get_device_pointer()
    s = drv.Stream()
    d = drv.mem_alloc(x.nbytes)
    drv.memcpy_htod_async(d, a, s)
    drv.memcpy_dtoh_async(plain, d, s)
    s.synchronize()
    np.testing.assert_array_equal(plain, 2 * x)
    b = rng.standard_normal(64)
    r = drv.register_host_memory(b)
    assert isinstance(r.base, drv.RegisteredHostMemory) and r.base.base is b
    np.testing.assert_array_equal(r, b)
    r.base.unregister()
    with pytest.raises(ValueError):
        drv.pagelocked_empty(4, np.float32, mem_flags=64)


def test_page_locked_arrays_outlive_their_context(rng):
    ctx = drv.Context.get_device().make_context()
    a = drv.pagelocked_empty(1000, np.float64)
    x = rng.standard_normal(1000)
    a[:] = x
    drv.Context.pop()
    ctx.detach()  # the registration ends; the array's memory does not
    np.testing.assert_array_equal(a, x)
    a.base.free()
    a *= 2
    np.testing.assert_array_equal(a, 2 * x)


def test_source_module_has_nvccs_host_types_and_counts_lines_as_written():
    # PyCUDA's examples (matrixmul_tiled.py) use uint, which nvcc's host headers define.
    mod = SourceModule("__global__ void k(uint *o, ushort s, ulong t)\n"
                       "{ uint i = threadIdx.x; o[i] = i * s + (uint)t; }\n")
    o = np.zeros(16, np.uint32)
    s, t = np.random.randint(1, 100), np.random.randint(0, 1000)
    mod.get_function("k")(drv.Out(o), np.uint16(s), np.uint64(t), block=(16, 1, 1))
    assert (o == np.arange(16, dtype=np.uint32) * s + t).all()
    # the line as written (the host types come before a #line 1); each compiler's words:
    # the emulator's "kernel.cu:3:12: error: 'nothing_here' undeclared", NVRTC's
    # "kernel.cu:3: error: identifier "nothing_here" is undefined"
    with pytest.raises(Exception, match=r"kernel.cu:3(:\d+)?: error: .*nothing_here.* (undeclared|is undefined)"):
        SourceModule("__global__ void bad(float *o)\n{\n    o[0] = nothing_here;\n}\n")
