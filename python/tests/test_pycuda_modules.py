"""PyCUDA's smaller modules on lattice.pycuda: compyte (dtype registry, stride helpers),
_cluda, _mymako, and the refused ones (gl, sparse) with PyCUDA's import behaviour."""

import importlib
import sys
import warnings

import numpy as np
import pytest

import lattice.pycuda.autoinit  # noqa: F401
from lattice.pycuda import elementwise, gpuarray, tools
from lattice.pycuda.compyte import array as carray
from lattice.pycuda.compyte import dtypes


def test_compyte_registry_is_tools_registry():
    pair = np.dtype([("a", np.int32), ("b", np.float32)])
    assert dtypes.get_or_register_dtype("lattice_compyte_pair", pair) == pair
    assert tools.dtype_to_ctype(pair) == "lattice_compyte_pair"
    assert dtypes.dtype_to_ctype(np.float64) == "double"
    assert dtypes.dtype_to_ctype(np.complex64) == "pycuda::complex<float>"
    arg = tools.parse_c_arg("const lattice_compyte_pair *p")
    assert arg.dtype == pair and arg.name == "p"
    with pytest.raises(RuntimeError):
        dtypes.get_or_register_dtype("lattice_compyte_pair", np.float64)
    with pytest.raises(KeyError):
        dtypes.get_or_register_dtype("no_such_type_name")
    with pytest.raises(ValueError):
        dtypes.dtype_to_ctype(np.dtype([("z", np.int8), ("q", np.int64)]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(RuntimeError):
            dtypes.register_dtype(np.float32, "my_float")
        dtypes.register_dtype(np.float32, "my_float", alias_ok=True)
    assert dtypes.get_or_register_dtype("my_float") == np.float32
    assert dtypes.dtype_to_ctype(np.float32) == "float"


def test_compyte_registered_struct_in_elementwise_kernel():
    rng = np.random.default_rng(11)
    pair = np.dtype([("a", np.float32), ("b", np.float32)])
    pair = dtypes.get_or_register_dtype("lattice_f2pair", pair)
    k = elementwise.ElementwiseKernel(
        "lattice_f2pair *p, float *out", "out[i] = p[i].a * p[i].b",
        "pair_mul", preamble="struct lattice_f2pair { float a, b; };")
    host = np.zeros(1000, pair)
    host["a"] = rng.standard_normal(1000)
    host["b"] = rng.standard_normal(1000)
    out = gpuarray.empty(1000, np.float32)
    k(gpuarray.to_gpu(host), out)
    np.testing.assert_allclose(out.get(), host["a"] * host["b"], rtol=1e-6)


def test_compyte_parse_c_arg_backend():
    got = dtypes.parse_c_arg_backend("volatile unsigned int x[4]", lambda d, n: ("s", d, n),
                                     lambda d, n: ("v", d, n))
    assert got == ("v", np.dtype(np.uint32), "x")
    reg = dtypes.DTypeRegistry()
    dtypes.fill_registry_with_opencl_c_types(reg)
    assert dtypes.parse_c_arg_backend("uint n", lambda d, n: (d, n), None, reg) == \
        (np.dtype(np.uint32), "n")
    with pytest.raises(ValueError):
        dtypes.parse_c_arg_backend("uint n", lambda d, n: (d, n), None, dtypes.DTypeRegistry())


@pytest.mark.parametrize("shape", [(3,), (2, 5), (4, 1, 3), (2, 0, 3), ()])
@pytest.mark.parametrize("dtype", [np.float32, np.complex128, np.int8])
def test_compyte_strides_match_numpy(shape, dtype):
    item = np.dtype(dtype).itemsize
    c = np.empty(shape, dtype)
    f = np.empty(shape, dtype, order="F")
    if 0 not in shape:
        assert carray.c_contiguous_strides(item, shape) == c.strides
        assert carray.f_contiguous_strides(item, shape) == f.strides
    assert carray.is_c_contiguous_strides(c.strides, item, shape)
    assert carray.is_f_contiguous_strides(f.strides, item, shape)
    flags = carray.ArrayFlags(gpuarray.to_gpu(np.asfortranarray(np.ones(shape, dtype))))
    assert flags.f_contiguous and flags.forc
    assert flags.c_contiguous == np.asfortranarray(np.ones(shape, dtype)).flags.c_contiguous


def test_compyte_equal_strides_and_common_dtype():
    assert carray.equal_strides((4, 100), (4, 8), (3, 1))
    assert not carray.equal_strides((4, 100), (4, 8), (3, 2))
    assert not carray.is_c_contiguous_strides((4, 8), 4, (2, 3))
    a = gpuarray.to_gpu(np.arange(6, dtype=np.int32))
    assert carray.get_common_dtype(a, 1.5, True) == np.float64
    assert carray.get_common_dtype(a, 1.5, False) == np.float32
    x = np.arange(12.0).reshape(3, 4)
    y = carray.as_strided(x, (3, 2), (32, 16))
    np.testing.assert_array_equal(y, x[:, ::2])


def test_cluda_preamble_compiles():
    from lattice.pycuda._cluda import CLUDA_PREAMBLE
    from lattice.pycuda.compiler import SourceModule
    mod = SourceModule(CLUDA_PREAMBLE + """
    KERNEL void twice(GLOBAL_MEM float *x) { x[GID_0 * LDIM_0 + LID_0] *= 2; }""",
                       no_extern_c=True)
    rng = np.random.default_rng(3)
    h = rng.standard_normal(256).astype(np.float32)
    d = gpuarray.to_gpu(h)
    mod.get_function("twice")(d.gpudata, block=(64, 1, 1), grid=(4, 1))
    np.testing.assert_allclose(d.get(), 2 * h)


def test_gl_refused_with_import_error():
    for name in ("lattice.pycuda.gl", "lattice.pycuda.gl.autoinit"):
        sys.modules.pop(name, None)
        with pytest.raises(ImportError, match="OpenGL interop"):
            importlib.import_module(name)
    # PyCUDA's own test of the build, which GL programs ask before importing pycuda.gl.
    import lattice.pycuda.driver as drv
    assert drv.have_gl_ext() is False


def test_sparse_warns_and_refuses_its_modules():
    sys.modules.pop("lattice.pycuda.sparse", None)
    with pytest.warns(DeprecationWarning):
        importlib.import_module("lattice.pycuda.sparse")
    for sub in ("packeted", "cg", "coordinate", "operator", "inner", "pkt_build"):
        with pytest.raises(ImportError, match=f"pycuda.sparse.{sub}"):
            importlib.import_module(f"lattice.pycuda.sparse.{sub}")


def test_mymako_is_mako_or_import_error():
    try:
        import mako  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="Mako templating engine"):
            importlib.import_module("lattice.pycuda._mymako")
    else:
        assert hasattr(importlib.import_module("lattice.pycuda._mymako"), "template")
