"""PyCUDA's ``pycuda.compiler``: SourceModule compiles CUDA C at run time (NVRTC on a GPU,
lattice's own compiler on the emulator) instead of running nvcc."""

from __future__ import annotations

import os
import warnings
from typing import Any, Sequence

from .. import core as _core
from .. import errors as _errors

DEFAULT_NVCC_FLAGS: list[str] = []

# What nvcc's host headers give every PyCUDA kernel and NVRTC does not (glibc's
# <sys/types.h> through cuda_runtime.h): PyCUDA's own examples use uint. Then #line 1, so
# that messages count the program's lines as written.
_NVCC_HOST_TYPES = ("typedef unsigned int uint;\ntypedef unsigned short ushort;\n"
                    "typedef unsigned long ulong;\n#line 1\n")


def _source_text(source: Any) -> str:
    # PyCUDA writes str(source) to nvcc's input: templates and other objects are their
    # text; bytes are read as UTF-8 rather than as "b'...'".
    if isinstance(source, (bytes, bytearray)):
        return bytes(source).decode()
    return source if isinstance(source, str) else str(source)


_COMPILE_LIKE: dict[type, type] = {}


def _as_compile_error(e: Exception) -> Exception:
    """What the compiler refused (a construct lattice does not have, a header not found)
    as PyCUDA reports every failed nvcc run: a ``drv.CompileError``, which programs catch
    to print the compiler's output. It keeps its own class too (``UnsupportedError``, a
    ``NotImplementedError``; ``FileError``, an ``OSError``) and its status."""
    cls = type(e)
    sub = _COMPILE_LIKE.get(cls)
    if sub is None:
        sub = _COMPILE_LIKE[cls] = type(cls.__name__, (cls, _errors.CompileError),
                                        {"__module__": cls.__module__, "__doc__": cls.__doc__})
    return sub(e.message)


class SourceModule(_core.Module):
    """CUDA C source compiled and loaded into the current context.

    ``source``: the program (anything else is taken as ``str(source)``, bytes as UTF-8).
    ``options``: NVRTC's flags; nvcc-only ones (``--ptxas-options=-v``...) are ignored
    with a note. ``no_extern_c``: compile as written. ``include_dirs``: for #include
    (``<pycuda-complex.hpp>`` is built in on every backend). ``arch``/``code``: ignored
    (lattice compiles for the context's device, so arch mismatches cannot happen).
    ``cache_dir``: lattice's compile cache on disk (LATTICE_CACHE_DIR) is used instead;
    ``False`` is accepted. ``keep``: ignored.
    """

    _block_required = True  # a call without block= raises, as in PyCUDA

    def __init__(self, source: Any, nvcc: str = "nvcc", options: Sequence[str] | None = None,
                 keep: bool = False, no_extern_c: bool = False, arch: str | None = None,
                 code: str | None = None, cache_dir: Any = None,
                 include_dirs: Sequence[str] = (), context: Any = None):
        from . import driver as _drv
        source = _source_text(source)
        options = list(options or []) + DEFAULT_NVCC_FLAGS
        if _drv.CUDA_DEBUGGING and "-G" not in options:
            options.append("-G")
        try:
            super().__init__(_NVCC_HOST_TYPES + source, options=options,
                             include_dirs=list(include_dirs) or None,
                             no_extern_c=no_extern_c, context=context)
        except (_errors.UnsupportedError, _errors.FileError) as e:  # type: ignore[attr-defined]
            raise _as_compile_error(e) from None
        self.source = source
        self.module = self
        log = self.log
        if log.strip():
            warnings.warn("The CUDA compiler succeeded, but said the following:\n" + log,
                          stacklevel=2)

    def get_function(self, name: str) -> Any:
        """The kernel ``name``; with ``no_extern_c=True`` also by nvcc's mangled name
        (``_Z6kernelPf``, ``_Z2ktIfLi3EEvPT_``), as PyCUDA programs ask for it (lattice
        finds those on every backend: lat_module_get_kernel)."""
        return super().get_function(name)

    get_kernel = get_function

    def get_texref(self, name: str) -> Any:
        from .driver import _no_texref
        _no_texref()

    get_surfref = get_texref


class DynamicSourceModule(SourceModule):
    """PyCUDA's module for dynamic parallelism: compiled as a SourceModule; a kernel that
    launches kernels (``<<<...>>>`` in device code) is refused by the compiler with a
    CompileError that says so. ``cuda_libdir`` is ignored."""

    def __init__(self, source: Any, nvcc: str = "nvcc", options: Sequence[str] | None = None,
                 keep: bool = False, no_extern_c: bool = False, arch: str | None = None,
                 code: str | None = None, cache_dir: Any = None,
                 include_dirs: Sequence[str] = (), cuda_libdir: Any = None,
                 context: Any = None):
        opts = [o for o in (options or []) if o not in ("-rdc=true", "-lcudadevrt")]
        super().__init__(source, nvcc, opts, keep, no_extern_c, arch, code, cache_dir,
                         include_dirs, context)


class DynamicModule:
    """PyCUDA's linker of separately compiled device code (``-rdc=true``, cudadevrt):
    refused, lattice compiles one source per module."""

    def __init__(self, *args: Any, **kwargs: Any):
        raise NotImplementedError("DynamicModule links separately compiled device code "
                                  "(-rdc=true, cudadevrt), which lattice does not do: put the "
                                  "code in one SourceModule (device-side launches are "
                                  "refused)")


