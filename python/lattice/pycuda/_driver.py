"""PyCUDA's ``pycuda._driver`` (its C++ extension) written over lattice's own API
(lattice.core): devices, contexts, memory, modules, functions, streams, events, memory
pools. ``lattice.pycuda.driver`` re-exports it with PyCUDA's Python additions.

Unlike CUDA's per-thread context stack, the current context is the same in every thread
(a context made in the main thread works in worker threads too).
"""

from __future__ import annotations

import ctypes
import numbers
from typing import Any

import numpy as np

from .. import _lib
from .. import core as _core
from .. import errors as _errors
from ..core import Event as _Event
from ..core import In, InOut, Out  # noqa: F401
from ..core import Stream as _Stream

# PyCUDA's exception names. Error is LatticeError itself, so `except drv.Error` catches
# every lattice failure; the others are the matching lattice classes.
Error = _errors.LatticeError
LogicError = _errors.InvalidValueError
LaunchError = _errors.LaunchFailedError
CompileError = _errors.CompileError
MemoryError = _errors.OutOfDeviceMemoryError  # noqa: A001
RuntimeError = _errors.DriverError  # noqa: A001

# The CUDA version whose semantics lattice follows where no CUDA driver is used (the
# emulator): CUDA 12.8. On the CUDA backend get_version/get_driver_version report the
# driver's own (docs/python.md).
_EMULATED_CUDA = 12080


def init(flags: int = 0) -> None:
    """Nothing to do: lattice finds its backends on first use (kept for PyCUDA)."""


def _cuda_driver_version() -> int | None:
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
        v = ctypes.c_int()
        if cuda.cuDriverGetVersion(ctypes.byref(v)) == 0:
            return v.value
    except (OSError, AttributeError):
        pass
    return None


def get_driver_version() -> int:
    """CUDA's version number as the driver reports it (12080 for 12.8): on the CUDA
    backend the installed driver's; on the emulator the version whose semantics it
    follows (12.8)."""
    ctx = _core._stack[-1] if _core._stack else None
    backend = ctx.backend if ctx is not None else _core.Device(0).backend
    if backend == "cuda":
        v = _cuda_driver_version()
        if v is not None:
            return v
    return _EMULATED_CUDA


