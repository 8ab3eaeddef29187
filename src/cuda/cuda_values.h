/*
 * The values of the cuda.h and nvrtc.h enumerators lattice uses, as X-macro lists
 * X(NAME, value): cuda_api.h makes enums of them, header_check.c compares each with the
 * real headers where the toolkit is installed. They have not changed from CUDA 11 to 13.
 */
#ifndef LAT_CUDA_VALUES_H
#define LAT_CUDA_VALUES_H

#define LAT_CUDA_RESULTS(X)                                                                \
    X(CUDA_SUCCESS, 0)                                                                     \
    X(CUDA_ERROR_INVALID_VALUE, 1)                                                         \
    X(CUDA_ERROR_OUT_OF_MEMORY, 2)                                                         \
    X(CUDA_ERROR_NOT_INITIALIZED, 3)                                                       \
    X(CUDA_ERROR_DEINITIALIZED, 4)                                                         \
    X(CUDA_ERROR_STUB_LIBRARY, 34)                                                         \
    X(CUDA_ERROR_NO_DEVICE, 100)                                                           \
    X(CUDA_ERROR_INVALID_DEVICE, 101)                                                      \
    X(CUDA_ERROR_INVALID_IMAGE, 200)                                                       \
    X(CUDA_ERROR_INVALID_CONTEXT, 201)                                                     \
    X(CUDA_ERROR_NO_BINARY_FOR_GPU, 209)                                                   \
    X(CUDA_ERROR_INVALID_PTX, 218)                                                         \
    X(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, 222)                                             \
    X(CUDA_ERROR_INVALID_HANDLE, 400)                                                      \
    X(CUDA_ERROR_INVALID_SOURCE, 300)                                                      \
    X(CUDA_ERROR_FILE_NOT_FOUND, 301)                                                      \
    X(CUDA_ERROR_OPERATING_SYSTEM, 304)                                                    \
    X(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, 217)                                             \
    X(CUDA_ERROR_NOT_FOUND, 500)                                                           \
    X(CUDA_ERROR_NOT_READY, 600)                                                           \
    X(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, 704)                                         \
    X(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, 705)                                             \
    X(CUDA_ERROR_CONTEXT_IS_DESTROYED, 709)                                                \
    X(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, 712)                                      \
    X(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, 713)                                          \
    X(CUDA_ERROR_NOT_PERMITTED, 800)                                                       \
    X(CUDA_ERROR_NOT_SUPPORTED, 801)                                                       \
    X(CUDA_ERROR_ILLEGAL_ADDRESS, 700)                                                     \
    X(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, 701)                                             \
    X(CUDA_ERROR_LAUNCH_TIMEOUT, 702)                                                      \
    X(CUDA_ERROR_ASSERT, 710)                                                              \
    X(CUDA_ERROR_HARDWARE_STACK_ERROR, 714)                                                \
    X(CUDA_ERROR_ILLEGAL_INSTRUCTION, 715)                                                 \
    X(CUDA_ERROR_MISALIGNED_ADDRESS, 716)                                                  \
    X(CUDA_ERROR_INVALID_ADDRESS_SPACE, 717)                                               \
    X(CUDA_ERROR_INVALID_PC, 718)                                                          \
    X(CUDA_ERROR_LAUNCH_FAILED, 719)                                                       \
    X(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, 720)                                        \
    X(CUDA_ERROR_UNKNOWN, 999)

#define LAT_CUDA_DEVICE_ATTRIBUTES(X)                                                      \
    X(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1)                                        \
    X(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 2)                                              \
    X(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 3)                                              \
    X(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 4)                                              \
    X(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 5)                                               \
    X(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 6)                                               \
    X(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 7)                                               \
    X(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 8)                                  \
    X(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, 9)                                        \
    X(CU_DEVICE_ATTRIBUTE_WARP_SIZE, 10)                                                   \
    X(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 12)                                     \
    X(CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 13)                                                  \
    X(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 16)                                        \
    X(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 37)                                     \
    X(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 38)                                               \
    X(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 39)                              \
    X(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 75)                                    \
    X(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 76)                                    \
    X(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, 95)

