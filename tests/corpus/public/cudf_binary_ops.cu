/* cuDF-style binary operations: operator structs with a member function template
 * (template <typename TypeLhs, typename TypeRhs> auto operator()(TypeLhs x, TypeRhs y) ->
 * decltype(x + y)), a type-dispatching functor over a type id (switch over an enum class,
 * a nested template call per type), and null masks tested bit by bit.
 * After rapidsai/cudf cpp/src/binaryop/compiled/operation.cuh (Add, Mul, NullMax) and
 * cpp/include/cudf/utilities/type_dispatcher.hpp; the kernel written here. Max returns
 * decltype(x > y ? x : y), a reference (both are lvalues): to its callers' objects, as
 * cuDF's takes them by const reference (by value it would return a dangling reference:
 * an H100 gave NaN).
 * @source https://github.com/rapidsai/cudf cpp/src/binaryop/compiled/operation.cuh
 * @kernel binop_kernel
 * @grid 4
 * @block 128
 * @arg in f32 512 rand -100 100
 * @arg in f32 512 rand -100 100
 * @arg in u32 16 rand 0 4294967295
 * @arg out f32 512
 * @arg out u32 16
 * @arg val i32 512
 * @arg val i32 1
 * @tol 1e-6
 *
 * The tolerance: NVRTC inlines Mul's operator() and fuses its product with the sum into
 * one fma; the emulator fuses only a product written in the sum (docs/dialect.md, "What
 * remains different"), so the last bit of some sums differs (H100, 2026-12-07).
 */
#define CUDF_HOST_DEVICE __host__ __device__

namespace cudf {
using size_type = int;
using bitmask_type = unsigned int;

enum class type_id : int { INT32, FLOAT32, FLOAT64 };

__device__ inline bool bit_is_set(bitmask_type const* bitmask, size_type bit_index)
{
  return bitmask[bit_index / 32] & (bitmask_type{1} << (bit_index % 32));
}

namespace binops {
namespace compiled {
namespace ops {

struct Add {
  template <typename T1, typename T2>
  CUDF_HOST_DEVICE inline auto operator()(T1 const& lhs, T2 const& rhs) -> decltype(lhs + rhs)
  {
    return lhs + rhs;
  }
};

struct Mul {
  template <typename TypeLhs, typename TypeRhs>
  CUDF_HOST_DEVICE inline auto operator()(TypeLhs x, TypeRhs y) -> decltype(x * y)
  {
    return x * y;
  }
};

struct Max {
  template <typename TypeLhs, typename TypeRhs>
  CUDF_HOST_DEVICE inline auto operator()(TypeLhs const& x, TypeRhs const& y) -> decltype(x > y ? x : y)
  {
    return x > y ? x : y;
  }
};

}  // namespace ops
}  // namespace compiled
}  // namespace binops

template <typename Op>
struct apply_binop {
  template <typename T>
  __device__ float operator()(float a, float b) const
  {
    return static_cast<float>(Op{}(static_cast<T>(a), static_cast<T>(b)));
  }
};

template <typename F>
__device__ float type_dispatcher(type_id id, F f, float a, float b)
{
  switch (id) {
    case type_id::INT32: return f.template operator()<int>(a, b);
    case type_id::FLOAT64: return f.template operator()<double>(a, b);
    default: return f.template operator()<float>(a, b);
  }
}
}  // namespace cudf

extern "C" __global__ void binop_kernel(const float *lhs, const float *rhs, const unsigned int *valid,
                                        float *out, unsigned int *out_valid, int n, int which)
{
  using namespace cudf;
  namespace ops = cudf::binops::compiled::ops;
  size_type i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  bool v = bit_is_set(valid, i);
  float r;
  switch (which) {
    case 0: r = type_dispatcher(type_id::INT32, apply_binop<ops::Add>{}, lhs[i], rhs[i]); break;
    case 1: r = type_dispatcher(type_id::FLOAT32, apply_binop<ops::Mul>{}, lhs[i], rhs[i])
                + type_dispatcher(type_id::FLOAT64, apply_binop<ops::Max>{}, lhs[i], rhs[i]); break;
    default: r = 0;
  }
  out[i] = v ? r : 0.0f;
  unsigned int ballot = __ballot_sync(0xffffffffu, v);
  if (threadIdx.x % 32 == 0) out_valid[i / 32] = ballot;
}
