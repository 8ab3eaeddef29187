"""PyCUDA's ``pycuda.tools``: default contexts, memory pools, the C type registry,
argument declarations, context-dependent memoisation, device data and occupancy, and
PyCUDA's pytest helpers (``mark_cuda_test``, ``init_cuda_context_fixture``)."""

from __future__ import annotations

import os
import weakref
from typing import Any, Callable, Sequence

import numpy as np

from .. import core as _core
from .. import errors as _errors

__all__ = ["make_default_context", "clear_context_caches", "context_dependent_memoize",
           "DeviceMemoryPool", "PageLockedMemoryPool", "PageLockedAllocator",
           "PooledDeviceAllocation", "PooledHostAllocation", "bitlog2", "DeviceData",
           "OccupancyRecord", "dtype_to_ctype", "get_or_register_dtype", "register_dtype",
           "VectorArg", "ScalarArg", "parse_c_arg", "get_arg_type", "mark_cuda_test",
           "init_cuda_context_fixture", "get_default_device", "DebugMemoryPool"]


# ----------------------------------------------------------------------------------------
# Default contexts
# ----------------------------------------------------------------------------------------

def make_default_context(ctx_maker: Callable[[Any], Any] | None = None):
    """A new context, made current: on CUDA_DEVICE (or ~/.cuda_device) when set, else on
    the first device of the automatic backend where one can be made (PyCUDA's)."""
    from . import driver as drv
    if ctx_maker is None:
        def ctx_maker(dev):
            return dev.make_context()
    n = drv.Device.count()
    if n == 0:
        raise RuntimeError("no device found: lattice found no usable backend device")
    devn = os.environ.get("CUDA_DEVICE")
    if devn is None:
        try:
            with open(os.path.join(os.path.expanduser("~"), ".cuda_device")) as f:
                devn = f.read().strip()
        except OSError:
            devn = None
    if devn is not None:
        try:
            ordinal = int(devn)
        except ValueError:
            raise TypeError("CUDA device number (CUDA_DEVICE or ~/.cuda_device) must be "
                            f"an integer, not {devn!r}") from None
        return ctx_maker(drv.Device(ordinal))
    errors = []
    for i in range(n):
        try:
            return ctx_maker(drv.Device(i))
        except drv.Error as e:
            errors.append(str(e))
    raise RuntimeError(f"make_default_context() could not make a context on any of the {n} "
                       f"devices: {'; '.join(errors)}")


def get_default_device(default: int = 0):
    """PyCUDA's deprecated way to the device to use: CUDA_DEVICE, else ~/.cuda_device, else
    ``default`` (a DeprecationWarning, as PyCUDA gives)."""
    import warnings
    from . import driver as drv
    warnings.warn("get_default_device() is deprecated; use make_default_context() instead",
                  DeprecationWarning, stacklevel=2)
    dev = os.environ.get("CUDA_DEVICE")
    if dev is None:
        try:
            with open(os.path.join(os.path.expanduser("~"), ".cuda_device")) as f:
                dev = f.read().strip()
        except OSError:
            dev = None
    if dev is None:
        dev = default
    try:
        dev = int(dev)
    except (TypeError, ValueError):
        raise TypeError("CUDA device number (CUDA_DEVICE or ~/.cuda_device) must be an "
                        f"integer, not {dev!r}") from None
    return drv.Device(dev)


# ----------------------------------------------------------------------------------------
# Context-dependent memoisation
# ----------------------------------------------------------------------------------------

_memo_caches: list[dict] = []


def context_dependent_memoize(func: Callable) -> Callable:
    """Caches func's results per (current context, arguments); ``clear_context_caches``
    empties every such cache."""
    from functools import update_wrapper
    cache: dict = {}
    _memo_caches.append(cache)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        key = (args, frozenset(kwargs.items())) if kwargs else args
        from .driver import Context
        per_ctx = cache.setdefault(Context.get_current(), {})
        # Not a try/except KeyError: a failure of func (a CompileError) would be shown as
        # raised while handling the cache's KeyError, which reads as the cause.
        if key not in per_ctx:
            per_ctx[key] = func(*args, **kwargs)
        return per_ctx[key]

    update_wrapper(wrapper, func)
    wrapper.clear_cache = cache.clear  # type: ignore[attr-defined]
    return wrapper


