/* Type-list metaprogramming as header-only libraries write it (Boost.Mp11's mp_append, the
 * type lists of cuDF's and CUTLASS-free dispatch code): a partial specialization of two
 * parameter packs (mp_append_impl<mp_list<T1...>, mp_list<T2...>>), size and index_of
 * computed through recursion, and a kernel that uses them. Mp11 writes the list as a
 * template template parameter (L<T1...>), which lattice refuses in a partial
 * specialization; the list is mp_list here. Written after boost/mp11/list.hpp and
 * cudf/utilities/type_dispatcher.hpp's id_to_type_impl idiom.
 * @source https://github.com/boostorg/mp11 include/boost/mp11/list.hpp
 * @kernel typelist_kernel
 * @grid 2
 * @block 128
 * @arg in f32 256 rand -2 2
 * @arg out f32 256
 * @arg val i32 256
 * @tol 1e-6
 */
template <class... T> struct mp_list {};

template <class L1, class L2> struct mp_append_impl;
template <class... T1, class... T2>
struct mp_append_impl<mp_list<T1...>, mp_list<T2...>> {
  using type = mp_list<T1..., T2...>;
};
template <class L1, class L2> using mp_append = typename mp_append_impl<L1, L2>::type;

template <class L> struct mp_size_impl;
template <class... T> struct mp_size_impl<mp_list<T...>> {
  static constexpr int value = sizeof...(T);
};

template <class L, class V> struct index_of;
template <class V, class... T> struct index_of<mp_list<V, T...>, V> { static constexpr int value = 0; };
template <class V, class U, class... T> struct index_of<mp_list<U, T...>, V> {
  static constexpr int value = 1 + index_of<mp_list<T...>, V>::value;
};

using integral_types = mp_list<char, short, int>;
using floating_types = mp_list<float, double>;
using numeric_types = mp_append<integral_types, floating_types>;

template <class T> __device__ float scale_as(float x) { return (float)(T)(x * 100.0f) / 100.0f; }

extern "C" __global__ void typelist_kernel(const float *in, float *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  constexpr int total = mp_size_impl<numeric_types>::value;
  constexpr int where_float = index_of<numeric_types, float>::value;
  constexpr int where_int = index_of<numeric_types, int>::value;
  float v = scale_as<int>(in[i]) + scale_as<double>(in[i]);
  out[i] = v + total * 1000 + where_float * 100 + where_int * 10;
}
