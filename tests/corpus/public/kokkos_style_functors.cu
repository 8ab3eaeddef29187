/* Kokkos-style functors as Kokkos user code writes them: a View class template (operator()
 * of an index returning a reference, extent()), a functor class deriving from its
 * parameters struct and from a tag base, KOKKOS_INLINE_FUNCTION operator()(const int) const
 * and a tagged overload, a parallel_reduce functor with init/join/final member functions,
 * and a class whose member function runs a KOKKOS_LAMBDA (a [=] lambda naming members,
 * so capturing this). The parallel patterns are kernels of their own here (Kokkos's CUDA
 * backend launches the functor the same way: one index per thread, a block reduction).
 * After the Kokkos tutorials (kokkos/kokkos-tutorials Exercises/01-04) and
 * kokkos/kokkos core/src/Cuda/Kokkos_Cuda_Parallel_Range.hpp; written for this corpus.
 * @source https://github.com/kokkos/kokkos-tutorials Exercises/02/Solution/exercise_2_solution.cpp
 * @kernel kokkos_axpby_dot
 * @grid 4
 * @block 128
 * @arg in f64 512 rand -1 1
 * @arg inout f64 512 rand -1 1
 * @arg out f64 4
 * @arg out f64 512
 * @arg val i32 512
 * @arg val f64 0.5
 * @arg val f64 -2
 * @tol 1e-12
 */
#define KOKKOS_INLINE_FUNCTION __host__ __device__ inline
/* Kokkos spells it [=] __host__ __device__ (an extended lambda, for host code passing it
 * to a kernel); a lambda written in device code is a device one already. */
#define KOKKOS_LAMBDA [=]

namespace Kokkos {
template <class DataType>
class View {
public:
  using value_type = DataType;
  KOKKOS_INLINE_FUNCTION View() : m_ptr(nullptr), m_extent(0) {}
  KOKKOS_INLINE_FUNCTION View(DataType *p, size_t n) : m_ptr(p), m_extent(n) {}
  KOKKOS_INLINE_FUNCTION DataType &operator()(const int i) const { return m_ptr[i]; }
  KOKKOS_INLINE_FUNCTION size_t extent(int) const { return m_extent; }
private:
  DataType *m_ptr;
  size_t m_extent;
};

template <class F>
__device__ void parallel_for_index(const F &f, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}
}  // namespace Kokkos

struct AxpbyParams {
  double alpha, beta;
};

struct TagScale {};

struct Axpby : public AxpbyParams, public TagScale {
  Kokkos::View<const double> x;
  Kokkos::View<double> y;

  KOKKOS_INLINE_FUNCTION Axpby(Kokkos::View<const double> x_, Kokkos::View<double> y_, double a, double b)
      : x(x_), y(y_) { alpha = a; beta = b; }

  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    y(i) = alpha * x(i) + beta * y(i);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const TagScale &, const int i) const {
    y(i) *= alpha;
  }
};

struct Dot {
  Kokkos::View<const double> x, y;
  using value_type = double;

  KOKKOS_INLINE_FUNCTION void init(value_type &update) const { update = 0; }
  KOKKOS_INLINE_FUNCTION void join(value_type &update, const value_type &input) const { update += input; }
  KOKKOS_INLINE_FUNCTION void operator()(const int i, value_type &lsum) const { lsum += x(i) * y(i); }
};

class Smoother {
public:
  KOKKOS_INLINE_FUNCTION Smoother(Kokkos::View<const double> in, Kokkos::View<double> out, double w)
      : m_in(in), m_out(out), m_weight(w) {}

  __device__ void apply(int n) const {
    auto body = KOKKOS_LAMBDA(const int i) {
      const double left = i > 0 ? m_in(i - 1) : m_in(i);
      const double right = i + 1 < n ? m_in(i + 1) : m_in(i);
      m_out(i) = m_weight * m_in(i) + (1 - m_weight) * 0.5 * (left + right);
    };
    Kokkos::parallel_for_index(body, n);
  }

private:
  Kokkos::View<const double> m_in;
  Kokkos::View<double> m_out;
  double m_weight;
};

extern "C" __global__ void kokkos_axpby_dot(const double *x, double *y, double *partial, double *smooth,
                                            int n, double alpha, double beta)
{
  Kokkos::View<const double> vx(x, n);
  Kokkos::View<double> vy(y, n);
  Axpby f(vx, vy, alpha, beta);
  Kokkos::parallel_for_index(f, n);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) f(TagScale(), i);

  Dot d{vx, Kokkos::View<const double>(y, n)};
  __shared__ double s[128];
  double lsum;
  d.init(lsum);
  if (i < n) d(i, lsum);
  s[threadIdx.x] = lsum;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) d.join(s[threadIdx.x], s[threadIdx.x + stride]);
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];

  Smoother sm(vx, Kokkos::View<double>(smooth, n), 0.25);
  sm.apply(n);
}
