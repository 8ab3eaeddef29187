"""PyCUDA's ``pycuda.driver`` over lattice.

Unlike CUDA's per-thread context stack, the current context is the same in every thread
(a context made in the main thread works in worker threads too). What lattice cannot do
(texture references, CUDA arrays, device-side linking) raises
NotImplementedError naming what to use instead; docs/python.md lists each.
"""

from __future__ import annotations

import enum
import operator
import re as _re
from typing import Any

import numpy as np

from .. import core as _core
from .. import errors as _errors
from .._lib import lib as _lib
from ..core import (DeviceAllocation, Event, In, InOut, Out, Stream, mem_alloc,  # noqa: F401
                    memcpy_dtod, memcpy_dtoh, memcpy_htod, memset_d8, memset_d16, memset_d32)
from ..core import Kernel as Function  # noqa: F401

__all__ = ["init", "have_gl_ext", "set_debugging", "Device", "Context", "DeviceAllocation", "Function", "Module",
           "SourceModule", "In", "Out", "InOut", "Stream", "Event", "mem_alloc",
           "mem_alloc_like", "mem_get_info", "memcpy_htod", "memcpy_dtoh", "memcpy_dtod",
           "memcpy_htod_async", "memcpy_dtoh_async", "memcpy_dtod_async", "memset_d8",
           "memset_d16", "memset_d32", "module_from_buffer", "module_from_file",
           "pagelocked_empty", "pagelocked_zeros", "pagelocked_empty_like",
           "pagelocked_zeros_like", "aligned_empty", "aligned_zeros", "aligned_empty_like",
           "aligned_zeros_like", "register_host_memory", "Error", "LogicError",
           "LaunchError", "CompileError", "MemoryError", "RuntimeError", "to_device",
           "from_device", "from_device_like", "PointerHolderBase", "get_version",
           "get_driver_version", "device_attribute", "function_attribute", "ArrayDescriptor",
           "ArrayDescriptor3D", "dtype_to_array_format", "mem_alloc_pitch", "Memcpy2D",
           "Memcpy3D"]

# PyCUDA's exception names. Error is LatticeError itself, so `except drv.Error` catches
# every lattice failure; the others are the matching lattice classes.
Error = _errors.LatticeError

# PyCUDA's LogicError: every status that means the program asked for something invalid
# (an invalid value, device or address, a kernel not found, a launch configuration or
# shared size out of range), as CUDA's statuses map to it in PyCUDA.
LogicError = _errors.RequestError
LaunchError = _errors.LaunchFailedError
CompileError = _errors.CompileError
# PyCUDA's CompileError carries msg, command_line, stdout and stderr (the compiler's
# output, which programs print): lattice's message holds the compiler's log.
CompileError.msg = property(lambda self: self.message)  # type: ignore[attr-defined]
CompileError.command_line = "lattice (NVRTC, or the emulator's compiler)"  # type: ignore[attr-defined]
CompileError.stdout = ""  # type: ignore[attr-defined]
CompileError.stderr = property(lambda self: self.message)  # type: ignore[attr-defined]
MemoryError = _errors.OutOfDeviceMemoryError  # noqa: A001
RuntimeError = _errors.DriverError  # noqa: A001


def init(flags: int = 0) -> None:
    """Nothing to do: lattice finds its backends on first use (kept for PyCUDA)."""


def _backend_kind() -> int:
    ctx = _core.Context.get_current()
    if ctx is not None and ctx.alive:
        return ctx._kind
    return _core.Device(0)._kind


def have_gl_ext() -> bool:
    """Whether PyCUDA was built with OpenGL interop: lattice has none (``pycuda.gl``
    raises ImportError, as PyCUDA built without it does)."""
    return False


def get_driver_version() -> int:
    """The CUDA driver version as cuDriverGetVersion gives it (12040 for 12.4). On the
    emulator: the CUDA version whose semantics it follows (12080: CUDA 12.8)."""
    from ctypes import byref, c_int
    v = c_int()
    _errors.check(_lib.lat_backend_driver_version(_backend_kind(), byref(v)),
                  "get_driver_version")
    return v.value


CUDA_DEBUGGING = False


def set_debugging(flag: bool = True) -> None:
    """PyCUDA's: SourceModules compiled after it are built for debuggers (``-G``; on the
    emulator, for gdb and lldb, docs/debugging.md). ``import pycuda.debug`` sets it."""
    global CUDA_DEBUGGING
    CUDA_DEBUGGING = bool(flag)


