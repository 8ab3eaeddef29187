/* PyTorch's OffsetCalculator: IntDivider<unsigned int> (an explicit specialization doing
 * division by a magic number with __umulhi, built in its constructor), DivMod, an Array
 * class template of the offsets, #pragma unroll over MAX_DIMS with a break at dims, and a
 * strided copy (a 3-D permutation) computing both operands' offsets from the linear index,
 * as its TensorIterator kernels do.
 * After pytorch aten/src/ATen/cuda/detail/IntegerDivider.cuh, OffsetCalculator.cuh and
 * aten/src/ATen/core/Array.h; the ctors made __device__ (NVRTC without -default-device), the
 * calculator built on the device, the kernel written here.
 * @source https://github.com/pytorch/pytorch aten/src/ATen/cuda/detail/OffsetCalculator.cuh
 * @kernel permute_copy_kernel
 * @grid 12
 * @block 128
 * @arg in f32 1536 rand -10 10
 * @arg out f32 1536
 * @arg val i32 1536
 * @arg val u32 8
 * @arg val u32 12
 * @arg val u32 16
 */
#define C10_HOST_DEVICE __host__ __device__
#define C10_DEVICE __device__

namespace at { namespace detail {
template <typename T, int size_>
struct Array {
  T data[size_];

  C10_HOST_DEVICE T operator[](int i) const {
    return data[i];
  }
  C10_HOST_DEVICE T& operator[](int i) {
    return data[i];
  }
  Array() = default;
  Array(const Array&) = default;
  Array& operator=(const Array&) = default;
  static constexpr int size() {
    return size_;
  }
  // Fill the array with x.
  C10_HOST_DEVICE Array(T x) {
    for (int i = 0; i < size_; i++) {
      data[i] = x;
    }
  }
};
}}  // namespace at::detail

// Result of div/mod operation stored together.
template <typename Value>
struct DivMod {
  Value div, mod;

  C10_HOST_DEVICE DivMod(Value div, Value mod) : div(div), mod(mod) { }
};

// Base case: we only have an implementation for uint32_t for now.  For
// everything else, we use plain division.
template <typename Value>
struct IntDivider {
  IntDivider() = default;
  C10_HOST_DEVICE IntDivider(Value d) : divisor(d) { }

  C10_HOST_DEVICE inline Value div(Value n) const { return n / divisor; }
  C10_HOST_DEVICE inline Value mod(Value n) const { return n % divisor; }
  C10_HOST_DEVICE inline DivMod<Value> divmod(Value n) const {
    return DivMod<Value>(n / divisor, n % divisor);
  }

  Value divisor;
};

// Implement fast integer division.
template <>
struct IntDivider<unsigned int> {
  static_assert(sizeof(unsigned int) == 4, "Assumes 32-bit unsigned int.");

  IntDivider() = default;

  C10_HOST_DEVICE IntDivider(unsigned int d) : divisor(d) {
    for (shift = 0; shift < 32; shift++) if ((1U << shift) >= divisor) break;

    unsigned long long one = 1;
    unsigned long long magic = ((one << 32) * ((one << shift) - divisor)) / divisor + 1;
    m1 = magic;
  }

  C10_HOST_DEVICE inline unsigned int div(unsigned int n) const {
    // 't' is the higher 32-bits of unsigned 32-bit multiplication of 'n' and
    // 'm1'.
    unsigned int t = __umulhi(n, m1);
    return (t + n) >> shift;
  }

  C10_HOST_DEVICE inline unsigned int mod(unsigned int n) const {
    return n - div(n) * divisor;
  }

  C10_HOST_DEVICE inline DivMod<unsigned int> divmod(unsigned int n) const {
    unsigned int q = div(n);
    return DivMod<unsigned int>(q, n - q * divisor);
  }

  unsigned int divisor;  // d above.
  unsigned int m1;  // Magic number: m' above.
  unsigned int shift;  // Shift amounts.
};

#define MAX_DIMS 12

template <int NARGS, typename index_t = unsigned int, bool signed_strides = false>
struct OffsetCalculator {
  // We allow having negative strides to implement some operations like torch.flip
  using stride_t = index_t;
  // The offset for each argument. Wrapper around fixed-size array.
  // On CUDA, zero sized array is not allowed, so when we are handling nullary
  // operators, we need to create a size 1 offset to avoid compiler failure.
  // This size 1 offset is just a placeholder, and we will not use it.
  using offset_type = at::detail::Array<stride_t, NARGS>;

  C10_HOST_DEVICE OffsetCalculator(int dims, const unsigned int* sizes, const unsigned int* const* strides) : dims(dims) {
    for (int i=0; i < dims; i++){
      sizes_[i] = IntDivider<index_t>(sizes[i]);
      for (int arg = 0; arg < NARGS; arg++) {
        strides_[i][arg] = strides[arg][i];
      }
    }
  }

  C10_HOST_DEVICE offset_type get(index_t linear_idx) const {
    offset_type offsets;
    #pragma unroll
    for (int arg = 0; arg < NARGS; arg++) {
      offsets[arg] = 0;
    }

    #pragma unroll
    for (int dim = 0; dim < MAX_DIMS; ++dim) {
      if (dim == dims) {
        break;
      }
      auto divmod = sizes_[dim].divmod(linear_idx);
      linear_idx = divmod.div;

      #pragma unroll
      for (int arg = 0; arg < NARGS; arg++) {
        offsets[arg] += divmod.mod * strides_[dim][arg];
      }

    }
    return offsets;
  }

  int dims;
  IntDivider<index_t> sizes_[MAX_DIMS];
  stride_t strides_[MAX_DIMS][NARGS == 0 ? 1 : NARGS];
};

extern "C" __global__ void permute_copy_kernel(const float *src, float *dst, int n,
                                               unsigned int d0, unsigned int d1, unsigned int d2)
{
  // dst (d2, d1, d0 contiguous) = src (d0, d1, d2 contiguous) permuted: sizes listed
  // fastest first, as TensorIterator lists them
  const unsigned int sizes[3] = {d2, d1, d0};
  const unsigned int dst_strides[3] = {d1 * d0, d0, 1};
  const unsigned int src_strides[3] = {1, d2, d2 * d1};
  const unsigned int *strides[2] = {dst_strides, src_strides};
  OffsetCalculator<2> calc(3, sizes, strides);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  auto offsets = calc.get(i);
  dst[offsets[0]] = src[offsets[1]];
}
