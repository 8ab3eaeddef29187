/* PyCUDA's complex numbers for kernels: pycuda::complex<float> and
 * pycuda::complex<double> (numpy.complex64 and complex128: two reals, real part first),
 * with arithmetic, comparisons and the functions of std::complex (real, imag, conj, abs,
 * arg, norm, polar, exp, log, log10, pow, sqrt, sin, cos, tan, sinh, cosh, tanh).
 *
 * lattice's own header (not PyCUDA's STLport-derived one), written in the C++ that both
 * NVRTC and lattice's emulator front end accept: a class template and non-template
 * operators for float and double, so that a real operand of the same precision (or any
 * arithmetic type, converted) combines with a complex one as with std::complex, and mixing
 * complex<float> with complex<double> needs a cast, as in std::complex. */
#ifndef PYCUDA_COMPLEX_HPP_SEEN
#define PYCUDA_COMPLEX_HPP_SEEN

/* The real functions, named outside namespace pycuda (whose own overloads hide them). */
__host__ __device__ inline float __pycuda_sqrtf(float a) { return sqrtf(a); }
__host__ __device__ inline double __pycuda_sqrt(double a) { return sqrt(a); }
__host__ __device__ inline float __pycuda_atan2f(float a, float b) { return atan2f(a, b); }
__host__ __device__ inline double __pycuda_atan2(double a, double b) { return atan2(a, b); }
__host__ __device__ inline float __pycuda_hypotf(float a, float b) { return hypotf(a, b); }
__host__ __device__ inline double __pycuda_hypot(double a, double b) { return hypot(a, b); }
__host__ __device__ inline float __pycuda_expf(float a) { return expf(a); }
__host__ __device__ inline double __pycuda_exp(double a) { return exp(a); }
__host__ __device__ inline float __pycuda_logf(float a) { return logf(a); }
__host__ __device__ inline double __pycuda_log(double a) { return log(a); }
__host__ __device__ inline float __pycuda_sinf(float a) { return sinf(a); }
__host__ __device__ inline double __pycuda_sin(double a) { return sin(a); }
__host__ __device__ inline float __pycuda_cosf(float a) { return cosf(a); }
__host__ __device__ inline double __pycuda_cos(double a) { return cos(a); }
__host__ __device__ inline float __pycuda_sinhf(float a) { return sinhf(a); }
__host__ __device__ inline double __pycuda_sinh(double a) { return sinh(a); }
__host__ __device__ inline float __pycuda_coshf(float a) { return coshf(a); }
__host__ __device__ inline double __pycuda_cosh(double a) { return cosh(a); }
__host__ __device__ inline float __pycuda_fabsf(float a) { return fabsf(a); }
__host__ __device__ inline double __pycuda_fabs(double a) { return fabs(a); }

namespace pycuda {

/* The members of complex<T> (one macro, as the emulator's front end takes no member
 * templates: each specialization spells its own conversions). */
#define PYCUDA_COMPLEX_BODY(T) \
    typedef T value_type; \
    T _M_re; \
    T _M_im; \
    __host__ __device__ complex(const T &re = T(), const T &im = T()) : _M_re(re), _M_im(im) {} \
    __host__ __device__ T real() const { return _M_re; } \
    __host__ __device__ T imag() const { return _M_im; } \
    __host__ __device__ void real(T v) { _M_re = v; } \
    __host__ __device__ void imag(T v) { _M_im = v; } \
    __host__ __device__ complex<T> &operator=(const T &x) { _M_re = x; _M_im = T(); return *this; } \
    __host__ __device__ complex<T> &operator=(const complex<T> &z) { _M_re = z._M_re; _M_im = z._M_im; return *this; } \
    __host__ __device__ complex<T> &operator+=(const complex<T> &z) { _M_re += z._M_re; _M_im += z._M_im; return *this; } \
    __host__ __device__ complex<T> &operator-=(const complex<T> &z) { _M_re -= z._M_re; _M_im -= z._M_im; return *this; } \
    __host__ __device__ complex<T> &operator*=(const complex<T> &z) { \
        T r = _M_re * z._M_re - _M_im * z._M_im; \
        _M_im = _M_re * z._M_im + _M_im * z._M_re; \
        _M_re = r; \
        return *this; \
    } \
    __host__ __device__ complex<T> &operator/=(const complex<T> &z) { \
        /* Smith's division: no overflow for large |z|. */ \
        T ar = z._M_re >= 0 ? z._M_re : -z._M_re, ai = z._M_im >= 0 ? z._M_im : -z._M_im; \
        T r, i; \
        if (ar <= ai) { \
            T ratio = z._M_re / z._M_im, denom = z._M_im * (1 + ratio * ratio); \
            r = (_M_re * ratio + _M_im) / denom; \
            i = (_M_im * ratio - _M_re) / denom; \
        } else { \
            T ratio = z._M_im / z._M_re, denom = z._M_re * (1 + ratio * ratio); \
            r = (_M_re + _M_im * ratio) / denom; \
            i = (_M_im - _M_re * ratio) / denom; \
        } \
        _M_re = r; \
        _M_im = i; \
        return *this; \
    } \
    __host__ __device__ complex<T> &operator+=(const T &x) { _M_re += x; return *this; } \
    __host__ __device__ complex<T> &operator-=(const T &x) { _M_re -= x; return *this; } \
    __host__ __device__ complex<T> &operator*=(const T &x) { _M_re *= x; _M_im *= x; return *this; } \
    __host__ __device__ complex<T> &operator/=(const T &x) { _M_re /= x; _M_im /= x; return *this; }

template <typename T> struct complex;

template <> struct complex<float> {
    PYCUDA_COMPLEX_BODY(float)
};

template <> struct complex<double> {
    PYCUDA_COMPLEX_BODY(double)
    __host__ __device__ complex(const complex<float> &z) : _M_re(z._M_re), _M_im(z._M_im) {}
    __host__ __device__ operator complex<float>() const {
        return complex<float>((float)_M_re, (float)_M_im);
    }
};
#undef PYCUDA_COMPLEX_BODY

}  /* namespace pycuda */

