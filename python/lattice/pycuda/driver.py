"""PyCUDA's ``pycuda.driver`` over lattice's API: everything of ``pycuda._driver`` plus
PyCUDA's Python additions (In/Out/InOut, Function calls and prepared calls,
Memcpy2D/Memcpy3D, to_device...).

Unlike CUDA's per-thread context stack, the current context is the same in every thread
(a context made in the main thread works in worker threads too).
"""

from __future__ import annotations

import ctypes
import re
from typing import Any

import numpy as np

from .. import core as _core
from ._driver import *  # noqa: F401,F403
from ._driver import (Error, LogicError, _dev, _Enum, _ptr, _stream, function_attribute,
                      strided_get, strided_set)


class _Ptr:
    """A device address as a kernel argument."""
    __slots__ = ("_lattice_ptr_",)

    def __init__(self, p: int):
        self._lattice_ptr_ = p


def _kernel_arg(a: Any) -> Any:
    if isinstance(a, (np.generic, float, int, _core._HostArg)) or \
            hasattr(a, "_lattice_ptr_"):
        return a
    if isinstance(a, np.ndarray):
        if a.ndim == 0:
            return a[()]
        # PyCUDA passes an array argument's bytes by value (a struct of them).
        return np.void(a.tobytes())
    g = getattr(a, "gpudata", None)
    if g is not None or hasattr(a, "gpudata"):
        return _Ptr(0 if g is None else int(g))
    cai = getattr(a, "__cuda_array_interface__", None)
    if cai is not None:
        return _Ptr(int(cai["data"][0]))
    raise TypeError(f"invalid type on parameter: {type(a).__name__}")


def _grid(grid: Any) -> Any:
    if isinstance(grid, (int, np.integer)):
        return (int(grid),)
    return tuple(grid)


class Function(_core.Kernel):
    """A __global__ function (``module.get_function(name)``)::

        func(a_gpu, np.int32(n), block=(256, 1, 1), grid=(blocks, 1))

    ``block`` is required; ``grid`` defaults to (1, 1); ``stream``, ``shared`` (bytes),
    ``time_kernel`` (returns the seconds) as in PyCUDA."""

    _arg_format: Any = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        grid = kwargs.pop("grid", (1, 1))
        stream = _stream(kwargs.pop("stream", None))
        block = kwargs.pop("block", None)
        shared = kwargs.pop("shared", 0) or 0
        kwargs.pop("texrefs", None)
        time_kernel = kwargs.pop("time_kernel", False)
        if kwargs:
            raise ValueError("extra keyword arguments: %s" % ",".join(kwargs))
        # PyCUDA requires block=; lattice lets it default to one thread.
        args = tuple(_kernel_arg(a) for a in args)
        return _core.Kernel.__call__(self, *args, grid=_grid(grid),
                                     block=_grid((1, 1, 1) if block is None else block),
                                     shared=int(shared), stream=stream,
                                     time_kernel=time_kernel)

    # -- prepared invocation -------------------------------------------------------------
    def prepare(self, arg_types: Any, block: Any = None, shared: Any = None,
                texrefs: Any = ()) -> "Function":
        fmt = []
        if isinstance(arg_types, str):
            # Python struct codes: "PPi", "12s" (12 raw bytes: a struct by value).
            arg_types = [f"V{n}" if c == "s" else c * max(1, int(n or 1))
                         for n, c in re.findall(r"(\d*)([A-Za-z?])", arg_types)]
            arg_types = [c for t in arg_types for c in ([t] if t[0] == "V" else list(t))]
        for t in arg_types:
            if isinstance(t, str) and t == "P":
                fmt.append("P")
            else:
                fmt.append(np.dtype(t))
        self._arg_format = fmt
        self._prep_block = block
        self._prep_shared = shared or 0
        return self

    def _prepared_args(self, args: tuple) -> tuple:
        fmt = self._arg_format
        if fmt is None:
            raise LogicError("prepared call of a function that was not prepared")
        if len(args) != len(fmt):
            raise TypeError(f"{self.name}: prepared for {len(fmt)} arguments, "
                            f"got {len(args)}")
        out = []
        for f, a in zip(fmt, args):
            if f == "P":
                # "P" is PyCUDA's code for pointers and for size_t alike.
                out.append(np.uintp(a) if isinstance(a, (int, np.integer)) else
                           _Ptr(0 if a is None else _ptr(a)))
            elif f.kind == "V":
                raw = a.tobytes() if isinstance(a, (np.void, np.ndarray)) else bytes(a)
                if len(raw) != f.itemsize:
                    raise TypeError(f"{self.name}: a {len(raw)}-byte value for a "
                                    f"{f.itemsize}-byte argument")
                out.append(np.void(raw))
            else:
                try:
                    out.append(f.type(a))
                except OverflowError:
                    # As PyCUDA packs it: the integer's low bytes (-1 as uint8 is 255).
                    out.append(np.array(int(a)).astype(f)[()])
        return tuple(out)

    def prepared_call(self, grid: Any, block: Any, *args: Any,
                      shared_size: int = 0) -> None:
        _core.Kernel.__call__(self, *self._prepared_args(args), grid=_grid(grid),
                              block=_grid(block), shared=int(shared_size))

    def prepared_async_call(self, grid: Any, block: Any, stream: Any, *args: Any,
                            shared_size: int = 0) -> None:
        _core.Kernel.__call__(self, *self._prepared_args(args), grid=_grid(grid),
                              block=_grid(block), shared=int(shared_size),
                              stream=_stream(stream))

    def prepared_timed_call(self, grid: Any, block: Any, *args: Any,
                            shared_size: int = 0) -> Any:
        t = _core.Kernel.__call__(self, *self._prepared_args(args), grid=_grid(grid),
                                  block=_grid(block), shared=int(shared_size),
                                  time_kernel=True)
        return lambda: t

    # -- attributes ----------------------------------------------------------------------
    def get_attribute(self, attr: Any) -> int:  # type: ignore[override]
        name = attr.name if isinstance(attr, _Enum) else str(attr)
        return _core.Kernel.get_attribute(self, name)

    @property
    def num_regs(self) -> int:
        return self.get_attribute(function_attribute.NUM_REGS)

    @property
    def shared_size_bytes(self) -> int:
        return self.get_attribute(function_attribute.SHARED_SIZE_BYTES)

    @property
    def local_size_bytes(self) -> int:
        return self.get_attribute(function_attribute.LOCAL_SIZE_BYTES)

    @property
    def const_size_bytes(self) -> int:
        return self.get_attribute(function_attribute.CONST_SIZE_BYTES)

    @property
    def max_threads_per_block(self) -> int:
        return self.get_attribute(function_attribute.MAX_THREADS_PER_BLOCK)

    def set_cache_config(self, config: Any) -> None:
        pass

    def set_shared_config(self, config: Any) -> None:
        pass

    def set_attribute(self, attr: Any, value: int) -> None:
        pass