#define LAT_CUDA_FUNCTION_ATTRIBUTES(X)                                                    \
    X(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 0)                                          \
    X(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, 1)                                              \
    X(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, 2)                                               \
    X(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, 3)                                               \
    X(CU_FUNC_ATTRIBUTE_NUM_REGS, 4)                                                       \
    X(CU_FUNC_ATTRIBUTE_PTX_VERSION, 5)                                                    \
    X(CU_FUNC_ATTRIBUTE_BINARY_VERSION, 6)

#define LAT_CUDA_JIT_OPTIONS(X)                                                            \
    X(CU_JIT_INFO_LOG_BUFFER, 3)                                                           \
    X(CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, 4)                                                \
    X(CU_JIT_ERROR_LOG_BUFFER, 5)                                                          \
    X(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, 6)

/* Flags and enumerators of the driver layer (streams, events, memory). */
#define LAT_CUDA_DRIVER_VALUES(X)                                                          \
    X(CU_STREAM_NON_BLOCKING, 1)                                                           \
    X(CU_EVENT_BLOCKING_SYNC, 1)                                                           \
    X(CU_EVENT_DISABLE_TIMING, 2)                                                          \
    X(CU_MEMHOSTALLOC_PORTABLE, 1)                                                         \
    X(CU_MEMHOSTALLOC_DEVICEMAP, 2)                                                        \
    X(CU_MEMHOSTALLOC_WRITECOMBINED, 4)                                                    \
    X(CU_MEMHOSTREGISTER_PORTABLE, 1)                                                      \
    X(CU_MEMHOSTREGISTER_DEVICEMAP, 2)                                                     \
    X(CU_MEMORYTYPE_HOST, 1)                                                               \
    X(CU_MEMORYTYPE_DEVICE, 2)                                                             \
    X(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, 2)                                                 \
    X(CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, 4)                                                \
    X(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, 115)                                     \
    X(CU_MEMORYTYPE_ARRAY, 3)                                                              \
    X(CU_AD_FORMAT_UNSIGNED_INT8, 0x01)                                                    \
    X(CU_AD_FORMAT_UNSIGNED_INT16, 0x02)                                                   \
    X(CU_AD_FORMAT_UNSIGNED_INT32, 0x03)                                                   \
    X(CU_AD_FORMAT_SIGNED_INT8, 0x08)                                                      \
    X(CU_AD_FORMAT_SIGNED_INT16, 0x09)                                                     \
    X(CU_AD_FORMAT_SIGNED_INT32, 0x0a)                                                     \
    X(CU_AD_FORMAT_HALF, 0x10)                                                             \
    X(CU_AD_FORMAT_FLOAT, 0x20)                                                            \
    X(CUDA_ARRAY3D_LAYERED, 0x01)                                                          \
    X(CUDA_ARRAY3D_SURFACE_LDST, 0x02)                                                     \
    X(CU_RESOURCE_TYPE_ARRAY, 0x00)                                                        \
    X(CU_RESOURCE_TYPE_LINEAR, 0x02)                                                       \
    X(CU_RESOURCE_TYPE_PITCH2D, 0x03)                                                      \
    X(CU_TR_ADDRESS_MODE_WRAP, 0)                                                          \
    X(CU_TR_ADDRESS_MODE_CLAMP, 1)                                                         \
    X(CU_TR_ADDRESS_MODE_MIRROR, 2)                                                        \
    X(CU_TR_ADDRESS_MODE_BORDER, 3)                                                        \
    X(CU_TR_FILTER_MODE_POINT, 0)                                                          \
    X(CU_TR_FILTER_MODE_LINEAR, 1)                                                         \
    X(CU_TRSF_READ_AS_INTEGER, 0x01)                                                       \
    X(CU_TRSF_NORMALIZED_COORDINATES, 0x02)

#define LAT_NVRTC_RESULTS(X)                                                               \
    X(NVRTC_SUCCESS, 0)                                                                    \
    X(NVRTC_ERROR_OUT_OF_MEMORY, 1)                                                        \
    X(NVRTC_ERROR_PROGRAM_CREATION_FAILURE, 2)                                             \
    X(NVRTC_ERROR_INVALID_INPUT, 3)                                                        \
    X(NVRTC_ERROR_INVALID_PROGRAM, 4)                                                      \
    X(NVRTC_ERROR_INVALID_OPTION, 5)                                                       \
    X(NVRTC_ERROR_COMPILATION, 6)                                                          \
    X(NVRTC_ERROR_BUILTIN_OPERATION_FAILURE, 7)                                            \
    X(NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID, 10)

#endif
