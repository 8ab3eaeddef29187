"""PyCUDA's ``pycuda.compiler``: SourceModule compiles CUDA C at run time (NVRTC on a GPU,
lattice's own compiler on the emulator) instead of running nvcc. PyCUDA's headers
(``#include <pycuda-complex.hpp>``, ``pycuda-helpers.hpp``) are on the include path."""

from __future__ import annotations

import os
import re
import warnings
from typing import Any, Sequence

from .. import core as _core
from .driver import CompileError, LogicError, Module

DEFAULT_NVCC_FLAGS: list[str] = []


def _find_pycuda_include_path() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "cuda")


class SourceModule(Module):
    """CUDA C source compiled and loaded into the current context.

    ``options``: NVRTC's flags; nvcc-only ones (``--ptxas-options=-v``...) are ignored
    with a note. ``no_extern_c``: compile as written (else inside ``extern "C"``).
    ``include_dirs``: for #include (PyCUDA's own headers are always found).
    ``arch``/``code``: accepted (lattice compiles for the context's device).
    ``cache_dir``: lattice's compile cache on disk (LATTICE_CACHE_DIR) is used instead.
    ``keep``: ignored.
    """

    def __init__(self, source: str, nvcc: str = "nvcc", options: Sequence[str] | None = None,
                 keep: bool = False, no_extern_c: bool = False, arch: str | None = None,
                 code: str | None = None, cache_dir: Any = None,
                 include_dirs: Sequence[str] | None = None, context: Any = None):
        if isinstance(source, bytes):
            source = source.decode()
        if not isinstance(source, str):
            raise TypeError(f"SourceModule: the source must be a str, not "
                            f"{type(source).__name__}")
        if isinstance(options, str):
            raise TypeError("SourceModule: options must be a list of strings, not one str")
        dirs = [_find_pycuda_include_path()] + list(include_dirs or [])
        super().__init__(_host_typedefs(source) + source, options=list(options or []) + DEFAULT_NVCC_FLAGS,
                         include_dirs=dirs, no_extern_c=no_extern_c, context=context)
        self.source = source
        self.module = self
        log = self.log
        if log.strip():
            warnings.warn("The CUDA compiler succeeded, but said the following:\n" + log,
                          stacklevel=2)


_HOST_TYPES = {"uint": "unsigned int", "ushort": "unsigned short", "ulong": "unsigned long"}


def _host_typedefs(source: str) -> str:
    """nvcc compiles kernels with the host's headers, where glibc's <sys/types.h> defines
    uint, ushort and ulong, and PyCUDA's users write them; NVRTC and the emulator define
    neither. The ones the source uses (and does not define itself) are typedef'd first;
    #line keeps the source's own line numbers."""
    used = [t for t in _HOST_TYPES if re.search(r"\b%s\b" % t, source)
            and not re.search(r"(typedef\b[^;]*\b%s\s*;|#\s*define\s+%s\b|using\s+%s\b)"
                              % (t, t, t), source)]
    if not used:
        return ""
    return "".join(f"typedef {_HOST_TYPES[t]} {t};\n" for t in used) + "#line 1\n"


class DynamicModule:
    """Linking separately compiled device code (and the device runtime) is not supported:
    raises."""

    def __init__(self, *a: Any, **k: Any) -> None:
        raise LogicError("lattice.pycuda: DynamicModule (linking relocatable device code, "
                         "device-side launches) is not supported")


class DynamicSourceModule(DynamicModule):
    pass


def compile(source: str, nvcc: str = "nvcc", options: Any = None, keep: bool = False,  # noqa: A001
            no_extern_c: bool = False, arch: Any = None, code: Any = None, cache_dir: Any = None,
            include_dirs: Any = (), target: str = "cubin") -> bytes:
    """A binary of the source: not available (lattice loads CUDA C source directly)."""
    raise CompileError("lattice.pycuda.compiler.compile: lattice makes no cubin; "
                       "use SourceModule")


def get_nvcc_version(nvcc: str = "nvcc") -> str:
    return "lattice (NVRTC or the emulator; no nvcc)"


__all__ = ["SourceModule", "DynamicModule", "DynamicSourceModule", "compile",
           "DEFAULT_NVCC_FLAGS", "get_nvcc_version"]
_ = _core