def clear_context_caches() -> None:
    """Forgets every result of a ``context_dependent_memoize`` function."""
    for c in _memo_caches:
        c.clear()


# ----------------------------------------------------------------------------------------
# Memory pools
# ----------------------------------------------------------------------------------------

def bitlog2(n: int) -> int:
    """The index of the highest set bit of n (floor(log2(n))); 0 for 0."""
    n = int(n)
    if n < 0:
        raise ValueError(f"bitlog2: {n} is negative")
    return max(n.bit_length() - 1, 0)


class _Pool:
    """Blocks grouped in bins of sizes rounded up to ``leading_bits`` significant bits
    (PyCUDA's binning): a freed block is held in its bin and handed out again to the next
    request of that bin, until ``free_held`` or ``stop_holding``."""

    def __init__(self, leading_bits: int = 4):
        self._bits = int(leading_bits)
        self._bins: dict[int, list[Any]] = {}
        self.held_blocks = 0
        self.active_blocks = 0
        self.managed_bytes = 0
        self.active_bytes = 0
        self._holding = True
        self._trace = False

    def bin_number(self, size: int) -> int:
        size = int(size)
        if size < 0:
            raise ValueError(f"bin_number: size {size} is negative")
        exp = bitlog2(size)
        shift = exp - self._bits
        head = size >> shift if shift >= 0 else size << -shift
        return exp << self._bits | head & ((1 << self._bits) - 1)

    def alloc_size(self, bin_nr: int) -> int:
        exp, mantissa = int(bin_nr) >> self._bits, int(bin_nr) & ((1 << self._bits) - 1)
        shift = exp - self._bits
        head = (1 << self._bits | mantissa)
        if shift >= 0:
            return head << shift | ((1 << shift) - 1)
        return head >> -shift

    def set_trace(self, flag: bool) -> None:
        self._trace = bool(flag)

    def _take(self, size: int) -> tuple[Any, int]:
        bin_nr = self.bin_number(size)
        held = self._bins.get(bin_nr)
        if held:
            block = held.pop()
            self.held_blocks -= 1
        else:
            n = self.alloc_size(bin_nr)
            try:
                block = self._new_block(n)
            except (_errors.OutOfDeviceMemoryError, MemoryError):
                # As PyCUDA's pool does: give back what it holds, collect, try again.
                self.free_held()
                import gc
                gc.collect()
                block = self._new_block(n)
            self.managed_bytes += n
        self.active_blocks += 1
        self.active_bytes += size
        return block, bin_nr

    def _give_back(self, block: Any, size: int) -> None:
        self.active_blocks -= 1
        self.active_bytes -= size
        bin_nr = self.bin_number(size)
        if self._holding:
            self._bins.setdefault(bin_nr, []).append(block)
            self.held_blocks += 1
        else:
            self.managed_bytes -= self.alloc_size(bin_nr)
            self._drop_block(block)

    def free_held(self) -> None:
        """Frees every block the pool holds (blocks in use are not affected)."""
        for bin_nr, blocks in self._bins.items():
            for b in blocks:
                self.managed_bytes -= self.alloc_size(bin_nr)
                self._drop_block(b)
        self._bins.clear()
        self.held_blocks = 0

    def stop_holding(self) -> None:
        """Frees the held blocks, and from now on frees blocks as they are given back."""
        self._holding = False
        self.free_held()

    def _new_block(self, nbytes: int) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def _drop_block(self, block: Any) -> None:  # pragma: no cover - overridden
        raise NotImplementedError


