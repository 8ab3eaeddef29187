"""Kernels with #include <pycuda-complex.hpp>: pycuda::complex<float> and <double>, their
arithmetic and functions, against NumPy's complex128 on random values."""

import numpy as np
import pytest

import lattice.pycuda.autoinit  # noqa: F401
import lattice.pycuda.driver as drv
from lattice.pycuda.compiler import SourceModule

BODY = r"""
extern "C" __global__ void NAME(const pycuda::complex<T> *a, const pycuda::complex<T> *b,
                                pycuda::complex<T> *out, T s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    typedef pycuda::complex<T> C;
    C x = a[i], y = b[i];
    C *o = out + 24 * i;
    o[0] = x + y; o[1] = x - y; o[2] = x * y; o[3] = x / y;
    o[4] = x * s + s / y - (s - x);
    o[5] = C(pycuda::abs(x), pycuda::arg(x));
    o[6] = C(pycuda::norm(x), pycuda::real(y) + y.imag());
    o[7] = pycuda::conj(x); o[8] = pycuda::sqrt(x); o[9] = pycuda::exp(x);
    o[10] = pycuda::log(x); o[11] = pycuda::log10(x); o[12] = pycuda::pow(x, y);
    o[13] = pycuda::pow(x, s); o[14] = pycuda::pow(s, y); o[15] = pycuda::pow(x, -3);
    o[16] = pycuda::sin(x); o[17] = pycuda::cos(x); o[18] = pycuda::tan(x);
    o[19] = pycuda::sinh(x); o[20] = pycuda::cosh(x); o[21] = pycuda::tanh(x);
    C z = x; z += y; z *= y; z -= s; z /= y; o[22] = z;
    o[23] = C(x == y ? 1 : 0, x != x ? 1 : 0) + pycuda::polar(s, s) + (s == x ? 1 : 0);
}
"""


def reference(a, b, s):
    A, B, S = a.astype(np.complex128), b.astype(np.complex128), float(s)
    return [A + B, A - B, A * B, A / B, A * S + S / B - (S - A), np.abs(A) + 1j * np.angle(A),
            np.abs(A)**2 + 1j * (B.real + B.imag), np.conj(A), np.sqrt(A), np.exp(A),
            np.log(A), np.log10(A), A ** B, A ** S, S ** B, A ** -3.0, np.sin(A), np.cos(A),
            np.tan(A), np.sinh(A), np.cosh(A), np.tanh(A), ((A + B) * B - S) / B,
            (A == B) + 0j + S * np.exp(1j * S) + (A == S)]


@pytest.fixture(scope="module")
def mod():
    src = ("#include <pycuda-complex.hpp>\n" + BODY.replace("NAME", "kf").replace("T", "float")
           + BODY.replace("NAME", "kd").replace("T", "double"))
    return SourceModule(src, no_extern_c=True)


@pytest.mark.parametrize("name, ctype, rtype, rtol", [
    ("kf", np.complex64, np.float32, 1e-4), ("kd", np.complex128, np.float64, 1e-11)])
