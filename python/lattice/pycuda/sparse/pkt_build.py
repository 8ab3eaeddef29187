"""pycuda.sparse.pkt_build: not provided by lattice (ImportError)."""
from . import _refuse

_refuse("pkt_build")