class PooledDeviceAllocation:
    """Device memory from a DeviceMemoryPool: ``int()`` is its address; ``free()`` (or
    collection) gives it back to the pool."""

    def __init__(self, pool: "DeviceMemoryPool", block: _core.DeviceAllocation, size: int):
        self._pool, self._block, self._size = pool, block, size
        self._ctx = block._ctx
        self.ptr = block.ptr

    @property
    def _lattice_ptr_(self) -> int:
        if self._block is None:
            raise _errors.LatticeError("the pooled allocation has been freed", -1,
                                       "LAT_ERROR_INVALID_VALUE")
        return self.ptr

    def free(self) -> None:
        block, self._block = self._block, None
        if block is not None:
            self._pool._give_back(block, self._size)

    def __int__(self) -> int:
        return self.ptr

    __index__ = __int__

    def __len__(self) -> int:
        return self._size

    @property
    def nbytes(self) -> int:
        return self._size

    def __del__(self) -> None:
        try:
            self.free()
        except Exception:
            pass

    def __repr__(self) -> str:
        return f"<PooledDeviceAllocation {self._size} bytes at 0x{self.ptr:x}>"


class DeviceMemoryPool(_Pool):
    """PyCUDA's device memory pool: ``allocate(nbytes)`` returns a PooledDeviceAllocation
    (usable wherever device memory is, e.g. ``GPUArray(..., allocator=pool.allocate)``)."""

    def __init__(self, allocator: Any = None, leading_bits_in_bin_id: int = 4):
        super().__init__(leading_bits_in_bin_id)
        self._allocator = allocator

    def allocate(self, size: int) -> PooledDeviceAllocation:
        block, _ = self._take(int(size))
        return PooledDeviceAllocation(self, block, int(size))

    __call__ = allocate

    def _new_block(self, nbytes: int) -> Any:
        if self._allocator is not None:
            return self._allocator(nbytes)
        return _core.mem_alloc(max(nbytes, 1))

    def _drop_block(self, block: Any) -> None:
        free = getattr(block, "free", None)
        if free is not None:
            free()

    def __del__(self) -> None:
        try:
            self.free_held()
        except Exception:
            pass


class DebugMemoryPool(DeviceMemoryPool):
    """PyCUDA's DeviceMemoryPool that reports each allocation: its size, where it was made
    (the calling function's file and line), and the device's and the pool's use, to
    ``logfile`` (stdout by default). ``interactive`` is accepted (PyCUDA's keeps a disk
    dictionary of stack mnemonics; this one prints the caller)."""

    def __init__(self, interactive: bool = True, logfile: Any = None):
        super().__init__()
        from . import driver as drv
        import sys
        self.last_free, _ = drv.mem_get_info()
        self.interactive = interactive
        self.logfile = sys.stdout if logfile is None else logfile

    def allocate(self, size: int) -> PooledDeviceAllocation:
        import traceback
        from . import driver as drv
        caller = traceback.extract_stack()[-2]
        free, total = drv.mem_get_info()
        print(f"\n  Allocation of size {int(size)} occurring (mem: last_free:{self.last_free}, "
              f"free: {free}, total:{total}) (pool: held:{self.held_blocks}, "
              f"active:{self.active_blocks}):\n      at: {caller.filename}:{caller.lineno} "
              f"({caller.name})", file=self.logfile)
        result = super().allocate(size)
        self.last_free = free
        return result

    __call__ = allocate


class PageLockedAllocator:
    """Host memory for PageLockedMemoryPool (lattice's copies take any host memory, so it
    is ordinary memory; ``flags`` are accepted as PyCUDA's host_alloc_flags)."""

    def __init__(self, flags: int = 0):
        self.flags = flags

    def __call__(self, nbytes: int) -> np.ndarray:
        return np.empty(max(int(nbytes), 1), np.uint8)


