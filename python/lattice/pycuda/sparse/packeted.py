"""pycuda.sparse.packeted: not provided by lattice (ImportError)."""
from . import _refuse

_refuse("packeted")
