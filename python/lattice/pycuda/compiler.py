"""PyCUDA's ``pycuda.compiler``: SourceModule compiles CUDA C at run time (NVRTC on a GPU,
lattice's own compiler on the emulator) instead of running nvcc."""

from __future__ import annotations

import os
import warnings
from typing import Any, Sequence

from .. import core as _core

DEFAULT_NVCC_FLAGS: list[str] = []


class SourceModule(_core.Module):
    """CUDA C source compiled and loaded into the current context.

    ``options``: NVRTC's flags; nvcc-only ones (``--ptxas-options=-v``...) are ignored
    with a note. ``no_extern_c``: compile as written. ``include_dirs``: for #include.
    ``arch``/``code``: ignored (lattice compiles for the context's device, so arch
    mismatches cannot happen). ``cache_dir``: lattice's compile cache on disk
    (LATTICE_CACHE_DIR) is used instead; ``False`` is accepted. ``keep``: ignored.
    """

    def __init__(self, source: str, nvcc: str = "nvcc", options: Sequence[str] | None = None,
                 keep: bool = False, no_extern_c: bool = False, arch: str | None = None,
                 code: str | None = None, cache_dir: Any = None,
                 include_dirs: Sequence[str] = (), context: Any = None):
        super().__init__(source, options=list(options or []) + DEFAULT_NVCC_FLAGS,
                         include_dirs=list(include_dirs) or None, no_extern_c=no_extern_c,
                         context=context)
        self.source = source
        log = self.log
        if log.strip():
            warnings.warn("The CUDA compiler succeeded, but said the following:\n" + log,
                          stacklevel=2)


class DynamicSourceModule(SourceModule):
    pass


def compile(source: str, nvcc: str = "nvcc", options: Any = None, keep: bool = False,  # noqa: A001
            no_extern_c: bool = False, arch: Any = None, code: Any = None, cache_dir: Any = None,
            include_dirs: Any = ()) -> bytes:
    """PTX of the source (CUDA backend only; not available on the emulator)."""
    raise NotImplementedError("lattice.pycuda.compiler.compile: lattice loads source directly; "
                              "use SourceModule")


def get_nvcc_version(nvcc: str = "nvcc") -> str:
    return "lattice (NVRTC or the emulator; no nvcc)"