def test_arithmetic_and_functions_match_numpy(mod, rng, name, ctype, rtype, rtol):
    n = 1000
    a = (rng.uniform(-3, 3, n) + 1j * rng.uniform(-3, 3, n)).astype(ctype)
    b = (rng.uniform(-3, 3, n) + 1j * rng.uniform(-3, 3, n)).astype(ctype)
    s = rtype(rng.uniform(0.5, 2))
    out = np.zeros((n, 24), ctype)
    mod.get_function(name)(drv.In(a), drv.In(b), drv.Out(out), s, np.int32(n),
                           block=(128, 1, 1), grid=((n + 127) // 128, 1))
    for k, ref in enumerate(reference(a, b, s)):
        err = np.abs(out[:, k] - ref) / np.maximum(1, np.abs(ref))
        assert err.max() < rtol, f"result {k}: relative error {err.max():.3g}"


def test_inside_pycudas_extern_c_and_across_precisions(rng):
    # PyCUDA's default wraps the source in extern "C"; the header is still C++.
    mod = SourceModule(r"""
    #include <pycuda-complex.hpp>
    __global__ void k(pycuda::complex<float> *a, const pycuda::complex<double> *b)
    {
        int i = threadIdx.x;
        a[i] = pycuda::exp(a[i]) * pycuda::complex<float>(b[i]) + 2.0f;
    }""")
    a = (rng.uniform(-1, 1, 64) + 1j * rng.uniform(-1, 1, 64)).astype(np.complex64)
    b = (rng.uniform(-1, 1, 64) + 1j * rng.uniform(-1, 1, 64)).astype(np.complex128)
    r = a.copy()
    mod.get_function("k")(drv.InOut(r), drv.In(b), block=(64, 1, 1))
    ref = np.exp(a.astype(np.complex128)) * b.astype(np.complex64) + 2
    np.testing.assert_allclose(r, ref, rtol=2e-6, atol=2e-6)


def test_narrowing_a_complex_is_explicit():
    # As PyCUDA's: complex<double> to complex<float> needs a cast, never happens silently.
    with pytest.raises(drv.Error):
        SourceModule(r"""
        #include <pycuda-complex.hpp>
        __global__ void k(pycuda::complex<float> *a, pycuda::complex<double> d)
        { pycuda::complex<float> f = d; a[0] = f; }""", no_extern_c=True)


def test_a_function_template_over_pycuda_complex(rng):
    mod = SourceModule(r"""
    #include <pycuda-complex.hpp>
    template <class T>
    __device__ void body(const pycuda::complex<T> *a, pycuda::complex<T> *o, T s)
    { o[threadIdx.x] = pycuda::exp(a[threadIdx.x]) * s + a[threadIdx.x] * a[threadIdx.x]; }
    extern "C" __global__ void kf(const pycuda::complex<float> *a, pycuda::complex<float> *o,
                                  float s) { body(a, o, s); }
    extern "C" __global__ void kd(const pycuda::complex<double> *a,
                                  pycuda::complex<double> *o, double s) { body<double>(a, o, s); }
    """, no_extern_c=True)
    for name, ct, rt, tol in (("kf", np.complex64, np.float32, 1e-5),
                              ("kd", np.complex128, np.float64, 1e-13)):
        a = (rng.standard_normal(32) + 1j * rng.standard_normal(32)).astype(ct)
        o = np.zeros_like(a)
        s = rt(rng.uniform(0.5, 2))
        mod.get_function(name)(drv.In(a), drv.Out(o), s, block=(32, 1, 1))
        A = a.astype(np.complex128)
        np.testing.assert_allclose(o, np.exp(A) * float(s) + A * A, rtol=tol, atol=tol)


def test_numbers_for_complex_parameters_as_pycuda_s_prepared_calls_pack_them(rng):
    """ElementwiseKernel's calls are prepared in PyCUDA, whose 'F'/'D' codes pack a Python
    or NumPy number as the complex parameter: a(2), a(2.5), a(2+1j) for a
    pycuda::complex<float> a. lattice refused every one that was not an np.complex64."""
    import lattice.pycuda.gpuarray as gpuarray
    from lattice.pycuda.elementwise import ElementwiseKernel
    k = ElementwiseKernel("pycuda::complex<float> a, pycuda::complex<float> *x, "
                          "pycuda::complex<float> *y", "y[i] = a * x[i]", "cscal")
    x = (rng.standard_normal(300) + 1j * rng.standard_normal(300)).astype(np.complex64)
    xg = gpuarray.to_gpu(x)
    yg = gpuarray.empty_like(xg)
    for a in (2, 2.5, np.float32(-1.5), np.int32(3), 2 + 1j, np.complex128(-1 + 0.5j)):
        k(a, xg, yg)
        np.testing.assert_allclose(yg.get(), (np.complex64(a) * x), rtol=1e-6, atol=1e-6)
    mod = SourceModule("""
    #include <pycuda-complex.hpp>
    #include <cuComplex.h>
    __global__ void k(pycuda::complex<double> *o, pycuda::complex<float> a,
                      pycuda::complex<double> b, cuFloatComplex c, cuDoubleComplex d) {
        o[0] = pycuda::complex<double>(a.real(), a.imag()); o[1] = b;
        o[2] = pycuda::complex<double>(c.x, c.y); o[3] = pycuda::complex<double>(d.x, d.y);
    }""")
    f = mod.get_function("k")
    o = gpuarray.zeros(4, np.complex128)
    vals = (1 + 2j, 3.5, 4, 5 - 1j)
    f(o, *vals, block=(1, 1, 1))
    np.testing.assert_array_equal(o.get(), np.array(vals, np.complex128))
    f.prepare("PFDFD")
    f.prepared_call((1, 1), (1, 1, 1), o.gpudata, -1j, 2, 0.5, -3 + 3j)
    np.testing.assert_array_equal(o.get(), np.array((-1j, 2, 0.5, -3 + 3j), np.complex128))
    f.prepare("PfDFD")
    with pytest.raises(TypeError):
        f.prepared_call((1, 1), (1, 1, 1), o.gpudata, 1j, 2, 0.5, 1)
    assert drv.Function is type(f)


def test_complex_float_widens_to_complex_double_implicitly_as_in_pycuda(rng):
    """PyCUDA's complex<double>(const complex<float> &) is implicit (only narrowing is
    explicit): mixed-precision kernels accumulate complex<float> data in complex<double>."""
    import lattice.pycuda.gpuarray as gpuarray
    mod = SourceModule("""
    #include <pycuda-complex.hpp>
    __global__ void k(pycuda::complex<double> *o, const pycuda::complex<float> *x,
                      pycuda::complex<float> a, int n) {
        pycuda::complex<double> acc = 0;
        for (int i = 0; i < n; i++) acc += x[i];
        o[0] = acc;
        o[1] = a;
        pycuda::complex<double> w = a;
        o[2] = w * 2.0;
        pycuda::complex<float> back(o[1]);
        o[3] = back;
    }""")
    x = (rng.standard_normal(50) + 1j * rng.standard_normal(50)).astype(np.complex64)
    a = np.complex64(1.5 - 2j)
    o = gpuarray.zeros(4, np.complex128)
    mod.get_function("k")(o, gpuarray.to_gpu(x), a, np.int32(50), block=(1, 1, 1))
    np.testing.assert_allclose(o.get(), [x.astype(np.complex128).sum(), a, 2 * a, a],
                               rtol=1e-12)
    with pytest.raises(drv.CompileError):
        SourceModule("#include <pycuda-complex.hpp>\n__global__ void k(pycuda::complex<float> "
                     "*o, pycuda::complex<double> a) { pycuda::complex<float> f = a; o[0] = f; }")
