# A notebook: doublify, then pi by a mapper and a tree reducer, /work/shared/seeds/003_*.txt
import math
import numpy

import pycuda.autoinit
import pycuda.driver as cuda
from pycuda.compiler import SourceModule

# generate a CUDA (C-ish) function that will run on the GPU; PROBLEM_SIZE is hard-wired
module = SourceModule("""
  __global__ void doublify(float *a)
  {
    int idx = threadIdx.x + threadIdx.y*4;
    a[idx] *= 2;
  }
  """)

# pull "doublify" out as a Python callable
doublify = module.get_function("doublify")

# create Numpy arrays on the CPU
a = numpy.random.randn(4,4).astype(numpy.float32)
a_gpu = cuda.mem_alloc(a.nbytes)
cuda.memcpy_htod(a_gpu, a)

# define block/grid size for our problem: 4x4 block size
blockdim = (4,4,1)
doublify(a_gpu, block=blockdim)

a_doubled = numpy.empty_like(a)
cuda.memcpy_dtoh(a_doubled, a_gpu)
print (a_doubled)
print (a)

PROBLEM_SIZE = int(1e6)

module2 = SourceModule("""
__global__ void mapper(float *dest)
{
  const int id = threadIdx.x + blockDim.x*blockIdx.x;
  const double x = 1.0 * id / %d;     // x goes from 0.0 to 1.0 in PROBLEM_SIZE steps
  if (id < %d)
    dest[id] = 4.0 / (1.0 + x*x);
}
""" % (PROBLEM_SIZE, PROBLEM_SIZE))

mapper = module2.get_function("mapper")
dest = numpy.empty(PROBLEM_SIZE, dtype=numpy.float32)
blockdim = (512, 1, 1)
griddim = (int(math.ceil(PROBLEM_SIZE / 512.0)), 1, 1)

mapper(cuda.Out(dest), block=blockdim, grid=griddim)

pi_host_sum = dest.sum() * (1.0 / PROBLEM_SIZE)  # correct for bin size
print(pi_host_sum)

module3 = SourceModule("""
__global__ void reducer(float *dest, int i)
{
  const int PROBLEM_SIZE = %d;
  const int id = threadIdx.x + blockDim.x*blockIdx.x;
  if (id %% (2*i) == 0  &&  id + i < PROBLEM_SIZE) {
    dest[id] += dest[id + i];
  }
}
""" % PROBLEM_SIZE)

blockdim = (512, 1, 1)
griddim = (int(math.ceil(PROBLEM_SIZE / 512.0)), 1, 1)

reducer = module3.get_function("reducer")

# Python for loop over the 20 steps to reduce the array
i = 1
while i < PROBLEM_SIZE:
    reducer(cuda.InOut(dest), numpy.int32(i), block=blockdim, grid=griddim)
    i *= 2

# final result is in the first element
pi_inout = dest[0] * (1.0 / PROBLEM_SIZE)
print(pi_inout)

# allocate the array directly on the GPU, no CPU involved
dest_gpu = cuda.mem_alloc(PROBLEM_SIZE * numpy.dtype(numpy.float32).itemsize)

# do it again without "driver.InOut", which copies Numpy (CPU) to and from the GPU
mapper(dest_gpu, block=blockdim, grid=griddim)
i = 1
while i < PROBLEM_SIZE:
    reducer(dest_gpu, numpy.int32(i), block=blockdim, grid=griddim)
    i *= 2

# we only need the first element, so create a Numpy array with exactly one element
only_one_element = numpy.empty(1, dtype=numpy.float32)

# copy just that one element
cuda.memcpy_dtoh(only_one_element, dest_gpu)

print (only_one_element[0] * (1.0 / PROBLEM_SIZE))
