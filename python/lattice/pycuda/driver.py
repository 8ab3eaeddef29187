"""PyCUDA's ``pycuda.driver`` over lattice.

Unlike CUDA's per-thread context stack, the current context is the same in every thread
(a context made in the main thread works in worker threads too).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import core as _core
from .. import errors as _errors
from ..core import (DeviceAllocation, Event, In, InOut, Out, Stream, mem_alloc,  # noqa: F401
                    memcpy_dtod, memcpy_dtoh, memcpy_htod, memset_d8, memset_d16, memset_d32)
from ..core import Kernel as Function  # noqa: F401

__all__ = ["init", "Device", "Context", "DeviceAllocation", "Function", "Module",
           "SourceModule", "In", "Out", "InOut", "Stream", "Event", "mem_alloc",
           "mem_get_info", "memcpy_htod", "memcpy_dtoh", "memcpy_dtod", "memcpy_htod_async",
           "memcpy_dtoh_async", "memcpy_dtod_async", "module_from_buffer", "module_from_file",
           "pagelocked_empty", "pagelocked_zeros", "Error", "LogicError", "LaunchError",
           "CompileError", "MemoryError", "RuntimeError", "to_device", "from_device",
           "from_device_like"]

# PyCUDA's exception names. Error is LatticeError itself, so `except drv.Error` catches
# every lattice failure; the others are the matching lattice classes.
Error = _errors.LatticeError
LogicError = _errors.InvalidValueError
LaunchError = _errors.LaunchFailedError
CompileError = _errors.CompileError
MemoryError = _errors.OutOfDeviceMemoryError  # noqa: A001
RuntimeError = _errors.DriverError  # noqa: A001


def init(flags: int = 0) -> None:
    """Nothing to do: lattice finds its backends on first use (kept for PyCUDA)."""


def get_version() -> tuple[int, int, int]:
    from .. import _lib
    v = _lib.lib.lat_version()
    return (v // 10000, v // 100 % 100, v % 100)


def get_driver_version() -> int:
    return 0


class Device(_core.Device):
    """``Device(0)``: a device of the automatic backend (``Device.count()`` of them)."""

    def make_context(self, flags: int = 0) -> "Context":
        ctx = Context(backend=self._kind, device=self.ordinal)
        ctx.push()
        return ctx

    def get_attributes(self) -> dict[str, Any]:
        return self.info

    def pci_bus_id(self) -> str:
        return ""


class Context(_core.Context):
    """A context. ``synchronize``, ``pop``, ``get_device`` and ``get_current`` are static
    and act on the current context, as PyCUDA's do."""

    @classmethod
    def _adopt(cls, ctx: _core.Context) -> "Context":
        ctx.__class__ = cls
        return ctx

    @staticmethod
    def synchronize() -> None:  # type: ignore[override]
        _core.Context.synchronize(_core.current_context())

    @staticmethod
    def get_device() -> Device:  # type: ignore[override]
        d = _core.Context.get_device(_core.current_context())
        d.__class__ = Device
        return d

    @staticmethod
    def get_current() -> "_core.Context | None":
        return _core.Context.get_current()

    def detach(self) -> None:
        self.close()


def mem_get_info() -> tuple[int, int]:
    """(free, total) bytes of the current context's device."""
    return _core.current_context().mem_info()


def memcpy_htod_async(dest: Any, src: Any, stream: Stream | None = None) -> None:
    memcpy_htod(dest, src, stream)


def memcpy_dtoh_async(dest: Any, src: Any, stream: Stream | None = None) -> None:
    memcpy_dtoh(dest, src, stream)


def memcpy_dtod_async(dest: Any, src: Any, size: int, stream: Stream | None = None) -> None:
    memcpy_dtod(dest, src, size, stream)


def to_device(bf_obj: Any) -> DeviceAllocation:
    a = np.ascontiguousarray(bf_obj) if isinstance(bf_obj, np.ndarray) else bf_obj
    n = memoryview(a).nbytes
    d = mem_alloc(max(n, 1))
    memcpy_htod(d, a)
    return d


def from_device(devptr: Any, shape: Any, dtype: Any, order: str = "C") -> np.ndarray:
    out = np.empty(shape, dtype, order=order)
    memcpy_dtoh(out, devptr)
    return out


def from_device_like(devptr: Any, other_ary: np.ndarray) -> np.ndarray:
    out = np.empty_like(other_ary)
    memcpy_dtoh(out, devptr)
    return out


def pagelocked_empty(shape: Any, dtype: Any, order: str = "C", mem_flags: int = 0) -> np.ndarray:
    """A host array (ordinary memory: lattice's copies take any host memory)."""
    return np.empty(shape, dtype, order=order)


def pagelocked_zeros(shape: Any, dtype: Any, order: str = "C", mem_flags: int = 0) -> np.ndarray:
    return np.zeros(shape, dtype, order=order)


def pagelocked_empty_like(a: np.ndarray, mem_flags: int = 0) -> np.ndarray:
    return np.empty_like(a)


class Module(_core.Module):
    """A loaded module (from ``module_from_buffer``/``module_from_file`` or SourceModule)."""


def module_from_buffer(buffer: Any, options: Any = None, message_handler: Any = None) -> Module:
    """A module from PTX text or a CUBIN (CUDA backend; the emulator runs only CUDA C)."""
    return Module.from_image(buffer)


def module_from_file(filename: str) -> Module:
    with open(filename, "rb") as f:
        return module_from_buffer(f.read())


def SourceModule(*args: Any, **kwargs: Any):  # noqa: N802  (old PyCUDA spelling)
    """``pycuda.driver.SourceModule`` of old PyCUDA: the compiler's SourceModule."""
    from .compiler import SourceModule as _SM
    return _SM(*args, **kwargs)


class ctx_flags:  # noqa: N801
    SCHED_AUTO = 0
    SCHED_SPIN = 1
    SCHED_YIELD = 2
    SCHED_BLOCKING_SYNC = 4
    MAP_HOST = 8


class event_flags:  # noqa: N801
    DEFAULT = 0
    BLOCKING_SYNC = 1
    DISABLE_TIMING = 2
