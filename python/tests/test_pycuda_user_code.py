"""PyCUDA programs from public repositories, course notes and answers, on lattice.pycuda with
only their imports changed: each a pattern such programs rely on beyond PyCUDA's own test
suite, checked against NumPy with random inputs."""

import numpy as np
import pytest

import lattice.pycuda.autoinit  # noqa: F401
import lattice.pycuda.driver as drv
from lattice.pycuda import gpuarray
from lattice.pycuda.compiler import SourceModule
from lattice.pycuda.scan import ExclusiveScanKernel, InclusiveScanKernel


def test_a_scan_reads_same_sized_elements_as_its_own_type(rng):
    # MisanthropicBit/pycuda_examples: an int32 ExclusiveScanKernel run on uint32 data.
    # PyCUDA passes the memory as the scan's type; elements of another size are refused.
    h = rng.integers(1, 101, size=100_000).astype(np.uint32)
    true_sum = h.cumsum() - h
    d = gpuarray.to_gpu(h)
    ExclusiveScanKernel(np.int32, neutral="0", scan_expr="a+b")(d).get(h)
    assert np.array_equal(true_sum, h)
    x = rng.integers(-1000, 1000, size=5000).astype(np.int32)
    got = InclusiveScanKernel(np.uint32, "a+b")(gpuarray.to_gpu(x)).get()
    assert got.dtype == np.int32 and np.array_equal(got, np.cumsum(x, dtype=np.int32))
    with pytest.raises(TypeError, match="another size"):
        InclusiveScanKernel(np.float32, "a+b")(gpuarray.to_gpu(x.astype(np.float64)))


def test_copies_through_the_buffer_of_a_fortran_ordered_array(rng):
    # kbredies/tgv_pycuda: cuda.memcpy_dtoh(u_vis.data, u.gpudata), u_vis an order='F'
    # array: PyCUDA takes any contiguous buffer, column-major included.
    a = rng.random((40, 30, 2)).astype(np.float32, order="F")
    u = gpuarray.to_gpu(a)
    u_vis = np.zeros(a.shape, np.float32, order="F")
    drv.memcpy_dtoh(u_vis.data, u.gpudata)
    assert np.array_equal(u_vis, a)
    b = np.asfortranarray(rng.random((7, 5)))
    d = drv.mem_alloc(b.nbytes)
    drv.memcpy_htod(d, b.data)
    assert np.array_equal(drv.from_device(d, b.shape, b.dtype, order="F"), b)
    with pytest.raises(ValueError, match="contiguous"):
        drv.memcpy_dtoh(np.zeros((40, 60), np.float32)[:, ::2].data, u.gpudata)


def test_views_made_by_assigning_shape_strides_and_gpudata(rng):
    # kbredies/tgv_pycuda's create_slice_view: a channel of an order='F' (nx, ny, chans)
    # array as its own 2-D array, by assigning PyCUDA's plain attributes.
    def create_slice_view(u, num):
        v = u.ravel()
        v.shape = (u.shape[0], u.shape[1])
        v.strides = (u.strides[0], u.strides[1])
        v.gpudata = int(u.gpudata) + u.strides[2] * num
        v.nbytes = u.strides[2]
        v.mem_size = u.shape[0] * u.shape[1]
        return v

    a = rng.random((8, 6, 3)).astype(np.float32, order="F")
    u = gpuarray.to_gpu(a)
    for c in range(3):
        v = create_slice_view(u, c)
        assert v.size == 48 and v.flags.f_contiguous
        assert np.array_equal(v.get(), a[:, :, c])
        assert np.allclose((2 * v).get(), 2 * a[:, :, c])
    mod = SourceModule("__global__ void twice(float *a, int n)"
                       "{ int i = threadIdx.x; if (i < n) a[i] *= 2; }")
    mod.get_function("twice")(create_slice_view(u, 1), np.int32(48), block=(64, 1, 1))
    create_slice_view(u, 2).fill(0)
    b = a.copy()
    b[:, :, 1] *= 2
    b[:, :, 2] = 0
    assert np.array_equal(u.get(), b)
    v = gpuarray.to_gpu(a).ravel()
    with pytest.raises(ValueError, match="mem_size"):
        v.mem_size = 10
    v.dtype = np.int32  # the same memory, read as another type of the same size
    assert np.array_equal(v.get(), a.ravel().view(np.int32))
    with pytest.raises(ValueError, match="view"):
        v.dtype = np.float64


