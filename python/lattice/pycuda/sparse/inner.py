"""pycuda.sparse.inner: not provided by lattice (ImportError)."""
from . import _refuse

_refuse("inner")
