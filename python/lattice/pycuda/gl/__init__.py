"""``pycuda.gl``: CUDA/OpenGL interop, which lattice does not provide. Importing it raises
ImportError, as PyCUDA's does when built without its GL extension, so programs that guard
``import pycuda.gl`` with ``except ImportError`` take their non-GL path."""

raise ImportError("lattice.pycuda has no OpenGL interop (pycuda.gl: BufferObject, "
                  "RegisteredBuffer, make_context): PyCUDA was compiled without GL "
                  "extension support, in PyCUDA's words")