class Module(_core.Module):
    """A loaded module; ``get_function`` gives PyCUDA Functions."""

    def get_function(self, name: str) -> Function:  # type: ignore[override]
        k = _core.Module.get_kernel(self, name)
        if not isinstance(k, Function):
            k.__class__ = Function
        return k

    get_kernel = get_function  # type: ignore[assignment]

    def get_global(self, name: str):  # type: ignore[override]
        return _core.Module.get_global(self, name)

    def get_texref(self, name: str) -> Any:
        raise LogicError("texture references were removed in CUDA 12; lattice has "
                         "texture objects")

    get_surfref = get_texref


def module_from_buffer(buffer: Any, options: Any = None, message_handler: Any = None) -> Module:
    """A module from PTX text or a CUBIN (CUDA backend; the emulator runs only CUDA C)."""
    m = Module.from_image(buffer)
    m.__class__ = Module
    return m


def module_from_file(filename: str) -> Module:
    with open(filename, "rb") as f:
        return module_from_buffer(f.read())


def SourceModule(*args: Any, **kwargs: Any):  # noqa: N802  (old PyCUDA spelling)
    """``pycuda.driver.SourceModule`` of old PyCUDA: the compiler's SourceModule."""
    from .compiler import SourceModule as _SM
    return _SM(*args, **kwargs)


# ---- host arguments ------------------------------------------------------------------------

class ArgumentHandler(_core._HostArg):
    pass


In = _core.In
Out = _core.Out
InOut = _core.InOut


# ---- 2D/3D copies between host and device memory (PyCUDA's Memcpy2D/Memcpy3D) ----------------

