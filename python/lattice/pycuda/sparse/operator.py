"""pycuda.sparse.operator: not provided by lattice (ImportError)."""
from . import _refuse

_refuse("operator")
