"""pycuda.sparse.coordinate: not provided by lattice (ImportError)."""
from . import _refuse

_refuse("coordinate")
