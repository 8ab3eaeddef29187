"""Importing this makes a context on the best backend current (PyCUDA's autoinit):
CUDA where a GPU, its driver and NVRTC are usable, else the emulator;
``LATTICE_BACKEND=cuda|emu|cross`` chooses. ``context`` and ``device`` are here."""

from .. import core as _core
from . import driver as _driver

_driver.init()
context = _driver.Context._adopt(_core.current_context())
device = context.get_device()
