"""Importing this makes a context on the best backend current (PyCUDA's autoinit):
CUDA where a GPU, its driver and NVRTC are usable, else the emulator;
``LATTICE_BACKEND=cuda|emu|cross`` chooses. ``context`` and ``device`` are here."""

from .. import core as _core
from . import driver as _driver

_driver.init()
context = _driver.Context._adopt(_core.current_context())
# Pushed, as PyCUDA's autoinit pushes the context it makes: programs that end with
# ``pycuda.autoinit.context.pop()`` pop it (and a second pop raises, as in PyCUDA).
context.push()
device = context.get_device()