def get_version() -> tuple[int, int, int]:
    """The CUDA version as (major, minor, 0), from get_driver_version()."""
    v = get_driver_version()
    return (v // 1000, v % 1000 // 10, 0)


def bitlog2(v: int) -> int:
    """floor(log2(v)) of a positive integer (0 for 0)."""
    v = int(v)
    return v.bit_length() - 1 if v > 0 else 0


# ---- enums ---------------------------------------------------------------------------------

class _Enum(int):
    """An enum value with its name (PyCUDA's enums print as their names)."""

    def __new__(cls, value: int, name: str):
        self = super().__new__(cls, value)
        self._name = name
        return self

    @property
    def name(self) -> str:
        return self._name

    def __repr__(self) -> str:
        return self._name

    __str__ = __repr__


def _enum(clsname: str, names: Any) -> type:
    items = names.items() if isinstance(names, dict) else \
        ((n, i) for i, n in enumerate(names))
    ns = {n: _Enum(v, n) for n, v in items}
    ns["names"] = dict(ns)
    ns["values"] = {int(v): v for v in ns["names"].values()}
    return type(clsname, (), ns)


def _attribute_names() -> list[str]:
    count = ctypes.c_size_t()
    p = _lib.lib.lat_device_attribute_names(ctypes.byref(count))
    return [p[i].decode() for i in range(count.value)]


device_attribute = _enum("device_attribute", _attribute_names())
compute_mode = _enum("compute_mode", ["DEFAULT", "EXCLUSIVE", "PROHIBITED",
                                      "EXCLUSIVE_PROCESS"])
limit = _enum("limit", ["STACK_SIZE", "PRINTF_FIFO_SIZE", "MALLOC_HEAP_SIZE",
                        "DEV_RUNTIME_SYNC_DEPTH", "DEV_RUNTIME_PENDING_LAUNCH_COUNT",
                        "MAX_L2_FETCH_GRANULARITY", "PERSISTING_L2_CACHE_SIZE"])
func_cache = _enum("func_cache", ["PREFER_NONE", "PREFER_SHARED", "PREFER_L1",
                                  "PREFER_EQUAL"])
shared_config = _enum("shared_config", ["DEFAULT_BANK_SIZE", "FOUR_BYTE_BANK_SIZE",
                                        "EIGHT_BYTE_BANK_SIZE"])
function_attribute = _enum("function_attribute", [
    "MAX_THREADS_PER_BLOCK", "SHARED_SIZE_BYTES", "CONST_SIZE_BYTES", "LOCAL_SIZE_BYTES",
    "NUM_REGS", "PTX_VERSION", "BINARY_VERSION"])
array_format = _enum("array_format", {
    "UNSIGNED_INT8": 0x01, "UNSIGNED_INT16": 0x02, "UNSIGNED_INT32": 0x03,
    "SIGNED_INT8": 0x08, "SIGNED_INT16": 0x09, "SIGNED_INT32": 0x0a, "HALF": 0x10,
    "FLOAT": 0x20})
host_alloc_flags = _enum("host_alloc_flags", {"PORTABLE": 1, "DEVICEMAP": 2,
                                              "WRITECOMBINED": 4})
mem_host_register_flags = _enum("mem_host_register_flags", {"PORTABLE": 1, "DEVICEMAP": 2})
mem_attach_flags = _enum("mem_attach_flags", {"GLOBAL": 1, "HOST": 2, "SINGLE": 4})
memory_type = _enum("memory_type", {"HOST": 1, "DEVICE": 2, "ARRAY": 3, "UNIFIED": 4})
jit_input_type = _enum("jit_input_type", ["CUBIN", "PTX", "FATBINARY", "OBJECT",
                                          "LIBRARY"])
ctx_flags = _enum("ctx_flags", {"SCHED_AUTO": 0, "SCHED_SPIN": 1, "SCHED_YIELD": 2,
                                "SCHED_BLOCKING_SYNC": 4, "SCHED_MASK": 7, "MAP_HOST": 8,
                                "LMEM_RESIZE_TO_MAX": 16, "FLAGS_MASK": 31})
event_flags = _enum("event_flags", {"DEFAULT": 0, "BLOCKING_SYNC": 1,
                                    "DISABLE_TIMING": 2, "INTERPROCESS": 4})
address_mode = _enum("address_mode", ["WRAP", "CLAMP", "MIRROR", "BORDER"])
filter_mode = _enum("filter_mode", ["POINT", "LINEAR"])
TRSA_OVERRIDE_FORMAT = 1
TRSF_READ_AS_INTEGER = 1
TRSF_NORMALIZED_COORDINATES = 2
TR_DEFAULT = -1


# ---- devices and contexts ----------------------------------------------------------------

class Device(_core.Device):
    """``Device(0)``: a device of the automatic backend (``Device.count()`` of them)."""

    def make_context(self, flags: int = 0) -> "Context":
        ctx = Context(backend=self._kind, device=self.ordinal)
        ctx.push()
        return ctx

    def retain_primary_context(self) -> "Context":
        return Context(backend=self._kind, device=self.ordinal)

    def get_attribute(self, attr: Any) -> int:
        return super().get_attribute(attr.name if isinstance(attr, _Enum) else str(attr))

    def get_attributes(self) -> dict:
        out = {}
        for a in device_attribute.names.values():
            try:
                out[a] = self.get_attribute(a)
            except Error:
                pass
        return out

    def __getattr__(self, name: str) -> int:
        if name.isupper():
            return self.get_attribute(name)
        raise AttributeError(name)

    def pci_bus_id(self) -> str:
        return "0000:00:00.0"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, _core.Device) and (self._kind, self.ordinal) == \
            (other._kind, other.ordinal)

    def __hash__(self) -> int:
        return hash((self._kind, self.ordinal))


class Context(_core.Context):
    """A context. ``synchronize``, ``pop``, ``get_device`` and ``get_current`` are static
    and act on the current context, as PyCUDA's do."""

    @classmethod
    def _adopt(cls, ctx: _core.Context) -> "Context":
        if isinstance(ctx, _core.Context) and not isinstance(ctx, Context):
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
        c = _core.Context.get_current()
        return Context._adopt(c) if c is not None else None

    @staticmethod
    def pop() -> "Context | None":
        return _core.Context.pop()

    def detach(self) -> None:
        self.close()

    @staticmethod
    def get_limit(lim: Any) -> int:
        return {0: 1024, 1: 1 << 20, 2: 8 << 20}.get(int(lim), 0)

    @staticmethod
    def set_limit(lim: Any, value: int) -> None:
        pass

    @staticmethod
    def get_cache_config() -> Any:
        return func_cache.PREFER_NONE

    @staticmethod
    def set_cache_config(cfg: Any) -> None:
        pass

    @staticmethod
    def get_shared_config() -> Any:
        return shared_config.DEFAULT_BANK_SIZE

    @staticmethod
    def set_shared_config(cfg: Any) -> None:
        pass

    def get_api_version(self) -> int:
        return get_driver_version()

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, _core.Context) and other._handle == self._handle

    def __hash__(self) -> int:
        return hash(self._handle)


