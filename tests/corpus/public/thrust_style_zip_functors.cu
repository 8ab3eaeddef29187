/* thrust-style functors: saxpy_functor deriving from thrust::binary_function<float, float,
 * float> (argument and result types through the base), a tuple built by recursive
 * inheritance (tuple<T, Rest...> : tuple<Rest...>) with get<I> through a partial
 * specialization, a zip of four arrays applied by arbitrary_functor (thrust's
 * arbitrary_transformation example, get<3>(t) = get<0>(t) + get<1>(t) * get<2>(t)), and
 * transform_reduce's square<T> with thrust::plus<T>. The algorithms are kernels of their
 * own here (thrust's CUDA backend launches the functors one element per thread).
 * After NVIDIA/thrust examples/saxpy.cu, examples/arbitrary_transformation.cu,
 * examples/sum_rows.cu and thrust/functional.h; the tuple written here.
 * @source https://github.com/NVIDIA/thrust examples/arbitrary_transformation.cu
 * @kernel thrust_style_kernel
 * @grid 4
 * @block 128
 * @arg in f32 512 rand -2 2
 * @arg in f32 512 rand -2 2
 * @arg in f32 512 rand -2 2
 * @arg out f32 512
 * @arg out f32 512
 * @arg out f32 4
 * @arg val i32 512
 * @arg val f32 2.5
 * @tol 1e-5
 */
namespace thrust {

template <typename Argument1, typename Argument2, typename Result>
struct binary_function {
  typedef Argument1 first_argument_type;
  typedef Argument2 second_argument_type;
  typedef Result result_type;
};

template <typename Argument, typename Result>
struct unary_function {
  typedef Argument argument_type;
  typedef Result result_type;
};

template <typename T>
struct plus : public binary_function<T, T, T> {
  __host__ __device__ T operator()(const T &lhs, const T &rhs) const { return lhs + rhs; }
};

template <class... Ts> struct tuple;
template <> struct tuple<> {};
template <class T, class... Rest>
struct tuple<T, Rest...> : tuple<Rest...> {
  T head;
  __host__ __device__ tuple() {}
  __host__ __device__ tuple(T h, Rest... r) : tuple<Rest...>(r...), head(h) {}
};

template <int I, class Tuple> struct tuple_element;
template <class T, class... Rest> struct tuple_element<0, tuple<T, Rest...>> {
  typedef T type;
  typedef tuple<T, Rest...> holder;
};
template <int I, class T, class... Rest> struct tuple_element<I, tuple<T, Rest...>> {
  typedef typename tuple_element<I - 1, tuple<Rest...>>::type type;
  typedef typename tuple_element<I - 1, tuple<Rest...>>::holder holder;
};

template <int I, class... Ts>
__host__ __device__ typename tuple_element<I, tuple<Ts...>>::type &get(tuple<Ts...> &t) {
  typedef typename tuple_element<I, tuple<Ts...>>::holder holder;
  return static_cast<holder &>(t).head;
}

template <class... Ts>
__host__ __device__ tuple<Ts...> make_tuple(Ts... ts) { return tuple<Ts...>(ts...); }

}  // namespace thrust

struct saxpy_functor : public thrust::binary_function<float, float, float> {
  const float a;

  __host__ __device__ saxpy_functor(float _a) : a(_a) {}

  __host__ __device__ result_type operator()(const first_argument_type &x, const second_argument_type &y) const {
    return a * x + y;
  }
};

struct arbitrary_functor {
  template <typename Tuple>
  __host__ __device__ void operator()(Tuple &t) {
    // D[i] = A[i] + B[i] * C[i];
    thrust::get<3>(t) = thrust::get<0>(t) + thrust::get<1>(t) * thrust::get<2>(t);
  }
};

template <typename T>
struct square : public thrust::unary_function<T, T> {
  __host__ __device__ T operator()(const T &x) const { return x * x; }
};

extern "C" __global__ void thrust_style_kernel(const float *A, const float *B, const float *C, float *D,
                                               float *Y, float *sums, int n, float a)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sq = 0;
  if (i < n) {
    thrust::tuple<float, float, float, float> t = thrust::make_tuple(A[i], B[i], C[i], 0.0f);
    arbitrary_functor f;
    f(t);
    D[i] = thrust::get<3>(t);
    saxpy_functor s(a);
    Y[i] = s(A[i], B[i]);
    sq = square<float>()(C[i]);
  }
  __shared__ float part[128];
  part[threadIdx.x] = sq;
  __syncthreads();
  thrust::plus<float> op;
  for (int stride = 64; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) part[threadIdx.x] = op(part[threadIdx.x], part[threadIdx.x + stride]);
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = part[0];
}