def test_a_device_found_by_its_pci_bus_id():
    # PyCUDA's Device takes a PCI bus id string as well as a number (cuDeviceGetByPCIBusId),
    # as multi-GPU scripts pick their card.
    dev = drv.Device(0)
    bus_id = dev.pci_bus_id()
    assert drv.Device(bus_id) == dev and drv.Device(bus_id.upper()).ordinal == 0
    assert drv.Device(bus_id.split(":", 1)[1]) == dev  # without the domain
    assert drv.Device(np.int64(0)) == dev
    with pytest.raises(drv.LogicError, match="PCI bus id"):
        drv.Device("not a bus id")
    with pytest.raises(drv.LogicError, match="no device"):
        drv.Device("ffff:ff:1f.0")
    with pytest.raises(TypeError):
        drv.Device(1.5)


def test_keyword_arguments_by_pycuda_s_names(rng):
    # PyCUDA's own parameter names, for programs that pass them by keyword.
    from lattice.pycuda import tools
    a = rng.random((3, 4)).astype(np.float32, order="F")
    for f in (drv.pagelocked_zeros_like, drv.aligned_zeros_like):
        z = f(array=a)
        assert z.shape == a.shape and z.dtype == a.dtype and z.flags.f_contiguous
        assert not z.any()
    assert drv.pagelocked_empty_like(array=a).shape == a.shape
    assert tools.DeviceData().align(bytes=100) == 128


def test_ptx_text_names_its_kernels_and_loads_again(rng, tmp_path, backend):
    # tinygrad's PyCUDA backend: compile(target="ptx").decode(), the kernel's name read
    # from its ".visible .entry NAME(" line, module_from_buffer(ptx.encode()).
    from lattice.pycuda.compiler import compile as cuda_compile
    prg = ('extern "C" __global__ void E_4(float *data0, const float *data1)'
           "{ int gidx0 = blockIdx.x; data0[gidx0] = data1[gidx0] * 2.0f; }\n"
           'extern "C" __global__ void plus_one(float *a) { a[threadIdx.x] += 1.0f; }\n')
    try:
        ptx = cuda_compile(prg, target="ptx", no_extern_c=True).decode("utf-8")
    except NotImplementedError:
        if backend == "emu":
            raise
        pytest.skip("NVRTC gave this device a CUBIN, not PTX")
    names = [s.split("(")[0] for s in ptx.split(".visible .entry ")[1:]]
    assert sorted(names) == ["E_4", "plus_one"]
    x = rng.random(64).astype(np.float32)
    a, out = gpuarray.to_gpu(x), gpuarray.empty(64, np.float32)
    drv.module_from_buffer(ptx.encode("utf-8")).get_function("E_4")(
        out, a, block=(1, 1, 1), grid=(64, 1))
    assert np.array_equal(out.get(), 2 * x)
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    drv.module_from_file(str(path)).get_function("plus_one")(out, block=(64, 1, 1))
    assert np.array_equal(out.get(), 2 * x + 1)