def get_version() -> tuple[int, int, int]:
    """The CUDA version kernels are compiled and run for, as (major, minor, 0): the
    driver's on CUDA (lattice compiles with the NVRTC that matches it), the one the
    emulator follows there (get_driver_version)."""
    v = get_driver_version()
    return (v // 1000, v % 1000 // 10, 0)


# ----------------------------------------------------------------------------------------
# Enumerations (cuda.h's values)
# ----------------------------------------------------------------------------------------

class _Enum(enum.IntEnum):
    """PyCUDA's enums (Boost.Python's) print as their names: ``str(attr)`` and
    ``f"{attr}"`` are "WARP_SIZE" (programs print ``get_attributes()`` so); with a format
    spec (``f"{attr:d}"``) and in arithmetic they are the integer."""

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return self.name if not spec else int.__format__(int(self), spec)


_DEVICE_ATTRIBUTES = dict(
    MAX_THREADS_PER_BLOCK=1, MAX_BLOCK_DIM_X=2, MAX_BLOCK_DIM_Y=3, MAX_BLOCK_DIM_Z=4,
    MAX_GRID_DIM_X=5, MAX_GRID_DIM_Y=6, MAX_GRID_DIM_Z=7, MAX_SHARED_MEMORY_PER_BLOCK=8,
    SHARED_MEMORY_PER_BLOCK=8, TOTAL_CONSTANT_MEMORY=9, WARP_SIZE=10, MAX_PITCH=11,
    MAX_REGISTERS_PER_BLOCK=12, REGISTERS_PER_BLOCK=12, CLOCK_RATE=13, TEXTURE_ALIGNMENT=14,
    GPU_OVERLAP=15, MULTIPROCESSOR_COUNT=16, KERNEL_EXEC_TIMEOUT=17, INTEGRATED=18,
    CAN_MAP_HOST_MEMORY=19, COMPUTE_MODE=20, MAXIMUM_TEXTURE1D_WIDTH=21,
    MAXIMUM_TEXTURE2D_WIDTH=22, MAXIMUM_TEXTURE2D_HEIGHT=23, MAXIMUM_TEXTURE3D_WIDTH=24,
    MAXIMUM_TEXTURE3D_HEIGHT=25, MAXIMUM_TEXTURE3D_DEPTH=26,
    MAXIMUM_TEXTURE2D_LAYERED_WIDTH=27, MAXIMUM_TEXTURE2D_ARRAY_WIDTH=27,
    MAXIMUM_TEXTURE2D_LAYERED_HEIGHT=28, MAXIMUM_TEXTURE2D_ARRAY_HEIGHT=28,
    MAXIMUM_TEXTURE2D_LAYERED_LAYERS=29, MAXIMUM_TEXTURE2D_ARRAY_NUMSLICES=29,
    SURFACE_ALIGNMENT=30, CONCURRENT_KERNELS=31, ECC_ENABLED=32, PCI_BUS_ID=33,
    PCI_DEVICE_ID=34, TCC_DRIVER=35, MEMORY_CLOCK_RATE=36, GLOBAL_MEMORY_BUS_WIDTH=37,
    L2_CACHE_SIZE=38, MAX_THREADS_PER_MULTIPROCESSOR=39, ASYNC_ENGINE_COUNT=40,
    UNIFIED_ADDRESSING=41, MAXIMUM_TEXTURE1D_LAYERED_WIDTH=42,
    MAXIMUM_TEXTURE1D_LAYERED_LAYERS=43, PCI_DOMAIN_ID=50, TEXTURE_PITCH_ALIGNMENT=51,
    MAXIMUM_SURFACE1D_WIDTH=55, MAXIMUM_SURFACE2D_WIDTH=56, MAXIMUM_SURFACE2D_HEIGHT=57,
    MAXIMUM_SURFACE3D_WIDTH=58, MAXIMUM_SURFACE3D_HEIGHT=59, MAXIMUM_SURFACE3D_DEPTH=60,
    MAXIMUM_SURFACE1D_LAYERED_WIDTH=61, MAXIMUM_SURFACE1D_LAYERED_LAYERS=62,
    MAXIMUM_SURFACE2D_LAYERED_WIDTH=63, MAXIMUM_SURFACE2D_LAYERED_HEIGHT=64,
    MAXIMUM_SURFACE2D_LAYERED_LAYERS=65, MAXIMUM_TEXTURE1D_LINEAR_WIDTH=69,
    MAXIMUM_TEXTURE2D_LINEAR_WIDTH=70, MAXIMUM_TEXTURE2D_LINEAR_HEIGHT=71,
    MAXIMUM_TEXTURE2D_LINEAR_PITCH=72, COMPUTE_CAPABILITY_MAJOR=75,
    COMPUTE_CAPABILITY_MINOR=76, STREAM_PRIORITIES_SUPPORTED=78,
    GLOBAL_L1_CACHE_SUPPORTED=79, LOCAL_L1_CACHE_SUPPORTED=80,
    MAX_SHARED_MEMORY_PER_MULTIPROCESSOR=81, MAX_REGISTERS_PER_MULTIPROCESSOR=82,
    MANAGED_MEMORY=83, MULTI_GPU_BOARD=84, MULTI_GPU_BOARD_GROUP_ID=85,
    HOST_NATIVE_ATOMIC_SUPPORTED=86, SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO=87,
    PAGEABLE_MEMORY_ACCESS=88, CONCURRENT_MANAGED_ACCESS=89,
    COMPUTE_PREEMPTION_SUPPORTED=90, CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM=91,
    COOPERATIVE_LAUNCH=95, COOPERATIVE_MULTI_DEVICE_LAUNCH=96,
    MAX_SHARED_MEMORY_PER_BLOCK_OPTIN=97, CAN_FLUSH_REMOTE_WRITES=98,
    HOST_REGISTER_SUPPORTED=99, PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES=100,
    DIRECT_MANAGED_MEM_ACCESS_FROM_HOST=101, VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED=102,
    MAX_BLOCKS_PER_MULTIPROCESSOR=106, GENERIC_COMPRESSION_SUPPORTED=107,
    MAX_PERSISTING_L2_CACHE_SIZE=108, MAX_ACCESS_POLICY_WINDOW_SIZE=109,
    RESERVED_SHARED_MEMORY_PER_BLOCK=111, READ_ONLY_HOST_REGISTER_SUPPORTED=113,
    MEMORY_POOLS_SUPPORTED=115, GPU_DIRECT_RDMA_SUPPORTED=116,
)
#: cuda.h's CUdevice_attribute (the names lattice knows, with their aliases).
device_attribute = _Enum("device_attribute", _DEVICE_ATTRIBUTES)
#: cuda.h's CUfunction_attribute.
function_attribute = _Enum("function_attribute", dict(
    MAX_THREADS_PER_BLOCK=0, SHARED_SIZE_BYTES=1, CONST_SIZE_BYTES=2, LOCAL_SIZE_BYTES=3,
    NUM_REGS=4, PTX_VERSION=5, BINARY_VERSION=6, CACHE_MODE_CA=7,
    MAX_DYNAMIC_SHARED_SIZE_BYTES=8, PREFERRED_SHARED_MEMORY_CARVEOUT=9, MAX=10))
compute_mode = _Enum("compute_mode", dict(DEFAULT=0, EXCLUSIVE=1, PROHIBITED=2,
                                                 EXCLUSIVE_PROCESS=3))
func_cache = _Enum("func_cache", dict(PREFER_NONE=0, PREFER_SHARED=1, PREFER_L1=2,
                                             PREFER_EQUAL=3))
shared_config = _Enum("shared_config", dict(DEFAULT_BANK_SIZE=0,
                                                   FOUR_BYTE_BANK_SIZE=1,
                                                   EIGHT_BYTE_BANK_SIZE=2))
limit = _Enum("limit", dict(STACK_SIZE=0, PRINTF_FIFO_SIZE=1, MALLOC_HEAP_SIZE=2,
                                   DEV_RUNTIME_SYNC_DEPTH=3,
                                   DEV_RUNTIME_PENDING_LAUNCH_COUNT=4))
array_format = _Enum("array_format", dict(
    UNSIGNED_INT8=0x01, UNSIGNED_INT16=0x02, UNSIGNED_INT32=0x03, SIGNED_INT8=0x08,
    SIGNED_INT16=0x09, SIGNED_INT32=0x0A, HALF=0x10, FLOAT=0x20))
memory_type = _Enum("memory_type", dict(HOST=1, DEVICE=2, ARRAY=3, UNIFIED=4))


address_mode = _Enum("address_mode", dict(WRAP=0, CLAMP=1, MIRROR=2, BORDER=3))
filter_mode = _Enum("filter_mode", dict(POINT=0, LINEAR=1))
pointer_attribute = _Enum("pointer_attribute", dict(CONTEXT=1, MEMORY_TYPE=2,
                                                           DEVICE_POINTER=3, HOST_POINTER=4))
jit_option = _Enum("jit_option", dict(
    MAX_REGISTERS=0, THREADS_PER_BLOCK=1, WALL_TIME=2, INFO_LOG_BUFFER=3,
    INFO_LOG_BUFFER_SIZE_BYTES=4, ERROR_LOG_BUFFER=5, ERROR_LOG_BUFFER_SIZE_BYTES=6,
    OPTIMIZATION_LEVEL=7, TARGET_FROM_CUCONTEXT=8, TARGET=9, FALLBACK_STRATEGY=10))
jit_target = _Enum("jit_target", {f"COMPUTE_{c}": int(c.rstrip("A")) + (
    65536 if c.endswith("A") else 0) for c in (
    "10", "11", "12", "13", "20", "21", "30", "32", "35", "37", "50", "52", "53", "60", "61",
    "62", "70", "72", "75", "80", "86", "87", "89", "90", "90A")})
graphics_register_flags = _Enum("graphics_register_flags", dict(
    NONE=0, READ_ONLY=1, WRITE_DISCARD=2, SURFACE_LDST=4, TEXTURE_GATHER=8))
jit_fallback = _Enum("jit_fallback", dict(PREFER_PTX=0, PREFER_BINARY=1))
profiler_output_mode = _Enum("profiler_output_mode", dict(KEY_VALUE_PAIR=0, CSV=1))
ipc_mem_flags = _Enum("ipc_mem_flags", dict(LAZY_ENABLE_PEER_ACCESS=1))
array3d_flags = _Enum("array3d_flags", dict(ARRAY3D_LAYERED=1, LAYERED=1,
                                                   SURFACE_LDST=2, CUBEMAP=4,
                                                   TEXTURE_GATHER=8))
array_cubemap_face = _Enum("array_cubemap_face", dict(
    POSITIVE_X=0, NEGATIVE_X=1, POSITIVE_Y=2, NEGATIVE_Y=3, POSITIVE_Z=4, NEGATIVE_Z=5))


class ctx_flags:  # noqa: N801
    SCHED_AUTO = 0
    SCHED_SPIN = 1
    SCHED_YIELD = 2
    SCHED_BLOCKING_SYNC = 4
    BLOCKING_SYNC = 4
    SCHED_MASK = 7
    MAP_HOST = 8
    LMEM_RESIZE_TO_MAX = 16
    FLAGS_MASK = 31


class event_flags:  # noqa: N801
    DEFAULT = 0
    BLOCKING_SYNC = 1
    DISABLE_TIMING = 2
    INTERPROCESS = 4


class host_alloc_flags:  # noqa: N801
    PORTABLE = 1
    DEVICEMAP = 2
    WRITECOMBINED = 4


class mem_host_register_flags:  # noqa: N801
    PORTABLE = 1
    DEVICEMAP = 2


class mem_attach_flags:  # noqa: N801
    GLOBAL = 1
    HOST = 2
    SINGLE = 4


# ----------------------------------------------------------------------------------------
# Devices and contexts
# ----------------------------------------------------------------------------------------

class Device(_core.Device):
    """``Device(0)``: a device of the automatic backend (``Device.count()`` of them).
    Attributes read as ``dev.get_attribute(device_attribute.WARP_SIZE)`` or
    ``dev.warp_size``. ``Device("0000:65:00.0")`` finds a device by its PCI bus id, as
    CUDA's cuDeviceGetByPCIBusId (``[domain:]bus:device[.function]``)."""

    def __init__(self, ordinal: Any = 0, backend: Any = None):
        if isinstance(ordinal, str):
            ordinal = self._by_pci_bus_id(ordinal, backend)
        elif not isinstance(ordinal, (int, np.integer)) or isinstance(ordinal, bool):
            raise TypeError(f"Device: {ordinal!r} is neither a device number nor a PCI bus "
                            "id string")
        super().__init__(int(ordinal), backend)

    @staticmethod
    def _by_pci_bus_id(bus_id: str, backend: Any) -> int:
        m = _re.fullmatch(r"\s*(?:([0-9a-fA-F]+):)?([0-9a-fA-F]+):([0-9a-fA-F]+)"
                          r"(?:\.([0-9a-fA-F]+))?\s*", bus_id)
        if m is None:
            raise _errors.InvalidValueError(
                f"Device: {bus_id!r} is not a PCI bus id ([domain:]bus:device[.function])")
        want = tuple(int(g or "0", 16) for g in m.groups()[:3])
        for i in range(Device.count(backend)):
            d = _core.Device(i, backend)
            if tuple(d.get_attribute(a) for a in ("PCI_DOMAIN_ID", "PCI_BUS_ID",
                                                  "PCI_DEVICE_ID")) == want:
                return i
        raise _errors.InvalidDeviceError(f"Device: no device has PCI bus id {bus_id!r}")

    def make_context(self, flags: int = 0) -> "Context":
        """A new context on this device, made current."""
        ctx = Context(backend=self._kind, device=self.ordinal)
        ctx.push()
        return ctx

    def retain_primary_context(self) -> "Context":
        """A context on this device, not made current (lattice has no separate primary
        context: this is an ordinary one; push() it to use it)."""
        return Context(backend=self._kind, device=self.ordinal)

    def get_attribute(self, attr: Any) -> int:  # type: ignore[override]
        """An attribute by device_attribute member or name (any case)."""
        if isinstance(attr, device_attribute):
            attr = attr.name
        elif not isinstance(attr, str):
            raise TypeError(f"get_attribute: {attr!r} is not a device_attribute member "
                            "(drv.device_attribute.WARP_SIZE) or a name")
        return super().get_attribute(attr)

    def get_attributes(self) -> dict:
        """Every attribute this backend answers, keyed by device_attribute member."""
        out = {}
        for a in device_attribute:
            try:
                out[a] = self.get_attribute(a)
            except Error:
                pass
        return out

    def __getattr__(self, name: str) -> int:
        if name.startswith("_") or name.upper() not in device_attribute.__members__:
            raise AttributeError(f"'Device' has no attribute '{name}'")
        return self.get_attribute(name.upper())

    def pci_bus_id(self) -> str:
        """"domain:bus:device.0" from the PCI attributes (zeros on the emulator)."""
        return "{:04x}:{:02x}:{:02x}.0".format(
            *(self.get_attribute(a) for a in ("PCI_DOMAIN_ID", "PCI_BUS_ID",
                                                "PCI_DEVICE_ID")))

    def can_access_peer(self, dev: "Device") -> bool:
        from ctypes import byref, c_int
        can = c_int()
        _errors.check(_lib.lat_device_can_access_peer(self._kind, self.ordinal, dev.ordinal,
                                                      byref(can)), "can_access_peer")
        return bool(can.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _core.Device) and (self._kind, self.ordinal) == (
            other._kind, other.ordinal)

    def __hash__(self) -> int:
        return hash((self._kind, self.ordinal))


class Context(_core.Context):
    """A context. ``synchronize``, ``pop``, ``get_device`` and ``get_current`` are static
    and act on the current context, as PyCUDA's do."""

    _limits: dict

    @classmethod
    def _adopt(cls, ctx: _core.Context) -> "Context":
        if not isinstance(ctx, cls):
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
    def get_current() -> "Context | None":
        ctx = _core.Context.get_current()
        return None if ctx is None else Context._adopt(ctx)

    @staticmethod
    def pop() -> None:  # type: ignore[override]
        """Pops the current context; returns None, as PyCUDA's. An empty stack raises
        LogicError, as PyCUDA's ("cannot pop non-current context")."""
        # At exit lattice has closed every context already; a library's finaliser that
        # pops the context it made (reikna's Thread does) then has nothing to pop.
        if _core.Context.pop() is None and not _core._exiting:
            raise LogicError("context::pop failed: invalid device context - cannot pop "
                             "non-current context", status="LAT_ERROR_INVALID_CONTEXT")

    def attach(self, flags: int = 0) -> "Context":
        self.push()
        return self

    def detach(self) -> None:
        """Frees the context and everything it owns (lattice counts no attachments)."""
        self.close()

    def enable_peer_access(self, peer: "Context", flags: int = 0) -> None:
        """Lets this context's kernels address ``peer``'s memory (enabling twice is not an
        error)."""
        _errors.check(_lib.lat_context_enable_peer_access(self.handle, peer.handle),
                      "enable_peer_access")

    def disable_peer_access(self, peer: "Context") -> None:
        """Accepted; lattice keeps peer access once enabled (the emulator's devices share
        memory in any case)."""

    @staticmethod
    def get_api_version() -> int:
        return get_driver_version()

    @staticmethod
    def set_cache_config(config: Any) -> None:
        """A preference only (lattice chooses the cache split itself), recorded for the
        current context's get_cache_config, as CUDA's driver keeps it."""
        _core.current_context().__dict__["_cache_config"] = func_cache(config)

    @staticmethod
    def get_cache_config() -> Any:
        return _core.current_context().__dict__.get("_cache_config", func_cache.PREFER_NONE)

    @staticmethod
    def set_shared_config(config: Any) -> None:
        """A preference only, recorded for the current context's get_shared_config."""
        _core.current_context().__dict__["_shared_config"] = shared_config(config)

    @staticmethod
    def get_shared_config() -> Any:
        return _core.current_context().__dict__.get("_shared_config",
                                                     shared_config.DEFAULT_BANK_SIZE)

    @staticmethod
    def set_limit(which: Any, value: int) -> None:
        """Records a limit for get_limit. STACK_SIZE, PRINTF_FIFO_SIZE and MALLOC_HEAP_SIZE
        are accepted: on the emulator a thread's stack, printf's output and device malloc
        are bounded by the host (and LATTICE_EMU_MEMORY) instead, so a program that sets
        them larger runs as on a GPU. The device-runtime limits are refused (lattice has
        no device-side launches)."""
        which = limit(which)
        if which not in _LIMIT_DEFAULTS:
            raise NotImplementedError(f"Context.set_limit({which.name}): lattice has no "
                                      "device-side launches")
        if int(value) < 0:
            raise ValueError(f"Context.set_limit({which.name}): {value} is negative")
        cur = _core.current_context()
        cur.__dict__.setdefault("_limits", {})[which] = int(value)

    @staticmethod
    def get_limit(which: Any) -> int:
        """The value set_limit recorded, else CUDA's default."""
        which = limit(which)
        if which not in _LIMIT_DEFAULTS:
            raise NotImplementedError(f"Context.get_limit({which.name}): lattice has no "
                                      "device-side launches")
        return _core.current_context().__dict__.get("_limits", {}).get(
            which, _LIMIT_DEFAULTS[which])


# CUDA's defaults for the limits set_limit records.
_LIMIT_DEFAULTS = {limit.STACK_SIZE: 1024, limit.PRINTF_FIFO_SIZE: 1 << 20,
                   limit.MALLOC_HEAP_SIZE: 8 << 20}


def mem_get_info() -> tuple[int, int]:
    """(free, total) bytes of the current context's device; on the emulator, of the
    emulated device (LATTICE_EMU_MEMORY)."""
    return _core.current_context().mem_info()


# ----------------------------------------------------------------------------------------
# Memory
# ----------------------------------------------------------------------------------------

class PointerHolderBase:
    """Subclass it and define ``get_pointer()`` to pass memory lattice did not allocate
    (another library's) wherever device memory is taken: kernel arguments, copies,
    ``GPUArray(gpudata=...)``."""

    def get_pointer(self) -> int:
        raise NotImplementedError("PointerHolderBase subclasses define get_pointer()")

    @property
    def _lattice_ptr_(self) -> int:
        return int(self.get_pointer())

    def __int__(self) -> int:
        return int(self.get_pointer())

    __index__ = __int__

    def as_buffer(self, size: int, offset: int = 0) -> Any:
        raise NotImplementedError("as_buffer: device memory is not host memory; copy it "
                                  "with memcpy_dtoh")


def mem_alloc_like(ary: Any) -> DeviceAllocation:
    """Device memory of ``ary.nbytes`` bytes."""
    return mem_alloc(ary.nbytes)


def memcpy_htod_async(dest: Any, src: Any, stream: Stream | None = None) -> None:
    memcpy_htod(dest, src, stream)


def memcpy_dtoh_async(dest: Any, src: Any, stream: Stream | None = None) -> None:
    memcpy_dtoh(dest, src, stream)


def memcpy_dtod_async(dest: Any, src: Any, size: int, stream: Stream | None = None) -> None:
    memcpy_dtod(dest, src, size, stream)


def memset_d8_async(dest: Any, data: int, count: int, stream: Stream | None = None) -> None:
    _sync_memset(memset_d8, dest, data, count, stream)


def memset_d16_async(dest: Any, data: int, count: int, stream: Stream | None = None) -> None:
    _sync_memset(memset_d16, dest, data, count, stream)


def memset_d32_async(dest: Any, data: int, count: int, stream: Stream | None = None) -> None:
    _sync_memset(memset_d32, dest, data, count, stream)


def _sync_memset(fn: Any, dest: Any, data: int, count: int, stream: Stream | None) -> None:
    # Ordered after the stream's work: lattice's memsets are synchronous.
    if stream is not None:
        stream.synchronize()
    fn(dest, data, count)


#: The base of In, Out and InOut (PyCUDA's name).
ArgumentHandler = _core._HostArg


def memcpy_peer(dest: Any, src: Any, size: int, dest_context: Any = None,
                src_context: Any = None) -> None:
    """Copies ``size`` bytes from memory of ``src_context`` to memory of ``dest_context``
    (each by default the context its allocation belongs to, else the current one)."""
    dctx = _core._ctx_of(dest, dest_context)
    sctx = _core._ctx_of(src, src_context)
    _errors.check(_lib.lat_memcpy_peer(dctx.handle, _core._devptr(dest), sctx.handle,
                                       _core._devptr(src), int(size)), "memcpy_peer")


def memcpy_peer_async(dest: Any, src: Any, size: int, dest_context: Any = None,
                      src_context: Any = None, stream: Stream | None = None) -> None:
    """memcpy_peer ordered after ``stream``'s work (lattice's peer copy is synchronous)."""
    if stream is not None:
        stream.synchronize()
    memcpy_peer(dest, src, size, dest_context, src_context)


def _memset_2d(fn: Any, dest: Any, pitch: int, value: int, width: int, height: int,
               size: int, stream: Stream | None) -> None:
    if stream is not None:
        stream.synchronize()
    pitch, width, height = (operator.index(v) for v in (pitch, width, height))
    if width * size > pitch and height > 1:
        raise ValueError(f"memset_d2d: {width} elements of {size} bytes do not fit the pitch "
                         f"of {pitch} bytes")
    base, ctx = _core._devptr(dest), _core._ctx_of(dest, None)
    for row in range(height):
        fn(base + row * pitch, value, width, context=ctx)


def memset_d2d8(dest: Any, pitch: int, value: int, width: int, height: int) -> None:
    """Sets ``height`` rows of ``width`` bytes, ``pitch`` bytes apart."""
    _memset_2d(memset_d8, dest, pitch, value, width, height, 1, None)


def memset_d2d16(dest: Any, pitch: int, value: int, width: int, height: int) -> None:
    _memset_2d(memset_d16, dest, pitch, value, width, height, 2, None)


def memset_d2d32(dest: Any, pitch: int, value: int, width: int, height: int) -> None:
    _memset_2d(memset_d32, dest, pitch, value, width, height, 4, None)


def memset_d2d8_async(dest: Any, pitch: int, value: int, width: int, height: int,
                      stream: Stream | None = None) -> None:
    _memset_2d(memset_d8, dest, pitch, value, width, height, 1, stream)


def memset_d2d16_async(dest: Any, pitch: int, value: int, width: int, height: int,
                       stream: Stream | None = None) -> None:
    _memset_2d(memset_d16, dest, pitch, value, width, height, 2, stream)


def memset_d2d32_async(dest: Any, pitch: int, value: int, width: int, height: int,
                       stream: Stream | None = None) -> None:
    _memset_2d(memset_d32, dest, pitch, value, width, height, 4, stream)


def initialize_profiler(*args: Any, **kwargs: Any) -> None:
    """Accepted: lattice's profiler is lattice.profile (no CUDA profiler to configure)."""


def start_profiler() -> None:
    """Accepted: marks nothing (use lattice.profile for lattice's profiles)."""


def stop_profiler() -> None:
    """Accepted, as start_profiler."""


def _no_ipc(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("CUDA IPC (sharing device memory between processes) is not "
                              "available through lattice.pycuda")


mem_get_ipc_handle = IPCMemoryHandle = _no_ipc


def to_device(bf_obj: Any) -> DeviceAllocation:
    """Device memory holding a copy of a host buffer."""
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


class _HostMemory:
    """Host memory page-locked in a context, that arrays are views of: ``free()``,
    ``get_flags()`` and, for mapped memory, ``get_device_pointer()``. The memory is
    NumPy's, registered with the context (lat_host_register), so that it stays valid for
    its arrays whatever becomes of the context; the registration ends with ``free()``,
    when the last array over it is collected, or with the context."""

    def __init__(self, ctx: _core.Context, ptr: int, nbytes: int, flags: int,
                 release: Any, owner: Any = None) -> None:
        import weakref
        self._ctx, self._ptr, self._flags, self._nbytes = ctx, ptr, int(flags), nbytes
        self._owner = owner  # the memory's owner, kept while arrays use it
        self._fin = weakref.finalize(self, _host_release, ctx, ptr, release)

    def free(self) -> None:
        """Ends the page-locking now (the arrays stay usable, as ordinary memory)."""
        self._fin()

    def get_flags(self) -> int:
        return self._flags

    def get_device_pointer(self) -> int:
        """The device address of mapped memory (DEVICEMAP): kernels read and write it."""
        from ctypes import byref, c_uint64
        if not self._flags & host_alloc_flags.DEVICEMAP:
            raise _errors.InvalidValueError("get_device_pointer: the memory was not "
                                            "allocated with host_alloc_flags.DEVICEMAP")
        p = c_uint64()
        _errors.check(_lib.lat_host_device_pointer(self._ctx.handle, self._ptr, byref(p)),
                      "get_device_pointer")
        return p.value


def _host_release(ctx: _core.Context, ptr: int, release: Any) -> None:
    if ctx.alive:
        release(ctx.handle, ptr)


# PyCUDA's base class of the host allocations (page-locked, registered, mapped).
HostPointer = _HostMemory


class PagelockedHostAllocation(_HostMemory):
    """The base of a ``pagelocked_empty`` array."""


class RegisteredHostMemory(_HostMemory):
    """The base of ``register_host_memory``'s array: ``base`` is the array registered;
    ``unregister()`` undoes it."""

    def unregister(self) -> None:
        self._fin()


def _host_flags(flags: int, what: str) -> int:
    flags = int(flags)
    if flags & ~7:
        raise ValueError(f"{what}: unknown host_alloc_flags bits {flags & ~7:#x}")
    return flags


def _array_over(holder: Any, ptr: int, shape: Any, dtype: Any, order: str) -> np.ndarray:
    """An array of shape and dtype at ptr whose ``base`` is holder (which keeps the memory
    alive), in C or Fortran order."""
    dtype = np.dtype(dtype)
    shape = (operator.index(shape),) if np.isscalar(shape) else \
        tuple(operator.index(s) for s in shape)
    strides = None
    if order in ("F", "f") and len(shape) > 1:
        acc, st = dtype.itemsize, []
        for n in shape:
            st.append(acc)
            acc *= n
        strides = tuple(st)
    holder.__array_interface__ = {"shape": shape, "typestr": dtype.str, "descr": dtype.descr,
                                  "strides": strides, "data": (ptr, False), "version": 3}
    return np.asarray(holder)


def _guarded_pages(nbytes: int) -> np.ndarray:
    """nbytes of zeroed, page-aligned memory of its own (mmap), followed by an inaccessible
    page, for the host memory kernels and copies reach (page-locked, mapped, managed). A
    kernel that writes past its end, as a GPU's allocation granularity lets it do
    silently, writes the rest of the last page or faults on the guard page (a launch error
    naming the address), instead of writing over the Python heap (a crash at exit)."""
    import ctypes
    import mmap
    page = mmap.PAGESIZE
    usable = -(-nbytes // page) * page
    m = mmap.mmap(-1, usable + page)
    view = ctypes.c_char.from_buffer(m)
    addr = ctypes.addressof(view)
    del view  # the buffer export; the mapping lives as long as the arrays over it
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    if libc.mprotect(addr + usable, page, 0) != 0:  # PROT_NONE
        raise OSError(ctypes.get_errno(), "mprotect of a host allocation's guard page failed")
    return np.frombuffer(m, np.uint8, nbytes)


def pagelocked_empty(shape: Any, dtype: Any, order: str = "C", mem_flags: int = 0) -> np.ndarray:
    """A host array in page-locked memory: asynchronous copies from and to it overlap
    with other work; with ``host_alloc_flags.DEVICEMAP`` kernels can address it too
    (``ary.base.get_device_pointer()``). WRITECOMBINED is a hint, not taken."""
    flags = _host_flags(mem_flags, "pagelocked_empty")
    dt = np.dtype(dtype)
    shp = (operator.index(shape),) if np.isscalar(shape) else \
        tuple(operator.index(s) for s in shape)
    nbytes = max(int(np.prod(shp, dtype=np.int64)) * dt.itemsize, 1)
    raw = _guarded_pages(nbytes)
    ptr = raw.__array_interface__["data"][0]
    ctx = _core.current_context()
    _errors.check(_lib.lat_host_register(ctx.handle, ptr, nbytes, flags & 3),
                  "pagelocked_empty")
    holder = PagelockedHostAllocation(ctx, ptr, nbytes, flags, _lib.lat_host_unregister, raw)
    return _array_over(holder, ptr, shp, dt, order)


def pagelocked_zeros(shape: Any, dtype: Any, order: str = "C", mem_flags: int = 0) -> np.ndarray:
    r = pagelocked_empty(shape, dtype, order, mem_flags)
    r.fill(0)
    return r


def _order_of(a: np.ndarray) -> str:
    return "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"


def pagelocked_empty_like(array: np.ndarray, mem_flags: int = 0) -> np.ndarray:
    return pagelocked_empty(array.shape, array.dtype, _order_of(array), mem_flags)


def pagelocked_zeros_like(array: np.ndarray, mem_flags: int = 0) -> np.ndarray:
    r = pagelocked_empty_like(array, mem_flags)
    r.fill(0)
    return r


def aligned_empty(shape: Any, dtype: Any, order: str = "C", alignment: int = 4096) -> np.ndarray:
    """An array whose data starts at a multiple of ``alignment`` bytes."""
    dtype = np.dtype(dtype)
    shape = (int(shape),) if np.isscalar(shape) else tuple(shape)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.empty(nbytes + alignment, np.uint8)
    start = -raw.ctypes.data % alignment
    return raw[start:start + nbytes].view(dtype).reshape(
        shape, order="F" if order in ("F", "f") else "C")


def aligned_zeros(shape: Any, dtype: Any, order: str = "C", alignment: int = 4096) -> np.ndarray:
    r = aligned_empty(shape, dtype, order, alignment)
    r.fill(0)
    return r


def aligned_empty_like(array: np.ndarray, alignment: int = 4096) -> np.ndarray:
    return aligned_empty(array.shape, array.dtype, "F" if array.flags.f_contiguous and not
                         array.flags.c_contiguous else "C", alignment)


def aligned_zeros_like(array: np.ndarray, alignment: int = 4096) -> np.ndarray:
    r = aligned_empty_like(array, alignment)
    r.fill(0)
    return r


def register_host_memory(ary: np.ndarray, flags: int = 0) -> np.ndarray:
    """Page-locks a contiguous host array (lat_host_register) and returns a view of it
    whose ``base`` is a RegisteredHostMemory (``base.base`` is ``ary``; ``unregister()``)."""
    flags = _host_flags(flags, "register_host_memory") & 3
    if not isinstance(ary, np.ndarray) or not (ary.flags.c_contiguous or
                                               ary.flags.f_contiguous):
        raise ValueError("register_host_memory: a contiguous NumPy array")
    ctx = _core.current_context()
    ptr = ary.__array_interface__["data"][0]
    _errors.check(_lib.lat_host_register(ctx.handle, ptr, max(ary.nbytes, 1), flags),
                  "register_host_memory")
    holder = RegisteredHostMemory(ctx, ptr, max(ary.nbytes, 1), flags,
                                  _lib.lat_host_unregister, ary)
    holder.base = ary
    return _array_over(holder, ptr, ary.shape, ary.dtype, _order_of(ary))


class ManagedAllocation(_HostMemory):
    """The base of a ``managed_*`` array. lattice's managed memory is page-locked host
    memory mapped into the device's address space (DEVICEMAP): the host and kernels
    address the same bytes, and what a kernel wrote is there once the context (or its
    stream) is synchronized, as with CUDA's managed memory (on a GPU its kernels reach it
    over the bus, not from device memory). ``int()`` of it and ``get_device_pointer()``
    give the device address; a managed array passed to a kernel is passed by it."""

    def __int__(self) -> int:
        return self.get_device_pointer()

    @property
    def _lattice_ptr_(self) -> int:
        return self.get_device_pointer()

    def _lattice_managed_(self, view: np.ndarray) -> int:
        # The view's own address: a kernel given managed[10:] starts at element 10.
        return self.get_device_pointer() + (view.__array_interface__["data"][0] - self._ptr)

    def attach(self, mem_flags: int, stream: Any = None) -> None:
        """Accepted (mapped memory is visible to every stream and the host)."""
        _attach_flags(mem_flags, "ManagedAllocation.attach")


def _attach_flags(flags: int, what: str) -> int:
    flags = int(flags)
    if flags not in (mem_attach_flags.GLOBAL, mem_attach_flags.HOST, mem_attach_flags.SINGLE):
        raise ValueError(f"{what}: mem_flags must be one mem_attach_flags value "
                         f"(GLOBAL, HOST or SINGLE), not {flags:#x}")
    return flags


def managed_empty(shape: Any, dtype: Any, order: str = "C", mem_flags: int = 0) -> np.ndarray:
    """A host array that kernels address too (``ManagedAllocation``); ``mem_flags`` is a
    ``mem_attach_flags`` value (0: GLOBAL)."""
    _attach_flags(mem_flags or mem_attach_flags.GLOBAL, "managed_empty")
    dt = np.dtype(dtype)
    shp = (operator.index(shape),) if np.isscalar(shape) else \
        tuple(operator.index(s) for s in shape)
    nbytes = max(int(np.prod(shp, dtype=np.int64)) * dt.itemsize, 1)
    raw = _guarded_pages(nbytes)
    ptr = raw.__array_interface__["data"][0]
    ctx = _core.current_context()
    flags = host_alloc_flags.DEVICEMAP
    _errors.check(_lib.lat_host_register(ctx.handle, ptr, nbytes, flags), "managed_empty")
    holder = ManagedAllocation(ctx, ptr, nbytes, flags, _lib.lat_host_unregister, raw)
    return _array_over(holder, ptr, shp, dt, order)


def managed_zeros(shape: Any, dtype: Any, order: str = "C", mem_flags: int = 0) -> np.ndarray:
    r = managed_empty(shape, dtype, order, mem_flags)
    r.fill(0)
    return r


def managed_empty_like(array: np.ndarray, mem_flags: int = 0) -> np.ndarray:
    return managed_empty(array.shape, array.dtype, _order_of(array), mem_flags)


def managed_zeros_like(array: np.ndarray, mem_flags: int = 0) -> np.ndarray:
    return managed_zeros(array.shape, array.dtype, _order_of(array), mem_flags)


# ----------------------------------------------------------------------------------------
# CUDA arrays and texture references: refused
# ----------------------------------------------------------------------------------------

_NO_TEXREF = ("texture references (and the CUDA arrays bound to them) were removed in "
              "CUDA 12; lattice does not have them: use texture objects "
              "(include/lattice/texture.h)")


class ArrayDescriptor:
    """A CUDA array's shape and format (width, height, format, num_channels)."""

    def __init__(self) -> None:
        self.width = 0
        self.height = 0
        self.format = array_format.FLOAT
        self.num_channels = 1


class ArrayDescriptor3D(ArrayDescriptor):
    """A 3-D CUDA array's shape and format (width, height, depth, format, num_channels,
    flags)."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.flags = 0


def dtype_to_array_format(dtype: Any) -> Any:
    """The array_format of a dtype (ValueError for one CUDA arrays cannot hold)."""
    dtype = np.dtype(dtype)
    table = {np.dtype(np.uint8): array_format.UNSIGNED_INT8,
             np.dtype(np.uint16): array_format.UNSIGNED_INT16,
             np.dtype(np.uint32): array_format.UNSIGNED_INT32,
             np.dtype(np.int8): array_format.SIGNED_INT8,
             np.dtype(np.int16): array_format.SIGNED_INT16,
             np.dtype(np.int32): array_format.SIGNED_INT32,
             np.dtype(np.float16): array_format.HALF,
             np.dtype(np.float32): array_format.FLOAT}
    try:
        return table[dtype]
    except KeyError:
        raise ValueError(f"dtype {dtype} has no CUDA array format") from None


def _no_texref(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError(_NO_TEXREF)


class Array:
    """CUDA arrays: refused (NotImplementedError), see _NO_TEXREF."""

    def __init__(self, *args: Any, **kwargs: Any):
        _no_texref()


Memcpy3DPeer = TextureReference = SurfaceReference = Array
matrix_to_array = np_to_array = gpuarray_to_array = make_multichannel_2d_array = _no_texref
bind_array_to_texref = matrix_to_texref = _no_texref
memcpy_atoa = memcpy_atod = memcpy_atoh = memcpy_dtoa = memcpy_htoa = _no_texref


# ----------------------------------------------------------------------------------------
# Pitched memory and 2-D/3-D copies of linear memory
# ----------------------------------------------------------------------------------------

def mem_alloc_pitch(width: int, height: int, access_size: int) -> tuple[DeviceAllocation, int]:
    """``height`` rows of ``width`` bytes, each row at a multiple of the returned pitch;
    ``access_size`` (4, 8 or 16) is the size of the elements the rows hold."""
    from ctypes import byref, c_size_t, c_uint64
    ctx = _core.current_context()
    p, pitch = c_uint64(), c_size_t()
    _errors.check(_lib.lat_mem_alloc_pitch(ctx.handle, int(width), int(height),
                                           int(access_size), byref(p), byref(pitch)),
                  "mem_alloc_pitch")
    a = DeviceAllocation.__new__(DeviceAllocation)
    a._ctx, a._handle, a.ptr, a.nbytes = ctx, p.value, p.value, pitch.value * int(height)
    return a, pitch.value


class _CopySide:
    """One side of a Memcpy2D/3D: a host buffer or a device address."""

    def __init__(self) -> None:
        self.host: Any = None
        self.device: Any = None


class Memcpy2D:
    """PyCUDA's 2-D copy between host buffers and device memory: set each side with
    ``set_src_host``/``set_src_device`` and ``set_dst_host``/``set_dst_device``, the
    offsets (``src_x_in_bytes``, ``src_y``...), pitches, ``width_in_bytes`` and ``height``,
    then call it (``copy()``, ``copy(aligned=True)`` or ``copy(stream)``). A host side is
    checked to hold every row copied (ValueError). CUDA arrays are refused."""

    _fields = ("src_x_in_bytes", "src_y", "src_pitch", "dst_x_in_bytes", "dst_y",
               "dst_pitch", "width_in_bytes", "height")

    def __init__(self) -> None:
        for f in self._fields:
            setattr(self, f, 0)
        self._src, self._dst = _CopySide(), _CopySide()

    def set_src_host(self, buf: Any) -> None:
        self._src.host, self._src.device = buf, None

    def set_src_device(self, ptr: Any) -> None:
        self._src.host, self._src.device = None, ptr

    def set_dst_host(self, buf: Any) -> None:
        self._dst.host, self._dst.device = buf, None

    def set_dst_device(self, ptr: Any) -> None:
        self._dst.host, self._dst.device = None, ptr

    set_src_unified = set_src_host
    set_dst_unified = set_dst_host

    def set_src_array(self, ary: Any) -> None:
        _no_texref()

    set_dst_array = set_src_array

    def _fill(self, d: Any, side: _CopySide, which: str, x: int, y: int, pitch: int,
              rows: int, keep: list, ctx: list) -> None:
        if side.host is None and side.device is None:
            raise ValueError(f"{type(self).__name__}: no {which} (set_{which}_host or "
                             f"set_{which}_device)")
        pitch = int(pitch) or int(self.width_in_bytes)
        setattr(d, f"{which}_x", int(x))
        setattr(d, f"{which}_y", int(y))
        setattr(d, f"{which}_pitch", pitch)
        if side.host is not None:
            addr, n, k = _core._host(side.host, writable=which == "dst")
            need = (rows - 1) * pitch + int(x) + int(self.width_in_bytes) \
                if rows and self.width_in_bytes else 0
            if need > n:
                raise ValueError(f"{type(self).__name__}: the {which} host buffer holds {n} "
                                 f"bytes; the copy reaches byte {need}")
            keep.append(k)
            setattr(d, f"{which}_host", addr)
        else:
            setattr(d, f"{which}_device", _core._devptr(side.device))
            ctx.append(_core._ctx_of(side.device, None))

    def _copy(self, y_src: int, y_dst: int, rows_src: int, rows_dst: int,
              stream: Any) -> None:
        from ctypes import byref
        d, keep, ctxs = _lib_copy_2d(), [], []
        self._fill(d, self._src, "src", self.src_x_in_bytes, y_src, self.src_pitch, rows_src,
                   keep, ctxs)
        self._fill(d, self._dst, "dst", self.dst_x_in_bytes, y_dst, self.dst_pitch, rows_dst,
                   keep, ctxs)
        d.width_bytes, d.height = int(self.width_in_bytes), int(self.height)
        ctx = ctxs[0] if ctxs else _core.current_context()
        if stream is None:
            _errors.check(_lib.lat_memcpy_2d(ctx.handle, byref(d)), type(self).__name__)
        else:
            _errors.check(_lib.lat_memcpy_2d_async(ctx.handle, byref(d), stream.handle),
                          type(self).__name__)
            stream._keep.append(keep)

    def __call__(self, aligned: Any = False) -> None:
        stream = aligned if isinstance(aligned, Stream) else None
        self._copy(self.src_y, self.dst_y, int(self.src_y) + int(self.height),
                   int(self.dst_y) + int(self.height), stream)


class Memcpy3D(Memcpy2D):
    """PyCUDA's 3-D copy of linear memory: a Memcpy2D of ``depth`` slices, each
    ``src_height``/``dst_height`` rows apart (default: ``height``), from ``src_z``/``dst_z``."""

    _fields = Memcpy2D._fields + ("src_z", "src_height", "src_lod", "dst_z", "dst_height",
                                  "dst_lod", "depth")

    def __call__(self, stream: Any = None) -> None:
        sh = int(self.src_height) or int(self.height)
        dh = int(self.dst_height) or int(self.height)
        depth, sz, dz = int(self.depth), int(self.src_z), int(self.dst_z)
        for k in range(depth):
            ys = (sz + k) * sh + int(self.src_y)
            yd = (dz + k) * dh + int(self.dst_y)
            # The host buffers are checked against the last slice's rows.
            self._copy(ys, yd, (sz + depth - 1) * sh + int(self.src_y) + int(self.height),
                       (dz + depth - 1) * dh + int(self.dst_y) + int(self.height), stream)


def _lib_copy_2d() -> Any:
    from .._lib import copy_2d
    return copy_2d()


# ----------------------------------------------------------------------------------------
# Modules
# ----------------------------------------------------------------------------------------

class Module(_core.Module):
    """A loaded module (from ``module_from_buffer``/``module_from_file`` or SourceModule)."""

    _block_required = True  # a call without block= raises, as in PyCUDA

    def get_texref(self, name: str) -> Any:
        _no_texref()

    def get_surfref(self, name: str) -> Any:
        _no_texref()


def module_from_buffer(buffer: Any, options: Any = None, message_handler: Any = None) -> Module:
    """A module from PTX text or a CUBIN (CUDA backend), or from the image
    ``compiler.compile`` gives on the emulator."""
    from .compiler import _module_from_emu_image
    data = buffer.encode() if isinstance(buffer, str) else bytes(buffer)
    mod = _module_from_emu_image(data)
    return mod if mod is not None else Module.from_image(buffer)


def module_from_file(filename: str) -> Module:
    with open(filename, "rb") as f:
        return module_from_buffer(f.read())


def SourceModule(*args: Any, **kwargs: Any):  # noqa: N802  (old PyCUDA spelling)
    """``pycuda.driver.SourceModule`` of old PyCUDA: the compiler's SourceModule."""
    from .compiler import SourceModule as _SM
    return _SM(*args, **kwargs)


# Function attributes as properties (func.num_regs, func.shared_size_bytes...), as PyCUDA
# reads them through function_attribute.
def _function_getattr(self: Any, name: str) -> int:
    if name.startswith("_") or name.upper() not in function_attribute.__members__:
        raise AttributeError(f"'Function' has no attribute '{name}'")
    return self.get_attribute(name.upper())


def _function_set_cache_config(self: Any, config: Any) -> None:
    """A preference only: accepted (lattice chooses the cache split itself)."""
    func_cache(config)


def _function_set_attribute(self: Any, attr: Any, value: int) -> None:
    """MAX_DYNAMIC_SHARED_SIZE_BYTES up to the device's opt-in limit is accepted (lattice
    opts a launch in to the shared memory it asks for); other attributes are refused."""
    attr = function_attribute(attr)
    if attr == function_attribute.MAX_DYNAMIC_SHARED_SIZE_BYTES:
        optin = Context.get_device().get_attribute("MAX_SHARED_MEMORY_PER_BLOCK_OPTIN")
        if not 0 <= int(value) <= optin:
            raise _errors.InvalidValueError(f"set_attribute: {value} bytes of dynamic shared "
                                            f"memory is outside [0, {optin}]")
        return
    if attr == function_attribute.PREFERRED_SHARED_MEMORY_CARVEOUT:
        return
    raise NotImplementedError(f"Function.set_attribute({attr.name}): lattice cannot set it")


def _function_set_shared_config(self: Any, config: Any) -> None:
    """A preference only: accepted."""
    shared_config(config)


def _function_param_set_texref(self: Any, texref: Any) -> None:
    _no_texref()


def _allocation_as_buffer(self: Any, size: int, offset: int = 0) -> Any:
    raise NotImplementedError("DeviceAllocation.as_buffer: device memory is not host "
                              "memory; copy it with memcpy_dtoh")


Function.set_shared_config = _function_set_shared_config  # type: ignore[attr-defined]
Function.param_set_texref = _function_param_set_texref  # type: ignore[attr-defined]
DeviceAllocation.as_buffer = _allocation_as_buffer  # type: ignore[attr-defined]
Function.__getattr__ = _function_getattr  # type: ignore[attr-defined]
Function.set_cache_config = _function_set_cache_config  # type: ignore[attr-defined]
Function.set_attribute = _function_set_attribute  # type: ignore[attr-defined]


def __getattr__(name: str) -> Any:
    # Names PyCUDA's compiled module (pycuda._driver) exports into pycuda.driver that live
    # in other modules here; looked up when asked, as those modules import this one.
    if name == "bitlog2":
        from .tools import bitlog2
        return bitlog2
    if name in ("get_curand_version", "direction_vector_set"):
        from . import curandom
        return getattr(curandom, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
