/* cupy's array view and indexer as its generated elementwise kernels use them: CArray<T,
 * ndim, c_contiguous> with private shape and strides, operator[] of an index array
 * (const Int (&idx)[ndim]) and of a flat index, CIndexer<ndim>::set/get, the CUPY_FOR
 * loop, and the kernel body an ElementwiseKernel("T x, T y", "T z", "z = x * y + (T)1")
 * generates. After cupy cupy/_core/include/cupy/carray.cuh (CArray, CIndexer, CUPY_FOR);
 * the views are filled on the device here (cupy fills them on the host and passes them by
 * value).
 * @source https://github.com/cupy/cupy cupy/_core/include/cupy/carray.cuh
 * @kernel cupy_fma_2d
 * @grid 4
 * @block 128
 * @arg in f32 1536 rand -2 2
 * @arg in f32 48 rand -2 2
 * @arg out f32 1536
 * @arg val i32 32
 * @arg val i32 48
 * @tol 1e-6
 */
typedef long long ptrdiff_t_;

#define CUPY_FOR(i, n) \
    for (ptrdiff_t_ i = \
            static_cast<ptrdiff_t_>(blockIdx.x) * blockDim.x + threadIdx.x; \
         i < (n); \
         i += static_cast<ptrdiff_t_>(blockDim.x) * gridDim.x)

template <typename T, int _ndim, bool _c_contiguous=false>
class CArray {
public:
  static const int ndim = _ndim;
  static const bool c_contiguous = _c_contiguous;
  typedef T value_type;
private:
  T* data_;
  ptrdiff_t_ size_;
  ptrdiff_t_ shape_[ndim];
  ptrdiff_t_ strides_[ndim];

public:
  __device__ void init(T *data, const ptrdiff_t_ *shape, const ptrdiff_t_ *strides) {
    data_ = data;
    size_ = 1;
    for (int i = 0; i < ndim; ++i) {
      shape_[i] = shape[i];
      strides_[i] = strides[i];
      size_ *= shape[i];
    }
  }

  __device__ ptrdiff_t_ size() const {
    return size_;
  }

  __device__ const ptrdiff_t_* shape() const {
    return shape_;
  }

  __device__ const ptrdiff_t_* strides() const {
    return strides_;
  }

  template <typename Int>
  __device__ T& operator[](const Int (&idx)[ndim]) {
    return const_cast<T&>(const_cast<const CArray&>(*this)[idx]);
  }

  template <typename Int>
  __device__ const T& operator[](const Int (&idx)[ndim]) const {
    const char* ptr = reinterpret_cast<const char*>(data_);
    for (int dim = 0; dim < ndim; ++dim) {
      ptr += static_cast<ptrdiff_t_>(strides_[dim]) * idx[dim];
    }
    return *reinterpret_cast<const T*>(ptr);
  }

  __device__ T& operator[](ptrdiff_t_ i) {
    return const_cast<T&>(const_cast<const CArray&>(*this)[i]);
  }

  __device__ const T& operator[](ptrdiff_t_ i) const {
    if (c_contiguous) {
      return data_[i];
    }
    const char* ptr = reinterpret_cast<const char*>(data_);
    for (int dim = ndim; --dim > 0; ) {
      ptrdiff_t_ shape_dim = shape_[dim];
      ptr += static_cast<ptrdiff_t_>(strides_[dim]) * (i % shape_dim);
      i /= shape_dim;
    }
    ptr += static_cast<ptrdiff_t_>(strides_[0]) * i;
    return *reinterpret_cast<const T*>(ptr);
  }
};

template <int _ndim>
class CIndexer {
public:
  static const int ndim = _ndim;
private:
  ptrdiff_t_ size_;
  ptrdiff_t_ shape_[ndim];
  ptrdiff_t_ index_[ndim];

public:
  __device__ void init(const ptrdiff_t_ *shape) {
    size_ = 1;
    for (int i = 0; i < ndim; ++i) {
      shape_[i] = shape[i];
      size_ *= shape[i];
    }
  }

  __device__ ptrdiff_t_ size() const {
    return size_;
  }

  __device__ void set(ptrdiff_t_ i) {
    // ndim == 0 case uses partial template specialization
    if (ndim == 1) {
      index_[0] = i;
      return;
    }
    ptrdiff_t_ a = i;
    for (int dim = ndim; --dim > 0; ) {
      ptrdiff_t_ s = shape_[dim];
      index_[dim] = a % s;
      a /= s;
    }
    index_[0] = a;
  }

  __device__ const ptrdiff_t_ (&get() const)[ndim] {
    return index_;
  }
};

extern "C" __global__ void cupy_fma_2d(const float *x, const float *y, float *z, int rows, int cols)
{
  // x: rows x cols, C order; y: one row broadcast (stride 0 along rows); z: like x
  const ptrdiff_t_ shape[2] = {rows, cols};
  const ptrdiff_t_ xs[2] = {(ptrdiff_t_)cols * 4, 4}, ys[2] = {0, 4};
  CArray<float, 2> _raw_x, _raw_y, _raw_z;
  _raw_x.init(const_cast<float *>(x), shape, xs);
  _raw_y.init(const_cast<float *>(y), shape, ys);
  _raw_z.init(z, shape, xs);
  CIndexer<2> _ind;
  _ind.init(shape);
  CUPY_FOR(i, _ind.size()) {
    _ind.set(i);
    const float x_ = _raw_x[_ind.get()];
    const float y_ = _raw_y[_ind.get()];
    float &z_ = _raw_z[i];
    z_ = x_ * y_ + (float)1;
  }
}