class PooledHostAllocation:
    """A host block of a PageLockedMemoryPool; arrays from ``allocate`` are views of it."""

    def __init__(self, pool: "PageLockedMemoryPool", block: np.ndarray, size: int):
        self._size = size
        self._ptr = block.__array_interface__["data"][0]
        self._fin = weakref.finalize(self, pool._give_back, block, size)

    def free(self) -> None:
        self._fin()

    def __len__(self) -> int:
        return self._size


class PageLockedMemoryPool(_Pool):
    """PyCUDA's host memory pool: ``allocate(shape, dtype, order)`` returns a NumPy array
    whose memory goes back to the pool when the array (and its views) are collected."""

    def __init__(self, allocator: PageLockedAllocator | None = None,
                 leading_bits_in_bin_id: int = 4):
        super().__init__(leading_bits_in_bin_id)
        self._allocator = allocator or PageLockedAllocator()

    def allocate(self, shape: Any, dtype: Any, order: str = "C") -> np.ndarray:
        dtype = np.dtype(dtype)
        shape = (int(shape),) if np.isscalar(shape) else tuple(int(s) for s in shape)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        from .driver import _array_over
        block, _ = self._take(nbytes)
        holder = PooledHostAllocation(self, block, nbytes)
        return _array_over(holder, holder._ptr, shape, dtype, order)

    def _new_block(self, nbytes: int) -> Any:
        return self._allocator(nbytes)

    def _drop_block(self, block: Any) -> None:
        pass


# ----------------------------------------------------------------------------------------
# Device data and occupancy
# ----------------------------------------------------------------------------------------

class DeviceData:
    """Limits of a device (the current context's by default) that launch-size heuristics
    use: max_threads, warp_size, warps_per_mp, thread_blocks_per_mp, registers,
    shared_memory, and alignment helpers."""

    def __init__(self, dev: Any = None):
        from . import driver as drv
        if dev is None:
            dev = drv.Context.get_device()
        a = drv.device_attribute
        self.max_threads = dev.get_attribute(a.MAX_THREADS_PER_BLOCK)
        self.warp_size = dev.get_attribute(a.WARP_SIZE)
        # PyCUDA's table by compute capability (not the device's own threads per
        # multiprocessor), so that occupancy figures are PyCUDA's.
        cc = dev.compute_capability()
        self.warps_per_mp = 64 if cc >= (3, 0) else 48 if cc >= (2, 0) else \
            32 if cc >= (1, 2) else 24
        self.thread_blocks_per_mp = 8
        self.registers = dev.get_attribute(a.MAX_REGISTERS_PER_BLOCK)
        self.shared_memory = dev.get_attribute(a.MAX_SHARED_MEMORY_PER_BLOCK)
        new_arch = cc >= (2, 0)
        self.smem_alloc_granularity = 128 if new_arch else 512
        self.smem_granularity = 32 if new_arch else 16
        self.register_allocation_unit = "warp" if new_arch else "block"

    def align_bytes(self, word_size: int = 4) -> int:
        if word_size == 4:
            return 64
        if word_size in (8, 16):
            return 128
        raise ValueError(f"no alignment possible for fetches of size {word_size}")

    def align(self, bytes: int, word_size: int = 4) -> int:  # noqa: A002 (PyCUDA's name)
        return _ceil_to(bytes, self.align_bytes(word_size))

    def align_words(self, word_size: int) -> int:
        return self.align_bytes(word_size) // word_size

    def align_dtype(self, elements: int, dtype_size: int) -> int:
        return _ceil_to(elements, self.align_words(dtype_size))

    def coalesce(self, thread_count: int) -> int:
        return _ceil_to(thread_count, 16)

    @staticmethod
    def make_valid_tex_channel_count(size: int) -> int:
        for n in (1, 2, 4):
            if size <= n:
                return n
        raise ValueError(f"could not enlarge {size} channels to a valid channel count")