# ---- memory --------------------------------------------------------------------------------

class DeviceAllocation(_core.DeviceAllocation):
    """Device memory (``mem_alloc``); ``int(a)`` is its address."""


class PointerHolderBase:
    """Subclass and define ``get_pointer()`` to pass any device pointer as a kernel
    argument or copy source/destination (PyCUDA)."""

    def get_pointer(self) -> int:
        raise NotImplementedError

    @property
    def _lattice_ptr_(self) -> int:
        return int(self.get_pointer())

    def __int__(self) -> int:
        return int(self.get_pointer())

    __index__ = __int__

    def as_buffer(self, size: int, offset: int = 0) -> Any:
        raise NotImplementedError("lattice: device memory is not host-addressable")


def mem_alloc(nbytes: int) -> DeviceAllocation:
    """``nbytes`` of device memory of the current context."""
    nbytes = int(nbytes)
    if nbytes <= 0:
        raise LogicError(f"mem_alloc: {nbytes} bytes (PyCUDA's cuMemAlloc needs at least 1)")
    a = DeviceAllocation.__new__(DeviceAllocation)
    _core.DeviceAllocation.__init__(a, nbytes)
    return a


def mem_alloc_like(ary: Any) -> DeviceAllocation:
    return mem_alloc(ary.nbytes)


def mem_get_info() -> tuple[int, int]:
    """(free, total) bytes of the current context's device."""
    return _core.current_context().mem_info()


def _ptr(x: Any) -> int:
    if hasattr(x, "gpudata") and not isinstance(x, (numbers.Integral,)):
        x = x.gpudata
    return _core._devptr(x)


def _dev(x: Any) -> Any:
    """A device address as lattice.core takes it (an allocation, or an int)."""
    if isinstance(x, (_core.DeviceAllocation, _core.DevicePointer)):
        return x
    return _ptr(x)


def _stream(stream: Any) -> "_Stream | None":
    if stream is not None and not isinstance(stream, _Stream):
        raise TypeError(f"stream: a Stream, not {type(stream).__name__}")
    return stream


def memcpy_htod(dest: Any, src: Any) -> None:
    _core.memcpy_htod(_dev(dest), src)


def memcpy_dtoh(dest: Any, src: Any) -> None:
    _core.memcpy_dtoh(dest, _dev(src))


def memcpy_dtod(dest: Any, src: Any, size: int) -> None:
    _core.memcpy_dtod(_dev(dest), _dev(src), size)


def memcpy_htod_async(dest: Any, src: Any, stream: Any = None) -> None:
    _core.memcpy_htod(_dev(dest), src, _stream(stream))


def memcpy_dtoh_async(dest: Any, src: Any, stream: Any = None) -> None:
    _core.memcpy_dtoh(dest, _dev(src), _stream(stream))


def memcpy_dtod_async(dest: Any, src: Any, size: int, stream: Any = None) -> None:
    _core.memcpy_dtod(_dev(dest), _dev(src), size, _stream(stream))


def memset_d8(dest: Any, data: int, count: int) -> None:
    _core.memset_d8(_dev(dest), int(data), int(count))


def memset_d16(dest: Any, data: int, count: int) -> None:
    _core.memset_d16(_dev(dest), int(data), int(count))


def memset_d32(dest: Any, data: int, count: int) -> None:
    _core.memset_d32(_dev(dest), int(data), int(count))


def memset_d8_async(dest: Any, data: int, count: int, stream: Any = None) -> None:
    if stream is not None:
        _stream(stream).synchronize()
    memset_d8(dest, data, count)


def memset_d16_async(dest: Any, data: int, count: int, stream: Any = None) -> None:
    if stream is not None:
        _stream(stream).synchronize()
    memset_d16(dest, data, count)


def memset_d32_async(dest: Any, data: int, count: int, stream: Any = None) -> None:
    if stream is not None:
        _stream(stream).synchronize()
    memset_d32(dest, data, count)


def _span(ptr: int, shape: tuple, strides: tuple, itemsize: int) -> tuple[int, int]:
    """(first byte offset, byte count) that strided elements at ptr cover."""
    lo = sum(s * (n - 1) for n, s in zip(shape, strides) if s < 0)
    hi = sum(s * (n - 1) for n, s in zip(shape, strides) if s > 0) + itemsize
    return lo, hi - lo


