/* cupy's generated reduction kernel (ReductionKernel("T x", "T y", "x", "a + b",
 * "y = a", "0")): typedefs _type_reduce, the _REDUCE(offset) macro over shared memory,
 * the CUPY_FOR-style strided loops over _in_ind/_out_ind, __syncthreads in loops whose
 * bounds are computed from the block, and the preamble's reduction expressions as macros.
 * After cupy cupy/_core/_reduction.pyx (_reduction_code), with the CArray/CIndexer views
 * replaced by flat pointers.
 * @source https://github.com/cupy/cupy cupy/_core/_reduction.pyx
 * @kernel cupy_sum
 * @grid 8
 * @block 256
 * @arg in f32 8192 rand -1 1
 * @arg out f32 8
 * @arg val i32 1024
 * @arg val i32 256
 * @tol 1e-5
 */
typedef float T;
typedef float _type_reduce;

#define REDUCE(a, b) (a + b)
#define POST_MAP(a) (out0 = a)
#define _REDUCE(_offset) if (_tid < _offset) { \
  _type_reduce _a = _sdata[_tid], _b = _sdata[(_tid + _offset)]; \
  _sdata[_tid] = REDUCE(_a, _b); \
}

extern "C" __global__ void cupy_sum(const T *_raw_in0, T *_raw_out0, int _in_per_out, int _block_size)
{
  __shared__ char _sdata_raw[256 * sizeof(_type_reduce)];
  _type_reduce *_sdata = reinterpret_cast<_type_reduce *>(_sdata_raw);
  unsigned int _tid = threadIdx.x;

  int _J_offset = _tid >> __popc(_block_size - 1);  // _tid / _block_size
  long long _j_offset = (long long)_J_offset * _in_per_out;
  int _J_stride = 256 >> __popc(_block_size - 1);
  long long _j_stride = (long long)_J_stride * _in_per_out;

  for (long long _i_base = blockIdx.x * _J_stride; _i_base < gridDim.x * _J_stride; _i_base += gridDim.x * _J_stride) {
    _type_reduce _s = _type_reduce(0);
    long long _i = _i_base + _J_offset;
    for (long long _j = _i * _in_per_out + (_tid & (_block_size - 1)); _j < (_i + 1) * _in_per_out;
         _j += _block_size) {
      const T in0 = _raw_in0[_j];
      _type_reduce _a = static_cast<_type_reduce>(in0);
      _s = REDUCE(_s, _a);
    }
    _sdata[_tid] = _s;
    __syncthreads();
    for (int _j = _block_size / 2; _j >= 32; _j >>= 1) {
      _REDUCE(_j);
      __syncthreads();
    }
    if (_tid < 32) {
      _type_reduce _r = _sdata[_tid];
      for (int _j = 16; _j > 0; _j >>= 1) {
        _type_reduce _b = __shfl_down_sync(0xffffffffu, _r, _j);
        _r = REDUCE(_r, _b);
      }
      if (_tid == 0) {
        T &out0 = _raw_out0[_i];
        POST_MAP(_r);
      }
    }
    __syncthreads();
  }
  (void)_j_offset;
  (void)_j_stride;
}