#define PYCUDA_COMPLEX_OPERATORS(T) \
    __host__ __device__ inline pycuda::complex<T> operator+(const pycuda::complex<T> &a, const pycuda::complex<T> &b) { return pycuda::complex<T>(a._M_re + b._M_re, a._M_im + b._M_im); } \
    __host__ __device__ inline pycuda::complex<T> operator-(const pycuda::complex<T> &a, const pycuda::complex<T> &b) { return pycuda::complex<T>(a._M_re - b._M_re, a._M_im - b._M_im); } \
    __host__ __device__ inline pycuda::complex<T> operator*(const pycuda::complex<T> &a, const pycuda::complex<T> &b) { return pycuda::complex<T>(a._M_re * b._M_re - a._M_im * b._M_im, a._M_re * b._M_im + a._M_im * b._M_re); } \
    __host__ __device__ inline pycuda::complex<T> operator/(const pycuda::complex<T> &a, const pycuda::complex<T> &b) { pycuda::complex<T> r = a; r /= b; return r; } \
    __host__ __device__ inline pycuda::complex<T> operator+(const pycuda::complex<T> &a, T b) { return pycuda::complex<T>(a._M_re + b, a._M_im); } \
    __host__ __device__ inline pycuda::complex<T> operator-(const pycuda::complex<T> &a, T b) { return pycuda::complex<T>(a._M_re - b, a._M_im); } \
    __host__ __device__ inline pycuda::complex<T> operator*(const pycuda::complex<T> &a, T b) { return pycuda::complex<T>(a._M_re * b, a._M_im * b); } \
    __host__ __device__ inline pycuda::complex<T> operator/(const pycuda::complex<T> &a, T b) { return pycuda::complex<T>(a._M_re / b, a._M_im / b); } \
    __host__ __device__ inline pycuda::complex<T> operator+(T a, const pycuda::complex<T> &b) { return pycuda::complex<T>(a + b._M_re, b._M_im); } \
    __host__ __device__ inline pycuda::complex<T> operator-(T a, const pycuda::complex<T> &b) { return pycuda::complex<T>(a - b._M_re, -b._M_im); } \
    __host__ __device__ inline pycuda::complex<T> operator*(T a, const pycuda::complex<T> &b) { return pycuda::complex<T>(a * b._M_re, a * b._M_im); } \
    __host__ __device__ inline pycuda::complex<T> operator/(T a, const pycuda::complex<T> &b) { pycuda::complex<T> r(a, 0); r /= b; return r; } \
    __host__ __device__ inline pycuda::complex<T> operator+(const pycuda::complex<T> &a) { return a; } \
    __host__ __device__ inline pycuda::complex<T> operator-(const pycuda::complex<T> &a) { return pycuda::complex<T>(-a._M_re, -a._M_im); } \
    __host__ __device__ inline bool operator==(const pycuda::complex<T> &a, const pycuda::complex<T> &b) { return a._M_re == b._M_re && a._M_im == b._M_im; } \
    __host__ __device__ inline bool operator!=(const pycuda::complex<T> &a, const pycuda::complex<T> &b) { return a._M_re != b._M_re || a._M_im != b._M_im; } \
    __host__ __device__ inline bool operator==(const pycuda::complex<T> &a, T b) { return a._M_re == b && a._M_im == 0; } \
    __host__ __device__ inline bool operator!=(const pycuda::complex<T> &a, T b) { return a._M_re != b || a._M_im != 0; }

/* C++ finds these operators by argument-dependent lookup in namespace pycuda; lattice's
 * emulator has no such lookup yet, so there they are declared at file scope. */
#ifdef __LATTICE_EMU__
PYCUDA_COMPLEX_OPERATORS(float)
PYCUDA_COMPLEX_OPERATORS(double)
#else
namespace pycuda {
PYCUDA_COMPLEX_OPERATORS(float)
PYCUDA_COMPLEX_OPERATORS(double)
}
#endif
#undef PYCUDA_COMPLEX_OPERATORS

