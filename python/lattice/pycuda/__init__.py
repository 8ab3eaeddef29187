"""PyCUDA's API over lattice: PyCUDA programs run with only their imports changed
(``import lattice.pycuda.autoinit``, ``import lattice.pycuda.driver as drv``,
``from lattice.pycuda.compiler import SourceModule``), on a GPU or on the emulator.

What differs from PyCUDA is listed in docs/python.md.
"""

VERSION = (2026, 1)
VERSION_STATUS = "lattice"
VERSION_TEXT = "2026.1 (lattice)"