def test_arrays_of_vector_types_pass_to_kernels_and_refuse_arithmetic(rng):
    # Blog posts on passing float4 to PyCUDA kernels: an (n, 4) float32 array viewed as
    # gpuarray.vec.float4, or a NumPy struct dtype with align=True, given to a float4*.
    mod = SourceModule("""
    __global__ void scale(float4 *v, float s, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) { float4 a = v[i]; v[i] = make_float4(a.x*s, a.y*s, a.z*s, a.w*s); }
    }""")
    raw = rng.random((100, 4)).astype(np.float32)
    g = gpuarray.to_gpu(raw.view(gpuarray.vec.float4).reshape(100))
    mod.get_function("scale")(g, np.float32(3), np.int32(100), block=(128, 1, 1))
    assert np.allclose(g.get().view(np.float32).reshape(100, 4), 3 * raw)
    # Struct types have no arithmetic (NumPy's ufuncs have none): a TypeError up front,
    # not a compile error of lattice's generated kernel.
    for op in (lambda: g + g, lambda: -g, lambda: abs(g), lambda: gpuarray.sum(g),
               lambda: gpuarray.max(g), lambda: gpuarray.dot(g, g)):
        with pytest.raises(TypeError, match="struct type"):
            op()
    with pytest.raises(NotImplementedError, match="fields"):
        g == g  # noqa: B015


def test_an_extra_trailing_argument_is_ignored_as_cuda_ignores_it(rng):
    # xs2445/CNN-PyCUDA-EECS4750-Project's hw3 notebook passes its tile size to a 5-parameter
    # convolution kernel; PyCUDA packs it past the parameters and CUDA ignores it, so the
    # notebook's checks against SciPy passed. Too few arguments stay an error.
    mod = SourceModule("""
    __global__ void conv_rows(float *N, float *P, float *M, int height, int width) {
        int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y;
        if (row < height && col < width) {
            float acc = 0.0f;
            for (int j = -1; j <= 1; j++)
                if (col + j >= 0 && col + j < width) acc += N[row * width + col + j] * M[1 - j];
            P[row * width + col] = acc;
        }
    }""")
    f = mod.get_function("conv_rows")
    n = rng.random((5, 40)).astype(np.float32)
    m = rng.random(3).astype(np.float32)
    p = np.empty_like(n)
    with pytest.warns(UserWarning, match="1 ignored"):
        f(drv.In(n), drv.Out(p), drv.In(m), np.int32(5), np.int32(40), np.int32(12),
          block=(64, 1, 1), grid=(1, 5))
    ref = np.array([np.convolve(r, m, mode="same") for r in n])
    assert np.allclose(p, ref, rtol=1e-5)
    with pytest.raises(TypeError, match="4 arguments given"):
        f(drv.In(n), drv.Out(p), drv.In(m), np.int32(5), block=(64, 1, 1))


def test_a_kernel_opted_in_to_more_than_48_kib_of_dynamic_shared_memory(rng):
    # Tiled kernels with big tiles: func.set_attribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 KiB),
    # then a launch with shared=64 KiB, as CUDA programs do after cudaFuncSetAttribute.
    dev = drv.Context.get_device()
    optin = dev.get_attribute(drv.device_attribute.MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
    n = 16384
    if optin < n * 4:
        pytest.skip(f"this backend opts kernels in to {optin} bytes at most")
    mod = SourceModule("""
    __global__ void flip(const float *in, float *out, int n)
    {
        extern __shared__ float tile[];
        for (int i = threadIdx.x; i < n; i += blockDim.x) tile[i] = in[i];
        __syncthreads();
        for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = tile[n - 1 - i] + 1.0f;
    }
    """)
    flip = mod.get_function("flip")
    flip.set_attribute(drv.function_attribute.MAX_DYNAMIC_SHARED_SIZE_BYTES, n * 4)
    a = rng.random(n).astype(np.float32)
    out = np.empty_like(a)
    flip(drv.In(a), drv.Out(out), np.int32(n), block=(256, 1, 1), grid=(1, 1), shared=n * 4)
    assert np.array_equal(out, a[::-1] + np.float32(1))
    with pytest.raises(drv.LogicError):
        flip.set_attribute(drv.function_attribute.MAX_DYNAMIC_SHARED_SIZE_BYTES, optin + 1)