def strided_get(dest: np.ndarray, ptr: int, strides: tuple, stream: Any = None) -> None:
    """dest[...] = the device elements at ptr with byte strides (any layout)."""
    if dest.size == 0:
        return
    lo, n = _span(ptr, dest.shape, strides, dest.itemsize)
    buf = np.empty(n, np.uint8)
    _core.memcpy_dtoh(buf, ptr + lo)
    dest[...] = np.ndarray(dest.shape, dest.dtype, buffer=buf, offset=-lo, strides=strides)


def strided_set(ptr: int, shape: tuple, strides: tuple, src: np.ndarray) -> None:
    """The device elements at ptr with byte strides = src (read-modify-write of the span
    they cover, so bytes between them keep their values)."""
    if src.size == 0:
        return
    lo, n = _span(ptr, shape, strides, src.itemsize)
    buf = np.empty(n, np.uint8)
    _core.memcpy_dtoh(buf, ptr + lo)
    np.ndarray(shape, src.dtype, buffer=buf, offset=-lo, strides=strides)[...] = src
    _core.memcpy_htod(ptr + lo, buf)


def to_device(bf_obj: Any) -> DeviceAllocation:
    a = np.ascontiguousarray(bf_obj) if isinstance(bf_obj, np.ndarray) else bf_obj
    n = memoryview(a).nbytes
    d = mem_alloc(max(n, 1))
    _core.memcpy_htod(d, a)
    return d


def from_device(devptr: Any, shape: Any, dtype: Any, order: str = "C") -> np.ndarray:
    out = np.empty(shape, dtype, order=order)
    _core.memcpy_dtoh(out, _dev(devptr))
    return out


def from_device_like(devptr: Any, other_ary: np.ndarray) -> np.ndarray:
    out = np.empty_like(other_ary)
    _core.memcpy_dtoh(out, _dev(devptr))
    return out


def pagelocked_empty(shape: Any, dtype: Any, order: str = "C", mem_flags: int = 0) -> np.ndarray:
    """A host array (ordinary memory: lattice's copies take any host memory)."""
    return np.empty(shape, dtype, order=order)


def pagelocked_zeros(shape: Any, dtype: Any, order: str = "C", mem_flags: int = 0) -> np.ndarray:
    return np.zeros(shape, dtype, order=order)


def pagelocked_empty_like(a: np.ndarray, mem_flags: int = 0) -> np.ndarray:
    return np.empty_like(a)


def pagelocked_zeros_like(a: np.ndarray, mem_flags: int = 0) -> np.ndarray:
    return np.zeros_like(a)


def aligned_empty(shape: Any, dtype: Any, order: str = "C", alignment: int = 4096) -> np.ndarray:
    dtype = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.empty(n + alignment, np.uint8)
    off = (-raw.ctypes.data) % alignment
    return raw[off:off + n].view(dtype).reshape(shape, order=order)


def aligned_zeros(shape: Any, dtype: Any, order: str = "C", alignment: int = 4096) -> np.ndarray:
    a = aligned_empty(shape, dtype, order, alignment)
    a.fill(0)
    return a


def aligned_empty_like(a: np.ndarray, alignment: int = 4096) -> np.ndarray:
    return aligned_empty(a.shape, a.dtype, "C", alignment)


def aligned_zeros_like(a: np.ndarray, alignment: int = 4096) -> np.ndarray:
    return aligned_zeros(a.shape, a.dtype, "C", alignment)


def register_host_memory(ary: np.ndarray, flags: int = 0) -> np.ndarray:
    """The array itself: lattice copies from and to any host memory."""
    return ary


class PageLockedAllocator:
    def __call__(self, shape: Any, dtype: Any = np.float64, order: str = "C") -> np.ndarray:
        return np.empty(shape, dtype, order=order)


class PooledDeviceAllocation(DeviceAllocation):
    """An allocation of a DeviceMemoryPool; ``free()`` returns it to the pool."""

    def free(self) -> None:
        pool = getattr(self, "_pool", None)
        h = self._handle
        if pool is not None and h is not None and self._ctx.alive:
            self._handle = None
            pool._give_back(self.nbytes, h, self._ctx)
        else:
            super().free()

    def __del__(self) -> None:
        try:
            self.free()
        except Exception:  # noqa: BLE001 (interpreter shutdown)
            pass


