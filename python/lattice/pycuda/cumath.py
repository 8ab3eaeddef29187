"""PyCUDA's ``pycuda.cumath``: elementwise math on GPUArrays."""

from ..math import *  # noqa: F401,F403
from ..math import __all__  # noqa: F401