def _ceil_to(value: float, multiple: int = 1) -> int:
    return -(-int(np.ceil(value)) // multiple) * multiple


class OccupancyRecord:
    """How many blocks of ``threads`` threads (with ``shared_mem`` bytes and ``registers``
    per thread) fit on a multiprocessor: ``tb_per_mp``, ``limited_by``, ``warps_per_mp``
    and ``occupancy`` (the fraction of the multiprocessor's warps in use)."""

    def __init__(self, devdata: DeviceData, threads: int, shared_mem: int = 0,
                 registers: int = 0):
        if threads > devdata.max_threads:
            raise ValueError(f"too many threads: {threads} > {devdata.max_threads}")
        warps = _ceil_to(threads / devdata.warp_size)
        smem = _ceil_to(shared_mem, devdata.smem_alloc_granularity)
        if devdata.register_allocation_unit == "block":
            regs = _ceil_to(warps * 2, 4) * 16 * registers
        else:
            regs = warps * 32 * registers
        if regs > devdata.registers:
            raise ValueError("too many registers")
        if smem > devdata.shared_memory:
            raise ValueError("too much shared memory")
        limits = [(devdata.thread_blocks_per_mp, "device"),
                  (devdata.warps_per_mp // warps, "warps")]
        if registers > 0:
            limits.append((devdata.registers // regs, "regs"))
        if shared_mem > 0:
            limits.append((devdata.shared_memory // smem, "smem"))
        self.tb_per_mp_limits = limits
        self.tb_per_mp, self.limited_by = min(limits)
        self.warps_per_mp = self.tb_per_mp * warps
        self.occupancy = self.warps_per_mp / devdata.warps_per_mp


# ----------------------------------------------------------------------------------------
# C types and dtypes
# ----------------------------------------------------------------------------------------

# The registry is compyte's, as in PyCUDA: a dtype registered through either module is
# known to both.
from .compyte.dtypes import TYPE_REGISTRY as _REGISTRY  # noqa: E402
from .compyte.dtypes import get_or_register_dtype, register_dtype  # noqa: E402,F401

_name_to_dtype = _REGISTRY.name_to_dtype
_dtype_to_name = _REGISTRY.dtype_to_name


def _fill_registry() -> None:
    reg = get_or_register_dtype
    reg("bool", np.bool_)
    reg(["signed char", "char"], np.int8)
    reg("unsigned char", np.uint8)
    reg(["short", "signed short", "signed short int", "short signed int"], np.int16)
    reg(["unsigned short", "unsigned short int", "short unsigned int"], np.uint16)
    reg(["int", "signed int"], np.int32)
    reg(["unsigned", "unsigned int"], np.uint32)
    # long is 64 bits on lattice's targets (LP64), as on PyCUDA's Linux.
    reg(["long", "long int", "signed long int", "long signed int"], np.int64)
    reg(["unsigned long", "unsigned long int", "long unsigned int"], np.uint64)
    reg("float", np.float32)
    reg("double", np.float64)
    reg("pycuda::complex<float>", np.complex64)
    reg("pycuda::complex<double>", np.complex128)
    # Further spellings kernels use; they do not change what dtype_to_ctype answers.
    reg(["long long", "long long int", "signed long long", "int64_t", "ptrdiff_t",
         "intptr_t"], np.int64)
    reg(["unsigned long long", "unsigned long long int", "uint64_t", "size_t", "uintptr_t"],
        np.uint64)
    reg(["int8_t"], np.int8)
    reg(["uint8_t"], np.uint8)
    reg(["int16_t"], np.int16)
    reg(["uint16_t"], np.uint16)
    reg(["int32_t"], np.int32)
    reg(["uint32_t"], np.uint32)
    reg(["half", "__half"], np.float16)


_fill_registry()


def dtype_to_ctype(dtype: Any, with_fp_tex_hack: bool = False) -> str:
    """The C type name of a dtype ("float", "pycuda::complex<double>", "float3"...)."""
    if dtype is None:
        raise ValueError("dtype may not be None")
    dtype = np.dtype(dtype)
    if with_fp_tex_hack:
        hack = {np.float32: "fp_tex_float", np.float64: "fp_tex_double",
                np.complex64: "fp_tex_cfloat", np.complex128: "fp_tex_cdouble"}
        for t, n in hack.items():
            if dtype == t:
                return n
    try:
        return _dtype_to_name[dtype]
    except KeyError:
        raise ValueError(f"unable to map dtype '{dtype}' to a C type "
                         "(tools.get_or_register_dtype registers one)") from None


#: compyte's dtype_to_ctype, which PyCUDA's tools re-exports under this name.
base_dtype_to_ctype = dtype_to_ctype


class Argument:
    def __init__(self, dtype: Any, name: str):
        self.dtype, self.name = np.dtype(dtype), name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, {self.dtype})"


class VectorArg(Argument):
    """A pointer parameter of an elementwise/reduction kernel."""

    struct_char = "P"

    def declarator(self) -> str:
        return f"{dtype_to_ctype(self.dtype)} *{self.name}"


class ScalarArg(Argument):
    """A by-value parameter of an elementwise/reduction kernel."""

    def declarator(self) -> str:
        return f"{dtype_to_ctype(self.dtype)} {self.name}"

    @property
    def struct_char(self) -> str:
        c = self.dtype.char
        return f"{self.dtype.itemsize}s" if c == "V" else c


def parse_c_arg(c_arg: str) -> Argument:
    """``"float *x"`` -> VectorArg(float32, "x"); ``"const int n"`` -> ScalarArg. Types are
    looked up in the registry (get_or_register_dtype); an unknown one raises ValueError."""
    import re
    text = re.sub(r"\b(const|volatile|__restrict__|restrict)\b", " ", c_arg)
    m = re.search(r"(\**)\s*([_a-zA-Z0-9]+)(\s*\[[ 0-9]*\])*\s*$", text)
    if m is None:
        raise ValueError(f"couldn't parse C declarator '{c_arg}'")
    tp = " ".join(text[:m.start()].split())
    try:
        dtype = _name_to_dtype[tp]
    except KeyError:
        raise ValueError(f"unknown type '{tp}' in '{c_arg}'") from None
    cls = VectorArg if m.group(1) or m.group(3) is not None else ScalarArg
    return cls(dtype, m.group(2))


def get_arg_type(c_arg: str) -> str:
    return parse_c_arg(c_arg).struct_char


# ----------------------------------------------------------------------------------------
# pytest helpers
# ----------------------------------------------------------------------------------------

def _check_context(ctx: Any) -> None:
    dev = ctx.get_device()
    assert isinstance(dev.name(), str)
    assert isinstance(dev.compute_capability(), tuple)
    assert isinstance(dev.get_attributes(), dict)


def _end_context(ctx: Any) -> None:
    import gc
    from .driver import Context
    if Context.get_current() is ctx:
        Context.pop()
    clear_context_caches()
    gc.collect()


def mark_cuda_test(inner_f: Callable) -> Callable:
    """Runs a test function inside a fresh default context (popped after), and marks it
    with pytest's ``cuda`` marker when pytest is there (PyCUDA's decorator)."""
    from functools import wraps

    @wraps(inner_f)
    def f(*args: Any, **kwargs: Any) -> Any:
        from . import driver
        driver.init()
        ctx = make_default_context()
        try:
            _check_context(ctx)
            return inner_f(*args, **kwargs)
        finally:
            _end_context(ctx)

    try:
        import pytest
    except ImportError:
        return f
    return pytest.mark.cuda(f)


def init_cuda_context_fixture():
    """A generator for a pytest fixture: ``yield from init_cuda_context_fixture()`` makes
    a fresh default context for the test and pops it after."""
    from . import driver
    driver.init()
    ctx = make_default_context()
    _check_context(ctx)
    yield
    _end_context(ctx)