class DeviceMemoryPool:
    """PyCUDA's memory pool: freed blocks are held in bins of sizes (PyCUDA's binning:
    a power of two and its top bits) and handed out again."""

    mantissa_bits = 2
    mantissa_mask = (1 << mantissa_bits) - 1

    def __init__(self, allocator: Any = None):
        self._bins: dict[int, list] = {}
        self.active_blocks = 0
        self.held_blocks = 0
        self.active_bytes = 0
        self.managed_bytes = 0
        self._stop = False

    def bin_number(self, size: int) -> int:
        size = int(size)
        lg = bitlog2(size)
        sh = lg - self.mantissa_bits
        shifted = size >> sh if sh >= 0 else size << -sh
        return lg << self.mantissa_bits | (shifted & self.mantissa_mask)

    def alloc_size(self, bin_nr: int) -> int:
        exponent, head = bin_nr >> self.mantissa_bits, bin_nr & self.mantissa_mask
        sh = exponent - self.mantissa_bits
        head = (1 << self.mantissa_bits) | head
        if sh >= 0:
            return head << sh | ((1 << sh) - 1)
        return head >> -sh

    def allocate(self, size: int) -> PooledDeviceAllocation:
        bn = self.bin_number(size)
        b = self._bins.get(bn)
        ctx = _core.current_context()
        while b:
            h, hctx = b.pop()
            self.held_blocks -= 1
            if hctx is ctx and hctx.alive:
                return self._wrap(h, self.alloc_size(bn), ctx)
        n = self.alloc_size(bn)
        a = _core.DeviceAllocation(n)
        h, a._handle = a._handle, None
        self.managed_bytes += n
        return self._wrap(h, n, ctx)

    def _wrap(self, h: int, n: int, ctx: Any) -> PooledDeviceAllocation:
        a = PooledDeviceAllocation.__new__(PooledDeviceAllocation)
        a._ctx, a._handle, a.ptr, a.nbytes, a._pool = ctx, h, h, n, self
        self.active_blocks += 1
        self.active_bytes += n
        return a

    __call__ = allocate

    def _give_back(self, n: int, h: int, ctx: Any) -> None:
        self.active_blocks -= 1
        self.active_bytes -= n
        if self._stop:
            _lib.lib.lat_mem_free(ctx.handle, h)
            self.managed_bytes -= n
            return
        self._bins.setdefault(self.bin_number(n), []).append((h, ctx))
        self.held_blocks += 1

    def free_held(self) -> None:
        for b in self._bins.values():
            for h, ctx in b:
                if ctx.alive:
                    _lib.lib.lat_mem_free(ctx.handle, h)
        self._bins.clear()
        self.held_blocks = 0

    def stop_holding(self) -> None:
        self._stop = True
        self.free_held()


class PageLockedMemoryPool:
    def __init__(self, allocator: Any = None):
        self.active_blocks = self.held_blocks = 0

    def allocate(self, shape: Any, dtype: Any, order: str = "C") -> np.ndarray:
        return np.empty(shape, dtype, order=order)

    def free_held(self) -> None:
        pass

    def stop_holding(self) -> None:
        pass


# ---- streams and events --------------------------------------------------------------------

class Stream(_Stream):
    """A stream of the current context."""


class Event(_Event):
    """An event (``record``, ``synchronize``, ``query``, ``time_since``, ``time_till``)."""


# ---- textures (removed in CUDA 12: refused, as CUDA 12 refuses them) -------------------------

def _no_textures(*a: Any, **k: Any) -> Any:
    raise LogicError("texture references were removed in CUDA 12; lattice has texture "
                     "objects (lattice/texture.h)")


class TextureReference:
    def __init__(self, *a: Any, **k: Any) -> None:
        _no_textures()


class SurfaceReference(TextureReference):
    pass


class Array:
    def __init__(self, *a: Any, **k: Any) -> None:
        raise LogicError("CUDA arrays (for texture references) are not supported by lattice")


class ArrayDescriptor:
    def __init__(self) -> None:
        self.width = self.height = self.num_channels = 0
        self.format = array_format.FLOAT


class ArrayDescriptor3D(ArrayDescriptor):
    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.flags = 0


np_to_array = matrix_to_array = bind_array_to_texref = matrix_to_texref = \
    make_multichannel_2d_array = gpuarray_to_array = _no_textures


def dtype_to_array_format(dtype: Any) -> Any:
    d = np.dtype(dtype)
    table = {np.dtype(np.uint8): "UNSIGNED_INT8", np.dtype(np.uint16): "UNSIGNED_INT16",
             np.dtype(np.uint32): "UNSIGNED_INT32", np.dtype(np.int8): "SIGNED_INT8",
             np.dtype(np.int16): "SIGNED_INT16", np.dtype(np.int32): "SIGNED_INT32",
             np.dtype(np.float32): "FLOAT", np.dtype(np.float16): "HALF"}
    if d not in table:
        raise TypeError(f"cannot convert dtype '{d}' to array format")
    return array_format.names[table[d]]