namespace pycuda {

#define PYCUDA_COMPLEX_OPS(T, SQRT, ATAN2, HYPOT, EXP, LOG, SIN, COS, SINH, COSH, FABS, LOG10E) \
    __host__ __device__ inline T real(const complex<T> &z) { return z._M_re; } \
    __host__ __device__ inline T imag(const complex<T> &z) { return z._M_im; } \
    __host__ __device__ inline T real(T x) { return x; } \
    __host__ __device__ inline T imag(T x) { return 0; } \
    __host__ __device__ inline complex<T> conj(const complex<T> &z) { return complex<T>(z._M_re, -z._M_im); } \
    __host__ __device__ inline T abs(const complex<T> &z) { return HYPOT(z._M_re, z._M_im); } \
    __host__ __device__ inline T arg(const complex<T> &z) { return ATAN2(z._M_im, z._M_re); } \
    __host__ __device__ inline T norm(const complex<T> &z) { return z._M_re * z._M_re + z._M_im * z._M_im; } \
    __host__ __device__ inline complex<T> polar(T rho, T theta = 0) { return complex<T>(rho * COS(theta), rho * SIN(theta)); } \
    __host__ __device__ inline complex<T> exp(const complex<T> &z) { T e = EXP(z._M_re); return complex<T>(e * COS(z._M_im), e * SIN(z._M_im)); } \
    __host__ __device__ inline complex<T> log(const complex<T> &z) { return complex<T>(LOG(abs(z)), arg(z)); } \
    __host__ __device__ inline complex<T> log10(const complex<T> &z) { complex<T> l = log(z); return complex<T>(l._M_re * (T)LOG10E, l._M_im * (T)LOG10E); } \
    __host__ __device__ inline complex<T> sqrt(const complex<T> &z) { \
        T x = z._M_re, y = z._M_im; \
        if (x == 0) { T t = SQRT(FABS(y) / 2); return complex<T>(t, y < 0 ? -t : t); } \
        T t = SQRT(2 * (abs(z) + FABS(x))), u = t / 2; \
        return x > 0 ? complex<T>(u, y / t) : complex<T>(FABS(y) / t, y < 0 ? -u : u); } \
    __host__ __device__ inline complex<T> pow(const complex<T> &a, const complex<T> &b) { \
        if (a._M_re == 0 && a._M_im == 0) return complex<T>(b._M_re == 0 && b._M_im == 0 ? 1 : 0, 0); \
        return exp(b * log(a)); } \
    __host__ __device__ inline complex<T> pow(const complex<T> &a, T b) { \
        if (a._M_re == 0 && a._M_im == 0) return complex<T>(b == 0 ? 1 : 0, 0); \
        return exp(b * log(a)); } \
    __host__ __device__ inline complex<T> pow(T a, const complex<T> &b) { \
        if (a == 0) return complex<T>(b._M_re == 0 && b._M_im == 0 ? 1 : 0, 0); \
        return exp(b * (T)LOG(a)); } \
    __host__ __device__ inline complex<T> sin(const complex<T> &z) { return complex<T>(SIN(z._M_re) * COSH(z._M_im), COS(z._M_re) * SINH(z._M_im)); } \
    __host__ __device__ inline complex<T> cos(const complex<T> &z) { return complex<T>(COS(z._M_re) * COSH(z._M_im), -SIN(z._M_re) * SINH(z._M_im)); } \
    __host__ __device__ inline complex<T> tan(const complex<T> &z) { return sin(z) / cos(z); } \
    __host__ __device__ inline complex<T> sinh(const complex<T> &z) { return complex<T>(SINH(z._M_re) * COS(z._M_im), COSH(z._M_re) * SIN(z._M_im)); } \
    __host__ __device__ inline complex<T> cosh(const complex<T> &z) { return complex<T>(COSH(z._M_re) * COS(z._M_im), SINH(z._M_re) * SIN(z._M_im)); } \
    __host__ __device__ inline complex<T> tanh(const complex<T> &z) { return sinh(z) / cosh(z); }

PYCUDA_COMPLEX_OPS(float, __pycuda_sqrtf, __pycuda_atan2f, __pycuda_hypotf, __pycuda_expf,
                   __pycuda_logf, __pycuda_sinf, __pycuda_cosf, __pycuda_sinhf, __pycuda_coshf,
                   __pycuda_fabsf, 0.43429448190325182765)
PYCUDA_COMPLEX_OPS(double, __pycuda_sqrt, __pycuda_atan2, __pycuda_hypot, __pycuda_exp,
                   __pycuda_log, __pycuda_sin, __pycuda_cos, __pycuda_sinh, __pycuda_cosh,
                   __pycuda_fabs, 0.43429448190325182765)
#undef PYCUDA_COMPLEX_OPS

}  /* namespace pycuda */

/* On lattice's emulator, which has no argument-dependent lookup yet, call the functions
 * qualified (pycuda::exp(z), as lattice.pycuda's generated kernels do); NVRTC also finds
 * an unqualified exp(z) of a complex z by that lookup. */

#endif
