/* PyTorch's nearest-neighbour upsampling: compute_scales_value and nearest_neighbor_compute_
 * source_index as templates on accscalar_t, a kernel template on scalar_t with
 * C10_LAUNCH_BOUNDS_1, the output's (w2, c) coordinates from the linear index, and the
 * C10_HOST_DEVICE helpers PyTorch shares with the CPU.
 * After pytorch aten/src/ATen/native/cuda/UpSampleNearest1d.cu (upsample_nearest1d_out_frame)
 * and UpSample.cuh (compute_scales_value, nearest_neighbor_compute_source_index).
 * @source https://github.com/pytorch/pytorch aten/src/ATen/native/cuda/UpSampleNearest1d.cu
 * @kernel upsample_nearest1d_out_frame<float>
 * @grid 6
 * @block 256
 * @arg in f32 640 rand -5 5
 * @arg val u64 10
 * @arg val u64 64
 * @arg val u64 150
 * @arg out f32 1500
 * @arg val f32 0.426666677
 */
#define C10_HOST_DEVICE __host__ __device__
#define C10_LAUNCH_BOUNDS_1(max_threads_per_block) __launch_bounds__((max_threads_per_block))

template <typename accscalar_t>
C10_HOST_DEVICE inline accscalar_t compute_scales_value(
    const bool has_scale, const double scale, long long src_size, long long dst_size) {
  // FIXME: remove magic > 0 after we ensure no models were serialized with -1 defaults.
  return (has_scale && scale > 0.)
      ? (accscalar_t)(1.0 / scale)
      : (accscalar_t)src_size / dst_size;
}

static __device__ __forceinline__ int nearest_neighbor_compute_source_index(
    const float scale,
    int dst_index,
    int input_size) {
  // index_f32 = (output_index) * scale
  // input_index = round(index_f32)
  // Same as a buggy OpenCV INTER_NEAREST
  // We keep this method for BC and consider as deprecated.
  // See nearest_neighbor_exact_compute_source_index as replacement
  const int src_index =
      min(static_cast<int>(floorf((dst_index) * scale)), input_size - 1);
  return src_index;
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(1024)
__global__ void upsample_nearest1d_out_frame(
    const scalar_t* input,
    size_t dim_c,
    size_t src_dim_w,
    size_t dst_dim_w,
    scalar_t* output,
    float scale_factor) {
  int dst_idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (dst_idx >= dim_c * dst_dim_w)
    return;

  int c = (dst_idx / dst_dim_w) % dim_c;

  int dst_x = dst_idx % dst_dim_w;
  int src_x = nearest_neighbor_compute_source_index(scale_factor, dst_x, src_dim_w);

  int src_idx = c * src_dim_w + src_x;
  int src_stride = dim_c * src_dim_w;
  int dst_stride = dim_c * dst_dim_w;

  output[dst_idx] = input[src_idx];
  (void)src_stride;
  (void)dst_stride;
}
