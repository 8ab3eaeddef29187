"""pycuda.sparse.cg: not provided by lattice (ImportError)."""
from . import _refuse

_refuse("cg")
