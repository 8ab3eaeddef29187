"""``pycuda.gl.autoinit``: importing ``pycuda.gl`` first raises ImportError (no OpenGL
interop in lattice)."""
from . import init  # noqa: F401  (never reached: the package raises on import)
