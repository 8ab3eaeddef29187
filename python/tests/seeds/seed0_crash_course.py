# Lecture 1 (PyCUDA crash course), /work/shared/seeds/000_*.txt
import numpy as np
import pycuda.driver as cuda
import pycuda.autoinit
from pycuda.compiler import SourceModule

# Create a numpy array of float32
a = np.random.rand(16)
a = a.astype(np.float32)

a_gpu = cuda.mem_alloc(a.nbytes)
# Copy direction is from LEFT to RIGHT
cuda.memcpy_htod(a_gpu, a)

module = SourceModule("""
   __global__ void double_array(float *a){
      int idx = blockIdx.x * blockDim.x + threadIdx.x;
      a[idx] *= 2;
      }
   """)

# In string is the function name as mentioned in the Kernel
function = module.get_function("double_array")

# func ( (args to the kernel function <gpu mem locations >, block=(x,y,z), grid=(a,b,c) )
function(a_gpu, block=(16, 1, 1), grid=(1, 1, 1))

# Empty arrary with dim same as a
a_final = np.empty_like(a)
cuda.memcpy_dtoh(a_final, a_gpu)