class _MemcpyND:
    """Set ``set_src_host``/``set_src_device`` and ``set_dst_*``, the pitches and
    ``width_in_bytes``/``height``(/``depth``), then call it (with a stream or not)."""

    def __init__(self) -> None:
        self.src_x_in_bytes = self.src_y = self.src_z = 0
        self.dst_x_in_bytes = self.dst_y = self.dst_z = 0
        self.src_pitch = self.dst_pitch = 0
        self.src_height = self.dst_height = 0
        self.width_in_bytes = 0
        self.height = 1
        self.depth = 1
        self._src = self._dst = None

    def set_src_host(self, buf: Any) -> None:
        self._src = ("h", buf)

    def set_src_device(self, ptr: Any) -> None:
        self._src = ("d", ptr)

    def set_dst_host(self, buf: Any) -> None:
        self._dst = ("h", buf)

    def set_dst_device(self, ptr: Any) -> None:
        self._dst = ("d", ptr)

    def set_src_array(self, *a: Any) -> None:
        raise LogicError("CUDA arrays are not supported by lattice")

    set_dst_array = set_src_array
    set_src_unified = set_src_device
    set_dst_unified = set_dst_device

    def __call__(self, stream_or_aligned: Any = None, aligned: bool = False) -> None:
        if isinstance(stream_or_aligned, _core.Stream):
            stream_or_aligned.synchronize()
        if self._src is None or self._dst is None:
            raise LogicError("Memcpy: set a source and a destination first")
        w, h, d = int(self.width_in_bytes), int(self.height), int(self.depth)
        sp, dp = int(self.src_pitch or w), int(self.dst_pitch or w)
        sh, dh = int(self.src_height or h), int(self.dst_height or h)
        so = self.src_x_in_bytes + sp * (self.src_y + sh * self.src_z)
        do = self.dst_x_in_bytes + dp * (self.dst_y + dh * self.dst_z)
        shape, sst, dst_ = (d, h, w), (sp * sh, sp, 1), (dp * dh, dp, 1)
        kind_s, src = self._src
        kind_d, dst = self._dst
        if kind_s == "h":
            sbuf = _host_bytes(src, so + sst[0] * (d - 1) + sst[1] * (h - 1) + w, False)
            srcv = np.lib.stride_tricks.as_strided(sbuf[so:], shape, sst)
        else:
            srcv = np.empty(shape, np.uint8)
            strided_get(srcv, _ptr(src) + so, sst)
        if kind_d == "h":
            dbuf = _host_bytes(dst, do + dst_[0] * (d - 1) + dst_[1] * (h - 1) + w, True)
            np.lib.stride_tricks.as_strided(dbuf[do:], shape, dst_)[...] = srcv
        else:
            strided_set(_ptr(dst) + do, shape, dst_, np.ascontiguousarray(srcv))


def _host_bytes(buf: Any, need: int, writable: bool) -> np.ndarray:
    """The bytes of a host buffer from its first element on (a NumPy array of any layout:
    the copy's pitches say where its rows are), at least ``need`` of them."""
    if isinstance(buf, np.ndarray):
        if writable and not buf.flags.writeable:
            raise ValueError("Memcpy: the destination host array is read-only")
        lo = sum(st * (n - 1) for n, st in zip(buf.shape, buf.strides) if st < 0)
        hi = sum(st * (n - 1) for n, st in zip(buf.shape, buf.strides) if st > 0) + \
            buf.itemsize
        if lo < 0 or need > hi:
            raise ValueError(f"Memcpy: the copy needs {need} bytes of the host array from "
                             f"its first element, which spans {hi}")
        addr = buf.__array_interface__["data"][0]
        raw = (ctypes.c_uint8 * need).from_address(addr)
        out = np.ctypeslib.as_array(raw)
        return out
    mv = memoryview(buf).cast("B")
    if writable and mv.readonly:
        raise ValueError("Memcpy: the destination host buffer is read-only")
    if need > mv.nbytes:
        raise ValueError(f"Memcpy: the copy needs {need} bytes of a {mv.nbytes}-byte buffer")
    return np.frombuffer(mv, np.uint8)


class Memcpy2D(_MemcpyND):
    pass


class Memcpy3D(_MemcpyND):
    pass


class Memcpy3DPeer(_MemcpyND):
    def set_src_context(self, ctx: Any) -> None:
        pass

    set_dst_context = set_src_context


class Linker:
    def __init__(self, *a: Any, **k: Any) -> None:
        raise LogicError("lattice.pycuda: JIT linking (Linker) is not supported: lattice "
                         "compiles CUDA C source (SourceModule)")