def compile(source: Any, nvcc: str = "nvcc", options: Any = None, keep: bool = False,  # noqa: A001
            no_extern_c: bool = False, arch: Any = None, code: Any = None, cache_dir: Any = None,
            include_dirs: Any = (), target: str = "cubin") -> bytes:
    """The device code of ``source`` (for ``drv.module_from_buffer``), compiled for the
    current context's device: a CUBIN or PTX as NVRTC gave it, when that is the
    ``target`` asked for (NotImplementedError for a target lattice did not produce). The
    emulator compiles to host code, which it cannot give out: it gives an image that holds
    the source and options, which ``module_from_buffer`` and ``module_from_file`` load by
    compiling it again. For "ptx" that image is text, PTX comments only, that names each
    kernel in a ``.visible .entry NAME(`` line as PTX does (programs read the names
    there: tinygrad's PyCUDA backend did); it is not PTX that ptxas could take."""
    import ctypes
    from .._lib import lib
    if target not in ("cubin", "ptx", "fatbin"):
        raise ValueError(f"compile: target {target!r} (cubin, ptx or fatbin)")
    mod = SourceModule(source, nvcc, options, keep, no_extern_c, arch, code, cache_dir,
                       include_dirs)
    kind, data, size = ctypes.c_int(), ctypes.c_void_p(), ctypes.c_size_t()
    st = lib.lat_module_get_code(mod.handle, ctypes.byref(kind), ctypes.byref(data),
                                 ctypes.byref(size))
    if st != 0:
        # The emulator's "binary" is the source and the options, which module_from_buffer
        # and module_from_file compile again (the disk cache makes that quick), so that
        # programs that compile once and load later run.
        if target == "ptx":
            return _emu_ptx_image(mod, source, options, no_extern_c, include_dirs)
        return _emu_image(source, options, no_extern_c, include_dirs)

    got = {1: "ptx", 2: "cubin"}.get(kind.value, "?")
    if got != target:
        raise NotImplementedError(f"compiler.compile: lattice produced {got}, not {target}; "
                                  "module_from_buffer loads either")
    return ctypes.string_at(data.value, size.value)


_EMU_IMAGE_MAGIC = b"\x7fLATTICE-EMULATOR-MODULE\n"


def _emu_image(source: Any, options: Any, no_extern_c: bool, include_dirs: Any) -> bytes:
    import json
    return _EMU_IMAGE_MAGIC + json.dumps({
        "source": _source_text(source), "options": list(options or []),
        "no_extern_c": bool(no_extern_c),
        "include_dirs": [os.path.abspath(d) for d in include_dirs or ()]}).encode()


_EMU_PTX_MAGIC = b"// LATTICE-EMULATOR-MODULE\n"


def _emu_ptx_image(mod: Any, source: Any, options: Any, no_extern_c: bool,
                   include_dirs: Any) -> bytes:
    """The emulator's image as PTX-shaped text: comments that name the kernels by the
    symbols PTX would give them (mangled for C++ linkage), then the image's JSON."""
    import ctypes
    from .._lib import lib
    lines = [_EMU_PTX_MAGIC.decode(),
             "// lattice's emulator compiles CUDA C to host code and has no PTX; this text\n"
             "// holds the source, which module_from_buffer compiles again. Its kernels:\n"]
    for i in range(lib.lat_module_kernel_count(mod.handle)):
        name = lib.lat_module_kernel_name(mod.handle, i)
        sym = ctypes.c_char_p()
        if lib.lat_module_get_lowered_name(mod.handle, name, ctypes.byref(sym)) == 0:
            name = sym.value
        lines.append(f"// .visible .entry {name.decode()}(\n")
    image = _emu_image(source, options, no_extern_c, include_dirs)
    return "".join(lines).encode() + b"// " + image[len(_EMU_IMAGE_MAGIC):] + b"\n"


def _module_from_emu_image(data: bytes) -> "SourceModule | None":
    """The module of an image compiler.compile made on the emulator; None for others."""
    if data.startswith(_EMU_PTX_MAGIC):
        data = _EMU_IMAGE_MAGIC + data.rstrip(b"\n").rsplit(b"\n// ", 1)[1]
    if not data.startswith(_EMU_IMAGE_MAGIC):
        return None
    import json
    spec = json.loads(data[len(_EMU_IMAGE_MAGIC):].decode())
    return SourceModule(spec["source"], options=spec["options"],
                        no_extern_c=spec["no_extern_c"], include_dirs=spec["include_dirs"])


def get_nvcc_version(nvcc: str = "nvcc") -> str:
    return "lattice (NVRTC or the emulator; no nvcc)"


# PyCUDA's base class of SourceModule and DynamicModule.
CudaModule = _core.Module


def preprocess_source(source: Any, options: Any = None, nvcc: str = "nvcc") -> str:
    """PyCUDA runs ``nvcc -E`` here; lattice has no nvcc, and its compilers preprocess
    each module themselves: refused."""
    raise NotImplementedError("compiler.preprocess_source runs nvcc -E, which lattice does "
                              "not have; SourceModule preprocesses its source itself")


def compile_plain(source: Any, options: Any, keep: bool, nvcc: str, cache_dir: Any,
                  target: str = "cubin") -> bytes:
    """PyCUDA's nvcc driver: lattice's is ``compile`` (NVRTC on a GPU)."""
    return compile(source, nvcc, options, keep, True, target=target)
