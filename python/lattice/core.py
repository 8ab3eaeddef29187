"""Devices, contexts, device memory, modules, kernels, streams and events.

The objects here own what lattice gives them and free it when they are closed, used as
context managers, or collected. Every object belongs to a Context; the context is kept
alive by its objects, and closing a context frees everything it owns (later use of one
of its objects raises ContextClosedError... a LatticeError).

A process-wide *current context* is what functions use when given none: the most
recently entered or pushed one, or else a default context made on first use with the
automatic backend (LATTICE_BACKEND, else CUDA where a GPU is usable, else the emulator).
Unlike CUDA's (and so PyCUDA's) per-thread context stack, it is the same in every thread.
"""

from __future__ import annotations

import atexit
import ctypes
import operator
import re
import threading
import weakref
from ctypes import byref, c_float, c_int, c_size_t, c_uint, c_uint64, c_void_p
from typing import Any, Iterable, Sequence

import numpy as np

from . import _lib
from ._lib import lib
from . import errors as _errors
from .errors import LatticeError, check

__all__ = [
    "BACKENDS", "Device", "Context", "DeviceAllocation", "Module", "Kernel", "In", "Out",
    "InOut", "Stream", "Event", "current_context", "get_context", "backend_of",
    "mem_alloc", "memcpy_htod", "memcpy_dtoh", "memcpy_dtod", "synchronize", "interrupt",
]

#: Backend names as the library spells them, and their lat_backend_kind values.
BACKENDS = {"auto": 0, "cuda": 1, "emu": 2, "cross": 3}
_BACKEND_NAMES = {v: k for k, v in BACKENDS.items()}


def _backend_kind(backend: str | int | None) -> int:
    if backend is None:
        return 0
    if isinstance(backend, int):
        return backend
    try:
        return BACKENDS[backend]
    except KeyError:
        raise ValueError(f"unknown backend {backend!r}; one of {', '.join(BACKENDS)}") from None


def _strlist(items: Iterable[str] | None):
    """A NULL-terminated char ** for a list of strings (and the bytes it points into)."""
    if not items:
        return None, None
    enc = [s.encode() if isinstance(s, str) else bytes(s) for s in items]
    arr = (ctypes.c_char_p * (len(enc) + 1))(*enc, None)
    return arr, enc


# ----------------------------------------------------------------------------------------
# Devices
# ----------------------------------------------------------------------------------------

class Device:
    """A device of a backend (``Device(0)``: the first device of the automatic backend)."""

    def __init__(self, ordinal: int = 0, backend: str | int | None = None):
        kind = _backend_kind(backend)
        resolved = c_int()
        check(lib.lat_backend_resolve(kind, byref(resolved)), "Device")
        self.backend: str = _BACKEND_NAMES.get(resolved.value, "unknown")
        self._kind = resolved.value
        self.ordinal = ordinal
        # An ordinal out of range is refused here: the library would also print its
        # error to stderr (a call outside any context has no logger), a stray line after
        # the exception the program catches.
        n = c_int()
        check(lib.lat_device_count(self._kind, byref(n)), "Device")
        if isinstance(ordinal, int) and not 0 <= ordinal < n.value:
            from .errors import InvalidDeviceError  # type: ignore[attr-defined]
            raise InvalidDeviceError(f"Device: device {ordinal} does not exist: backend "
                                     f"{self.backend} has {n.value} device"
                                     f"{'' if n.value == 1 else 's'} (0..{n.value - 1})")
        info = _lib.device_info()
        check(lib.lat_device_get_info(self._kind, ordinal, byref(info)), "Device")
        self._info = info

    @staticmethod
    def count(backend: str | int | None = None) -> int:
        """The number of devices of a backend (the automatic one by default)."""
        n = c_int()
        check(lib.lat_device_count(_backend_kind(backend), byref(n)), "Device.count")
        return n.value

    def name(self) -> str:
        """The device's name, e.g. ``"NVIDIA H100 80GB HBM3"`` or ``"lattice emulator"``."""
        return self._info.name.decode()

    def compute_capability(self) -> tuple[int, int]:
        return (self._info.compute_major, self._info.compute_minor)

    def total_memory(self) -> int:
        """Bytes of device memory."""
        return self._info.total_memory

    @property
    def info(self) -> dict[str, Any]:
        """Everything lat_device_info holds, as a dict."""
        out = {}
        for name, _ in _lib.device_info._fields_:
            v = getattr(self._info, name)
            out[name] = v.decode() if isinstance(v, bytes) else (tuple(v) if not isinstance(
                v, int) else v)
        return out

    def get_attribute(self, name: str) -> int:
        """A driver attribute by name, e.g. ``"MAX_THREADS_PER_BLOCK"`` (any case)."""
        v = c_int()
        check(lib.lat_device_attribute(self._kind, self.ordinal, name.upper().encode(),
                                       byref(v)), "Device.get_attribute")
        return v.value

    def make_context(self, **kwargs: Any) -> "Context":
        """A new context on this device, made current (PyCUDA's ``make_context``)."""
        ctx = Context(backend=self._kind, device=self.ordinal, **kwargs)
        ctx.push()
        return ctx

    def __repr__(self) -> str:
        return f"<lattice.Device {self.ordinal} of {self.backend}: {self.name()}>"


# ----------------------------------------------------------------------------------------
# Contexts
# ----------------------------------------------------------------------------------------

class _Stack(list):
    """One thread's stack of current contexts (a class, so that it can be weakly held;
    compared by identity, so that two threads' empty stacks are two stacks)."""

    __eq__ = object.__eq__  # type: ignore[assignment]
    __ne__ = object.__ne__  # type: ignore[assignment]
    __hash__ = object.__hash__  # type: ignore[assignment]


# Each thread has its own stack of current contexts, as CUDA's (and PyCUDA's) are per
# thread: a worker that pushes its context neither sees nor pops another thread's. A
# thread that has pushed none sees the main thread's current context.
_main_stack = _Stack()
_stacks: "weakref.WeakSet[_Stack]" = weakref.WeakSet([_main_stack])
_local = threading.local()
_stack_lock = threading.RLock()
_default: "Context | None" = None
_live: "weakref.WeakSet[Context]" = weakref.WeakSet()

_LOG_LEVELS = {1: "error", 2: "warning", 3: "info"}
# While a context is destroyed: Python frees objects when it collects them, so memory a
# context still owns at its end is expected, not a leak worth a warning.
_destroying = False


# Ctrl-C while lattice's C code calls back into Python (the logger, during a failing
# launch) would raise KeyboardInterrupt inside the callback, where ctypes drops it. While
# such a callback runs, the SIGINT handler notes the interrupt instead, and the lattice
# call raises KeyboardInterrupt when it returns (errors.check).
#
# Ctrl-C while the main thread waits in C (a launch that spins, a synchronize): CPython
# runs the handler only between bytecodes, that is after the call returns, minutes later.
# So Python's own C-level handler, which writes the signal's number to the wakeup fd
# (signal.set_wakeup_fd), wakes a daemon thread that calls lat_interrupt(): the call
# returns within milliseconds (LAT_ERROR_INTERRUPTED), and the handler then raises
# KeyboardInterrupt as usual. Nothing runs per launch. A wakeup fd set before ours (a
# program's, asyncio's) gets every byte forwarded; one set after ours replaces it, and
# Ctrl-C then waits for the call to return, as before.
_callback_codes: set = set()
_sigint_installed = False
# The handler takes the bytes the thread has not read yet (that SIGINT is its own: no
# lattice call runs in the main thread while it does), under this lock, which the thread
# holds while it reads bytes and calls lat_interrupt(): so no interrupt can reach a call
# the program makes after the handler has raised (in its `except KeyboardInterrupt:`).
# An interrupt reaches only the calls begun before it: one the main thread began just
# after the signal is interrupted again every _REPEAT_S, until the handler has run.
# (Reentrant: a SIGINT may find the main thread holding it, in _start_wakeup_watch.)
_wake_lock = threading.RLock()
# Our pipe's read and write ends, and the wakeup fd set before ours (-1: none).
_wake_fds: tuple[int, int, int] | None = None
_sigint_unhandled = False  # the thread has interrupted for a SIGINT the handler has not run for
_REPEAT_S = 0.05
lib.lat_interrupt.restype = None
lib.lat_interrupt.argtypes = []


def interrupt() -> None:
    """Interrupts every lattice call running in the process that runs kernels or waits
    for them (``lat_interrupt``): each raises :class:`lattice.errors.InterruptedError`
    within milliseconds. Thread-safe; for a program's own "cancel" (Ctrl-C does it by
    itself)."""
    lib.lat_interrupt()


def _take_wake_bytes() -> bytes:
    """The bytes our wakeup pipe holds, forwarded to the wakeup fd set before ours; with
    _wake_lock held."""
    import os
    r, _, prev = _wake_fds
    data = b""
    while True:
        try:
            chunk = os.read(r, 512)
        except (BlockingIOError, InterruptedError):
            break
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    if data and prev >= 0:
        try:
            os.write(prev, data)
        except OSError:
            pass  # a full or closed pipe: its owner reads what it can, as with ours
    return data


def _watch_wakeups(r: int) -> None:
    global _sigint_unhandled
    import select
    import signal
    while True:
        try:
            select.select([r], [], [], _REPEAT_S if _sigint_unhandled else None)
        except (OSError, ValueError):
            return
        with _wake_lock:
            if _wake_fds is None or _wake_fds[0] != r:
                return  # replaced (after fork)
            data = _take_wake_bytes()
            if (_sigint_unhandled or bytes([signal.SIGINT]) in data) and \
                    signal.getsignal(signal.SIGINT) is _sigint_handler:
                _sigint_unhandled = True
                lib.lat_interrupt()
            else:
                _sigint_unhandled = False


def _start_wakeup_watch() -> None:
    """Points the wakeup fd at a pipe of ours and starts the thread reading it; from the
    main thread only."""
    global _wake_fds
    import os
    import signal
    r, w = os.pipe()
    os.set_blocking(r, False)
    os.set_blocking(w, False)
    try:
        prev = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
    except (ValueError, OSError):
        os.close(r)
        os.close(w)
        return
    with _wake_lock:
        _wake_fds = (r, w, prev)
    threading.Thread(target=_watch_wakeups, args=(r,), name="lattice-sigint",
                     daemon=True).start()


def _restart_wakeup_watch() -> None:
    # A child of fork() has no thread reading the pipe it shares with its parent: a pipe
    # of its own and a thread for it.
    global _wake_fds
    if _wake_fds is None or threading.current_thread() is not threading.main_thread():
        return
    import os
    import signal
    r, w, prev = _wake_fds
    _wake_fds = None
    try:
        signal.set_wakeup_fd(prev, warn_on_full_buffer=False)
    except (ValueError, OSError):
        return
    os.close(r)
    os.close(w)
    _start_wakeup_watch()


_sigint_handler: Any = None


def _install_sigint() -> None:
    global _sigint_installed, _sigint_handler
    import os
    import signal
    if _sigint_installed or threading.current_thread() is not threading.main_thread():
        return
    prev = signal.getsignal(signal.SIGINT)
    if prev is not signal.default_int_handler:
        return  # the program's own handler stays

    def _on_sigint(signum: int, frame: Any) -> None:
        global _sigint_unhandled
        if _wake_fds is not None:
            with _wake_lock:
                _take_wake_bytes()
                _sigint_unhandled = False
        f = frame
        while f is not None:
            if f.f_code in _callback_codes:
                _errors.interrupt_pending()
                return
            f = f.f_back
        raise KeyboardInterrupt

    _sigint_handler = _on_sigint
    signal.signal(signal.SIGINT, _on_sigint)
    _sigint_installed = True
    _start_wakeup_watch()
    os.register_at_fork(after_in_child=_restart_wakeup_watch)


def _default_logger(level: str, message: str) -> None:
    # Errors reach the caller as exceptions, so they are not printed as well; warnings
    # (a compile that succeeded with warnings) become Python warnings, as PyCUDA's do.
    if level == "warning" and not _destroying:
        import warnings
        warnings.warn(f"lattice: {message}", stacklevel=4)


class Context:
    """A context on a device: the owner of device memory, modules and streams.

    ``backend``: ``"auto"`` (default), ``"cuda"``, ``"emu"`` or ``"cross"``.
    ``check``: the emulator's checks, as LATTICE_CHECK spells them
    (``"memcheck,racecheck"``, ``"all"``) or LAT_CHECK_* bits; None: as the environment says.
    ``logger``: a callable ``(level: str, message: str)`` for the context's log.
    ``emu_opt``: ``"off"``, ``"auto"``, ``"background"`` or ``"sync"`` (the emulator's tier).

    Use it as a context manager to make it current for a block and close it after.
    """

    def __init__(self, backend: str | int | None = None, device: int = 0, *,
                 check: str | int | None = None, logger=None, cross_rtol: float = 0.0,
                 cross_atol: float = 0.0, emu_opt: str | int | None = None):
        from .errors import check as _check
        desc = _lib.context_desc()
        desc.backend = _backend_kind(backend)
        desc.device = device
        desc.cross_rtol = cross_rtol
        desc.cross_atol = cross_atol
        if check is not None:
            if isinstance(check, str):
                bits = c_uint()
                _check(lib.lat_check_parse_modes(check.encode(), byref(bits)), "Context")
                desc.check = bits.value
            else:
                desc.check = int(check)
        if emu_opt is not None:
            desc.emu_opt = emu_opt if isinstance(emu_opt, int) else \
                {"default": 0, "off": 1, "auto": 2, "background": 3, "sync": 4}[emu_opt]
        if logger is None:
            logger = _default_logger
        self._logfn = None
        if logger is not None:
            def _log(_user, level, message, _logger=logger):
                try:
                    _logger(_LOG_LEVELS.get(level, str(level)), message.decode(errors="replace"))
                except Exception:  # an exception cannot cross the C boundary
                    pass
            _callback_codes.add(_log.__code__)
            _install_sigint()
            self._logfn = _lib.LOGFUNC(_log)
            desc.logger.func = self._logfn
        h = c_void_p()
        _check(lib.lat_context_create(byref(desc), byref(h)), "Context")
        self._handle: int | None = h.value
        self._kind = lib.lat_context_backend(self._handle)
        _live.add(self)

    # -- state --------------------------------------------------------------------------
    @property
    def handle(self) -> int:
        """The lat_context pointer; raises if the context was closed."""
        h = self._handle
        if h is None:
            raise LatticeError("the context has been closed", -1, "LAT_ERROR_INVALID_VALUE")
        return h

    @property
    def alive(self) -> bool:
        return self._handle is not None

    @property
    def backend(self) -> str:
        """``"cuda"``, ``"emu"`` or ``"cross"``."""
        return _BACKEND_NAMES.get(self._kind, "unknown")

    def get_device(self) -> Device:
        """The device this context runs on."""
        d = Device.__new__(Device)
        d.backend, d._kind, d.ordinal = self.backend, self._kind, 0
        info = _lib.device_info()
        check(lib.lat_context_device_info(self.handle, byref(info)))
        d._info = info
        return d

    def synchronize(self) -> None:
        """Waits for all the context's work; raises the first failure of queued work."""
        check(lib.lat_context_synchronize(self.handle), "synchronize")

    def mem_info(self) -> tuple[int, int]:
        """(free, total) bytes of device memory."""
        f, t = c_size_t(), c_size_t()
        check(lib.lat_mem_info(self.handle, byref(f), byref(t)), "mem_info")
        return f.value, t.value

    # -- the current context ---------------------------------------------------------------
    def push(self) -> None:
        """Makes this the current context of the calling thread (and of the threads that
        have pushed none, when the calling thread is the main one)."""
        with _stack_lock:
            _own_stack().append(self)

    @staticmethod
    def pop() -> "Context | None":
        """Removes the calling thread's current context from its stack and returns it
        (None when it has pushed none)."""
        with _stack_lock:
            stack = _own_stack()
            return stack.pop() if stack else None

    @staticmethod
    def get_current() -> "Context | None":
        with _stack_lock:
            top = _top()
            return top if top is not None else _default

    def __enter__(self) -> "Context":
        self.push()
        return self

    def __exit__(self, *exc) -> None:
        with _stack_lock:
            stack = _own_stack()
            if self in stack:
                stack.reverse()
                stack.remove(self)
                stack.reverse()
        self.close()

    def detach(self) -> None:
        """PyCUDA's name for close()."""
        self.close()

    def close(self) -> None:
        """Waits for the context's work and frees everything it owns. Idempotent."""
        global _default, _destroying
        h, self._handle = self._handle, None
        if h is None:
            return
        with _stack_lock:
            for stack in list(_stacks):
                while self in stack:
                    stack.remove(self)
            if _default is self:
                _default = None
        _destroying = True
        try:
            lib.lat_context_destroy(h)
        finally:
            _destroying = False

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        state = self.backend if self.alive else "closed"
        return f"<lattice.Context {state}>"


def _own_stack() -> _Stack:
    """The calling thread's stack (call with _stack_lock held)."""
    if threading.current_thread() is threading.main_thread():
        return _main_stack
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = _Stack()
        _stacks.add(stack)
    return stack


def _top() -> "Context | None":
    """The calling thread's current context, else the main thread's, else None."""
    stack = _own_stack()
    if stack:
        return stack[-1]
    return _main_stack[-1] if _main_stack else None


def current_context() -> Context:
    """The current context, making the default one (automatic backend) on first use."""
    global _default
    with _stack_lock:
        top = _top()
        if top is not None:
            return top
        if _default is None or not _default.alive:
            _default = Context()
        return _default


def get_context(ctx: Context | None) -> Context:
    return ctx if ctx is not None else current_context()


def backend_of(ctx: Context | None = None) -> str:
    """The backend name of a context (the current one by default)."""
    return get_context(ctx).backend


def synchronize(ctx: Context | None = None) -> None:
    get_context(ctx).synchronize()


_exiting = False  # set once _close_all has closed every context at exit


@atexit.register
def _close_all() -> None:
    # Close contexts before the interpreter tears modules down, so that objects
    # collected later find their context closed and free nothing.
    global _exiting
    _exiting = True
    for ctx in list(_live):
        try:
            ctx.close()
        except Exception:
            pass


class _Owned:
    """Something a context owns: freed once, and never after its context."""

    _ctx: Context
    _handle: int | None

    def _release(self, h: int) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def free(self) -> None:
        """Frees it now (idempotent); otherwise it goes when collected."""
        h, self._handle = getattr(self, "_handle", None), None
        if h is not None and self._ctx.alive:
            self._release(h)

    close = free

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.free()

    def __del__(self) -> None:
        try:
            self.free()
        except Exception:
            pass


# ----------------------------------------------------------------------------------------
# Device memory
# ----------------------------------------------------------------------------------------

class DeviceAllocation(_Owned):
    """``bytes`` of device memory of a context (PyCUDA's ``mem_alloc``). ``int(a)`` is its
    device address; pass it to a kernel as a pointer argument."""

    def __init__(self, nbytes: int, context: Context | None = None):
        self._ctx = get_context(context)
        p = c_uint64()
        nbytes = operator.index(nbytes)  # a float size is a mistake, not a size
        check(lib.lat_mem_alloc(self._ctx.handle, nbytes, byref(p)), "mem_alloc")
        self._handle = p.value
        self.ptr: int = p.value
        self.nbytes: int = int(nbytes)

    def _release(self, h: int) -> None:
        lib.lat_mem_free(self._ctx.handle, h)

    @property
    def _lattice_ptr_(self) -> int:
        if self._handle is None:
            raise LatticeError("the allocation has been freed", -1, "LAT_ERROR_INVALID_VALUE")
        return self.ptr

    def __int__(self) -> int:
        return self.ptr

    __index__ = __int__

    def __len__(self) -> int:
        return self.nbytes

    def __repr__(self) -> str:
        return f"<lattice.DeviceAllocation {self.nbytes} bytes at 0x{self.ptr:x}>"


def _devptr(obj: Any) -> int:
    p = getattr(obj, "_lattice_ptr_", None)
    if p is not None:
        return p
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        return int(cai["data"][0])
    raise TypeError(f"{type(obj).__name__} is not device memory")


def _ctx_of(obj: Any, ctx: Context | None) -> Context:
    if ctx is not None:
        return ctx
    c = getattr(obj, "_ctx", None)
    return c if isinstance(c, Context) else current_context()


def _host(buf: Any, writable: bool = False) -> tuple[int, int, Any]:
    """(address, bytes, keep-alive) of a host buffer: a NumPy array or anything with the
    buffer protocol."""
    if isinstance(buf, np.ndarray):
        if not buf.flags.c_contiguous and not buf.flags.f_contiguous:
            raise ValueError("host array must be contiguous")
        if writable and not buf.flags.writeable:
            raise ValueError("host array is read-only")
        return buf.ctypes.data, buf.nbytes, buf
    mv = memoryview(buf)
    if writable and mv.readonly:
        raise ValueError("host buffer is read-only")
    if mv.c_contiguous:
        arr = np.frombuffer(mv, dtype=np.uint8)
    elif mv.contiguous:
        # Column-major (the .data of a Fortran-ordered array) is one block too, as CUDA's
        # copies take any contiguous buffer: NumPy reads its strides and finds its start.
        arr = np.asarray(mv)
    else:
        raise ValueError("host buffer must be contiguous")
    return arr.ctypes.data, mv.nbytes, (arr, mv)


def mem_alloc(nbytes: int, context: Context | None = None) -> DeviceAllocation:
    """Allocates device memory in a context (the current one by default)."""
    return DeviceAllocation(nbytes, context)


def _stream_handle(stream: "Stream | None") -> int | None:
    return None if stream is None else stream.handle


def memcpy_htod(dest: Any, src: Any, stream: "Stream | None" = None,
                context: Context | None = None) -> None:
    """Copies a host buffer to device memory (all of the host buffer's bytes)."""
    ctx = _ctx_of(dest, context)
    addr, n, keep = _host(src)
    if getattr(dest, "_global", None):
        # A module variable is not an allocation: lattice copies to it by name.
        check(lib.lat_module_memcpy_to_global(dest._owner.handle, dest._global.encode(), 0,
                                              addr, n), "memcpy_htod")
        return
    if stream is None:
        check(lib.lat_memcpy_htod(ctx.handle, _devptr(dest), addr, n), "memcpy_htod")
    else:
        check(lib.lat_memcpy_htod_async(ctx.handle, _devptr(dest), addr, n, stream.handle),
              "memcpy_htod_async")
        stream._keep.append(keep)


def memcpy_dtoh(dest: Any, src: Any, stream: "Stream | None" = None,
                context: Context | None = None) -> None:
    """Copies device memory into a host buffer (as many bytes as the buffer holds)."""
    ctx = _ctx_of(src, context)
    addr, n, keep = _host(dest, writable=True)
    if getattr(src, "_global", None):
        if stream is not None:
            stream.synchronize()
        check(lib.lat_module_memcpy_from_global(src._owner.handle, src._global.encode(), 0,
                                                addr, n), "memcpy_dtoh")
        return
    if stream is None:
        check(lib.lat_memcpy_dtoh(ctx.handle, addr, _devptr(src), n), "memcpy_dtoh")
    else:
        check(lib.lat_memcpy_dtoh_async(ctx.handle, addr, _devptr(src), n, stream.handle),
              "memcpy_dtoh_async")
        stream._keep.append(keep)


def memcpy_dtod(dest: Any, src: Any, nbytes: int, stream: "Stream | None" = None,
                context: Context | None = None) -> None:
    """Copies nbytes between device addresses."""
    ctx = _ctx_of(dest, context)
    if stream is None:
        check(lib.lat_memcpy_dtod(ctx.handle, _devptr(dest), _devptr(src), operator.index(nbytes)),
              "memcpy_dtod")
    else:
        check(lib.lat_memcpy_dtod_async(ctx.handle, _devptr(dest), _devptr(src), operator.index(nbytes),
                                        stream.handle), "memcpy_dtod_async")


def _memset_args(value: Any, count: Any, bits: int) -> tuple[int, int]:
    """value and count as integers that fit (ctypes would wrap 256 to 0 for a byte)."""
    value, count = operator.index(value), operator.index(count)
    if not 0 <= value < 1 << bits:
        raise OverflowError(f"memset_d{bits}: value {value} does not fit {bits} unsigned bits")
    if count < 0:
        raise OverflowError(f"memset_d{bits}: count {count} is negative")
    return value, count


def memset_d8(dest: Any, value: int, count: int, context: Context | None = None) -> None:
    value, count = _memset_args(value, count, 8)
    check(lib.lat_memset_d8(_ctx_of(dest, context).handle, _devptr(dest), value, count))


def memset_d16(dest: Any, value: int, count: int, context: Context | None = None) -> None:
    value, count = _memset_args(value, count, 16)
    check(lib.lat_memset_d16(_ctx_of(dest, context).handle, _devptr(dest), value, count))


def memset_d32(dest: Any, value: int, count: int, context: Context | None = None) -> None:
    value, count = _memset_args(value, count, 32)
    check(lib.lat_memset_d32(_ctx_of(dest, context).handle, _devptr(dest), value, count))


# ----------------------------------------------------------------------------------------
# Streams and events
# ----------------------------------------------------------------------------------------

class Stream(_Owned):
    """A queue of work in a context. Host buffers given to its asynchronous copies are
    kept alive until the stream is synchronised."""

    def __init__(self, flags: int = 0, context: Context | None = None, *,
                 non_blocking: bool = False, priority: int = 0):
        self._ctx = get_context(context)
        d = _lib.stream_desc(int(non_blocking or bool(flags)), priority)
        h = c_void_p()
        check(lib.lat_stream_create(self._ctx.handle, byref(d), byref(h)), "Stream")
        self._handle = h.value
        self._keep: list[Any] = []

    @property
    def handle(self) -> int:
        if self._handle is None:
            raise LatticeError("the stream has been destroyed", -1, "LAT_ERROR_INVALID_VALUE")
        return self._handle

    def _release(self, h: int) -> None:
        lib.lat_stream_destroy(h)

    def synchronize(self) -> None:
        """Waits for the stream's work; raises its first failure."""
        check(lib.lat_stream_synchronize(self.handle), "Stream.synchronize")
        self._keep.clear()

    def is_done(self) -> bool:
        done = c_int()
        check(lib.lat_stream_query(self.handle, byref(done)), "Stream.is_done")
        return bool(done.value)

    def wait_for_event(self, event: "Event") -> None:
        check(lib.lat_stream_wait_event(self.handle, event.handle), "Stream.wait_for_event")


class Event(_Owned):
    """A marker in a stream's work, for timing and ordering."""

    def __init__(self, flags: int = 0, context: Context | None = None, *,
                 disable_timing: bool = False, blocking_sync: bool = False):
        self._ctx = get_context(context)
        # PyCUDA's event_flags: BLOCKING_SYNC 1, DISABLE_TIMING 2.
        d = _lib.event_desc(int(disable_timing or bool(flags & 2)),
                            int(blocking_sync or bool(flags & 1)))
        h = c_void_p()
        check(lib.lat_event_create(self._ctx.handle, byref(d), byref(h)), "Event")
        self._handle = h.value

    @property
    def handle(self) -> int:
        if self._handle is None:
            raise LatticeError("the event has been destroyed", -1, "LAT_ERROR_INVALID_VALUE")
        return self._handle

    def _release(self, h: int) -> None:
        lib.lat_event_destroy(h)

    def record(self, stream: Stream | None = None) -> "Event":
        check(lib.lat_event_record(self.handle, _stream_handle(stream)), "Event.record")
        return self

    def synchronize(self) -> "Event":
        check(lib.lat_event_synchronize(self.handle), "Event.synchronize")
        return self

    def query(self) -> bool:
        done = c_int()
        check(lib.lat_event_query(self.handle, byref(done)), "Event.query")
        return bool(done.value)

    def time_since(self, start: "Event") -> float:
        """Milliseconds from ``start`` to this event (both recorded and completed)."""
        ms = c_float()
        check(lib.lat_event_elapsed_ms(start.handle, self.handle, byref(ms)), "time_since")
        return ms.value

    def time_till(self, end: "Event") -> float:
        """Milliseconds from this event to ``end``."""
        return end.time_since(self)


# ----------------------------------------------------------------------------------------
# Kernel arguments
# ----------------------------------------------------------------------------------------

class _HostArg:
    """The base of In, Out and InOut: PyCUDA's ArgumentHandler. A subclass of its own
    (kind 0) is passed as PyCUDA passes one: ``pre_call(stream)`` before the launch, the
    address ``get_device_alloc()`` gives as the argument, ``post_call(stream)`` after it
    where the subclass defines one."""
    kind = 0

    def __init__(self, array: Any):
        if not isinstance(array, np.ndarray):
            array = np.asarray(array)
        if array.dtype.hasobject:
            # Copying Python object pointers to or from a device would corrupt them.
            raise TypeError(f"{type(self).__name__}(): an array of Python objects "
                            f"({array.dtype}); a kernel can only take plain data")
        self.array = array

    def get_device_alloc(self) -> Any:
        """Device memory of the array's size (allocated once), as PyCUDA's."""
        alloc = self.__dict__.get("dev_alloc")
        if alloc is None:
            array = getattr(self, "array", None)
            if array is None:
                raise TypeError(f"{type(self).__name__}: an ArgumentHandler needs an array "
                                "or its own get_device_alloc()")
            alloc = self.dev_alloc = mem_alloc(max(array.nbytes, 1))
        return alloc

    def pre_call(self, stream: Any) -> None:
        pass

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.array!r})"


class In(_HostArg):
    """A host array copied to a device buffer before the launch (PyCUDA's ``drv.In``)."""
    kind = _lib.ARG_IN


class Out(_HostArg):
    """A host array filled from a device buffer after the launch (``drv.Out``)."""
    kind = _lib.ARG_OUT


class InOut(_HostArg):
    """Copied in before the launch and back after it (``drv.InOut``)."""
    kind = _lib.ARG_INOUT


_SCALAR_KINDS = {
    np.dtype(np.int32): (_lib.ARG_I32, "i32"), np.dtype(np.uint32): (_lib.ARG_U32, "u32"),
    np.dtype(np.int64): (_lib.ARG_I64, "i64"), np.dtype(np.uint64): (_lib.ARG_U64, "u64"),
    np.dtype(np.float32): (_lib.ARG_F32, "f32"), np.dtype(np.float64): (_lib.ARG_F64, "f64"),
}


class _Param:
    __slots__ = ("name", "type", "pointer", "floating", "signed", "size")

    def __init__(self, p: "_lib.check_param"):
        self.name = (p.name or b"").decode()
        self.type = (p.type or b"").decode()
        self.pointer = bool(p.is_pointer)
        self.floating = bool(p.is_float)
        self.signed = bool(p.is_signed)
        self.size = p.size


def _scalar_dtype_for(param: _Param | None, value: Any) -> np.dtype:
    """The type a Python int or float takes for a parameter (PyCUDA asks for NumPy scalars;
    lattice reads the kernel's declaration instead)."""
    if param is not None and param.size:
        if param.floating:
            return np.dtype(np.float32 if param.size == 4 else np.float64)
        if isinstance(value, float):
            raise TypeError(f"a float for the integer parameter '{param.type} {param.name}'")
        return np.dtype(f"{'i' if param.signed else 'u'}{param.size}")
    if isinstance(value, float):
        return np.dtype(np.float64)
    return np.dtype(np.int32 if -2**31 <= value < 2**31 else np.int64)


def _complex_param_dtype(param: _Param | None) -> np.dtype | None:
    """The NumPy type of a complex parameter passed by value (pycuda::complex<float>,
    cuDoubleComplex...: "struct complex" of 8 or 16 bytes as the compiler names it), else
    None."""
    if param is None or param.pointer or "complex" not in param.type.lower():
        return None
    t = param.type.lower()
    size = param.size or (16 if "double" in t else 8 if "float" in t else 0)
    return {8: np.dtype(np.complex64), 16: np.dtype(np.complex128)}.get(size)


def _fill_args(args: Sequence[Any], params: "list[_Param] | None", keep: list,
               post: list, stream: Any = None) -> "ctypes.Array":
    n = len(args)
    out = (_lib.arg * n)()
    for i, a in enumerate(args):
        slot = out[i]
        param = params[i] if params is not None and i < len(params) else None
        if isinstance(a, _HostArg) and a.kind == 0:
            # A library's own ArgumentHandler (reikna's Buffer is one): PyCUDA's protocol.
            a.pre_call(stream)
            slot.kind = _lib.ARG_PTR
            alloc = a.get_device_alloc()
            try:
                slot.value.ptr = _devptr(alloc)
            except TypeError:
                slot.value.ptr = int(alloc)  # PyCUDA takes any int()-able address
            keep.append(a)
            if hasattr(a, "post_call"):
                post.append((a, None))
            continue
        if isinstance(a, _HostArg):
            arr = a.array
            if a.kind != _lib.ARG_IN and not arr.flags.writeable:
                raise ValueError(f"argument {i}: {type(a).__name__}() of a read-only array "
                                 "(the launch would write to it)")
            # A Fortran-ordered array goes as its memory lies, as PyCUDA copies it (the
            # kernel indexes it column by column); a view that is neither order is copied.
            if not (arr.flags.c_contiguous or arr.flags.f_contiguous):
                if a.kind == _lib.ARG_IN:
                    arr = np.ascontiguousarray(arr)
                else:
                    tmp = np.ascontiguousarray(arr)
                    post.append((a.array, tmp))
                    arr = tmp
            keep.append(arr)
            slot.kind = a.kind
            # __array_interface__ is several times cheaper than .ctypes on the hot path.
            slot.value.buffer.data = arr.__array_interface__["data"][0]
            slot.value.buffer.size = arr.nbytes
            continue
        p = getattr(a, "_lattice_ptr_", None)
        if p is not None:
            slot.kind = _lib.ARG_PTR
            slot.value.ptr = p
            continue
        if isinstance(a, (int, float, complex, np.number)) and not isinstance(a, bool):
            cdt = _complex_param_dtype(param)
            if cdt is not None:
                # A number for a complex parameter is that complex number, as PyCUDA's
                # prepared calls (ElementwiseKernel's) pack it: 2, 2.5 or 2+1j for a
                # pycuda::complex<float> a.
                a = np.asarray(a).astype(cdt)[()]
        if isinstance(a, (bool, np.bool_)):
            a = int(a)
        if isinstance(a, np.integer) and param is not None and param.pointer:
            # np.intp(alloc) + offset: PyCUDA's way to pass an address.
            a = int(a)
        if isinstance(a, (int, float)):
            if param is not None and param.pointer:
                if isinstance(a, float):
                    raise TypeError(f"argument {i}: a float for the pointer parameter "
                                    f"'{param.type} {param.name}'")
                slot.kind = _lib.ARG_PTR
                slot.value.ptr = a
                continue
            a = np.array(a, dtype=_scalar_dtype_for(param, a))[()]
        if isinstance(a, np.ndarray):
            # A managed array (lattice.pycuda's managed_empty) goes by its device address,
            # as PyCUDA passes one.
            owner = a.base
            while isinstance(owner, np.ndarray):  # a view of a managed array
                owner = owner.base
            managed = getattr(owner, "_lattice_managed_", None)
            if managed is not None:
                slot.kind = _lib.ARG_PTR
                slot.value.ptr = managed(a)
                keep.append(a)
                continue
            if a.ndim == 0:
                a = a[()]
        if isinstance(a, np.generic):
            if param is not None and param.size and a.dtype.kind in "iu" and \
                    a.dtype.itemsize > param.size and not param.pointer:
                # A wider NumPy integer fills a narrower integer parameter with a value it
                # can hold (np.int64(n) for "int n" works in PyCUDA as a last argument,
                # whose low bytes the kernel reads); one it cannot hold is refused rather
                # than cut to its low bytes.
                bits = 8 * param.size
                lo, hi = (-(1 << (bits - 1)), 1 << (bits - 1)) if param.signed else \
                    (0, 1 << bits)
                if not lo <= int(a) < hi:
                    raise OverflowError(f"argument {i}: {a.dtype} {int(a)} does not fit "
                                        f"the parameter '{param.type} {param.name}'")
                if param.size in (1, 2, 4):
                    a = np.dtype(f"{'i' if param.signed else 'u'}{param.size}").type(int(a))
            kind = _SCALAR_KINDS.get(a.dtype)
            if kind is not None:
                slot.kind = kind[0]
                setattr(slot.value, kind[1], a.item() if kind[0] not in (
                    _lib.ARG_F32,) else float(a))
                continue
            raw = np.ascontiguousarray(np.array(a))
            keep.append(raw)
            slot.kind = _lib.ARG_BYTES
            slot.value.buffer.data = raw.ctypes.data
            slot.value.buffer.size = raw.nbytes
            continue
        cai = getattr(a, "__cuda_array_interface__", None)
        if cai is not None:
            slot.kind = _lib.ARG_PTR
            slot.value.ptr = int(cai["data"][0])
            continue
        if isinstance(a, np.ndarray):
            if param is not None and not param.pointer and param.size and \
                    a.nbytes == param.size and not a.dtype.hasobject:
                # PyCUDA passes an array's bytes by value: a struct parameter of that size.
                raw = np.ascontiguousarray(a)
                keep.append(raw)
                slot.kind = _lib.ARG_BYTES
                slot.value.buffer.data = raw.ctypes.data
                slot.value.buffer.size = raw.nbytes
                continue
            raise TypeError(f"argument {i}: a host array; wrap it in In(), Out() or InOut(), "
                            "or copy it to the device")
        raise TypeError(f"argument {i}: cannot pass {type(a).__name__} to a kernel")
    return out


def _dim3(t: Any, what: str) -> "_lib.dim3":
    if isinstance(t, (int, np.integer)):
        t = (int(t),)
    try:
        # Integers only, as CUDA and PyCUDA take them: a float extent (grid=(n / 256, 1))
        # would be truncated to fewer blocks than meant.
        t = tuple(operator.index(x) for x in t)
    except TypeError:
        raise TypeError(f"{what} {tuple(t)!r}: each extent must be an integer") from None
    if not 1 <= len(t) <= 3:
        raise ValueError(f"{what} must have 1 to 3 dimensions, not {len(t)}")
    for x in t:
        if not 0 <= x < 2**32:
            raise OverflowError(f"{what} {t}: each extent must be in [0, 2**32), not {x}")
    t = t + (1,) * (3 - len(t))
    return _lib.dim3(*t)


# ----------------------------------------------------------------------------------------
# Modules and kernels
# ----------------------------------------------------------------------------------------

# nvcc's options whose value may come as the next word.
_OPTIONS_WITH_VALUE = ("--ptxas-options", "-Xptxas", "-Xcompiler", "--compiler-options",
                       "-Xnvlink", "--linker-options", "-ccbin", "--compiler-bindir",
                       "-gencode", "--generate-code")
# nvcc's options about the host compiler, the machine and the targets to build for, which
# nvcc users pass to PyCUDA's SourceModule: lattice compiles device code only, for the
# context's device (as with SourceModule's arch=/code=), so they are dropped with a note.
_NVCC_HOST_AND_TARGET = ("-ccbin", "--compiler-bindir", "-gencode", "--generate-code")
# Relocatable device code: one module is complete on the emulator, which links nothing.
_EMU_RDC = ("-rdc=true", "--relocatable-device-code=true", "-dc", "--device-c")
# nvcc's C++ relaxations that the emulator's front end always has (constexpr host
# functions and lambdas in device code): dropped there with a note, passed on to NVRTC.
_EMU_IMPLIED_OPTIONS = ("--expt-relaxed-constexpr", "-expt-relaxed-constexpr",
                        "--extended-lambda", "-extended-lambda", "--expt-extended-lambda",
                        "-expt-extended-lambda")


class Module(_Owned):
    """CUDA C source compiled for a context's device (``lat_module_create``).

    ``options``: compiler flags in NVRTC's spelling (``["-use_fast_math"]``); flags that
    only nvcc knows (``--ptxas-options=...``, ``-Xptxas``) are dropped with a note in
    ``log`` so that PyCUDA programs keep working. ``defines``: ``{"N": 4}`` or
    ``["N=4"]``. ``no_extern_c``: compile as written instead of inside ``extern "C"``.
    Its kernels launch one thread when called without ``block=``.
    """

    # PyCUDA's modules (lattice.pycuda) require block=, as PyCUDA does.
    _block_required = False

    def __init__(self, source: str | None = None, *, path: str | None = None,
                 options: Sequence[str] | None = None,
                 defines: "dict[str, Any] | Sequence[str] | None" = None,
                 include_dirs: Sequence[str] | None = None, no_extern_c: bool = False,
                 name: str | None = None, name_expressions: Sequence[str] | None = None,
                 context: Context | None = None):
        self._ctx = get_context(context)
        self._handle = None
        self.dropped_options: list[str] = []
        opts = []
        emu = self._ctx.backend == "emu"
        items = list(options or ())
        while items:
            o = items.pop(0)
            # nvcc's -g/--debug debugs host code, which a module has none of (-G is the
            # device's: docs/debugging.md).
            if o.startswith(("--ptxas-options", "-Xptxas", "--keep", "-keep", "--resource-usage",
                             "-lineinfo", "--generate-line-info", "-Xcompiler",
                             "--compiler-options", "-Xnvlink", "--linker-options")) or \
                    o in ("-g", "--debug") or (emu and o in _EMU_IMPLIED_OPTIONS) or \
                    o.split("=")[0] in _NVCC_HOST_AND_TARGET or o in ("-m64", "--machine=64") or \
                    (emu and o in _EMU_RDC):
                self.dropped_options.append(o)
                # nvcc's two-word forms (-Xptxas -v, -Xcompiler -Wall): the value goes too.
                if o in _OPTIONS_WITH_VALUE and items:
                    self.dropped_options.append(items.pop(0))
            elif o in ("--maxrregcount", "-maxrregcount") and items:
                # A register budget: meaningless on the emulator, NAME=VALUE for NVRTC.
                value = items.pop(0)
                if emu:
                    self.dropped_options += [o, value]
                else:
                    opts.append(f"{o}={value}")
            else:
                opts.append(o)
        if isinstance(defines, dict):
            defines = [k if v is None else f"{k}={v}" for k, v in defines.items()]
        d = _lib.module_desc()
        keep = []
        if source is not None:
            d.source = source.encode()
        if path is not None:
            d.path = str(path).encode()
        if name is not None:
            d.name = name.encode()
        for field, items in (("options", opts), ("defines", defines),
                             ("include_dirs", include_dirs),
                             ("name_expressions", name_expressions)):
            arr, enc = _strlist(items)
            if arr is not None:
                setattr(d, field, ctypes.cast(arr, ctypes.POINTER(ctypes.c_char_p)))
                keep += [arr, enc]
        d.no_extern_c = int(bool(no_extern_c))
        h = c_void_p()
        check(lib.lat_module_create(self._ctx.handle, byref(d), byref(h)), "Module")
        self._handle = h.value
        self._kernels: dict[str, Kernel] = {}

    @classmethod
    def from_image(cls, image: bytes | str, *, context: Context | None = None,
                   name: str | None = None) -> "Module":
        """A module from PTX text or a CUBIN (``lat_module_load``; CUDA only)."""
        self = cls.__new__(cls)
        self._ctx = get_context(context)
        self._handle = None
        self.dropped_options = []
        self._kernels = {}
        data = image.encode() if isinstance(image, str) else bytes(image)
        buf = ctypes.create_string_buffer(data, len(data))
        d = _lib.module_image_desc(ctypes.cast(buf, c_void_p), len(data), None, 0,
                                   name.encode() if name else None)
        h = c_void_p()
        check(lib.lat_module_load(self._ctx.handle, byref(d), byref(h)), "module_from_buffer")
        self._handle = h.value
        return self

    @property
    def handle(self) -> int:
        if self._handle is None or not self._ctx.alive:
            raise LatticeError("the module has been destroyed", -1, "LAT_ERROR_INVALID_VALUE")
        return self._handle

    def _release(self, h: int) -> None:
        lib.lat_module_destroy(h)

    @property
    def log(self) -> str:
        """The compiler's warnings and notes ("" when it said nothing)."""
        text = (lib.lat_module_log(self.handle) or b"").decode(errors="replace")
        if self.dropped_options:
            text += "".join(f"lattice: option {o} ignored (nvcc-only)\n"
                            for o in self.dropped_options)
        return text

    def get_kernel(self, name: str) -> "Kernel":
        """The __global__ function ``name`` (KernelNotFoundError if there is none)."""
        h_mod = self.handle  # raises once the module or its context is gone
        k = self._kernels.get(name)
        if k is None:
            h = c_void_p()
            check(lib.lat_module_get_kernel(h_mod, name.encode(), byref(h)),
                  f"get_function('{name}')")
            k = self._kernels[name] = Kernel(self, h.value)
        return k

    get_function = get_kernel

    def get_global(self, name: str) -> tuple["GlobalPointer", int]:
        """A __device__ or __constant__ variable: (its device address, its size in bytes)."""
        p, n = c_uint64(), c_size_t()
        check(lib.lat_module_get_global(self.handle, name.encode(), byref(p), byref(n)),
              f"get_global('{name}')")
        ptr = DevicePointer(p.value, self)
        ptr._global = name
        return ptr, n.value


class DevicePointer(int):
    """A device address that keeps its owner (a module, an array) alive: a module
    variable's (``get_global``), an array's ``gpudata``."""

    def __new__(cls, value: int, owner: Any):
        self = super().__new__(cls, value)
        self._ctx = owner._ctx
        self._owner = owner
        self._global = None  # a module variable's name: copies go through the module
        return self

    @property
    def _lattice_ptr_(self) -> int:
        return int(self)


class Kernel:
    """A __global__ function of a module. Call it with the kernel's arguments and
    ``block=(x, y, z)``, ``grid=(x, y, z)`` (default (1,)), ``shared=bytes``,
    ``stream=Stream``; ``time_kernel=True`` returns the launch's seconds (PyCUDA).

    Arguments: NumPy scalars (their type), Python ints and floats (converted to the
    parameter's declared type), device memory (DeviceAllocation, Array, GPUArray, any
    ``__cuda_array_interface__``, or an int address for a pointer), and In/Out/InOut
    wrapping host arrays.
    """

    def __init__(self, module: Module, handle: int):
        self.module = module
        self._handle = handle
        self.name: str = lib.lat_kernel_name(handle).decode()
        self.param_count: int = lib.lat_kernel_param_count(handle)
        params: list[_Param] | None = []
        for i in range(max(self.param_count, 0)):
            p = _lib.check_param()
            if lib.lat_check_kernel_param(handle, i, byref(p)) != 0:
                params = None
                break
            params.append(_Param(p))
        self.params = params
        self._desc = _lib.launch_desc()
        self._dims: dict = {}  # (grid, block) tuples -> dim3s, for repeated calls

    @property
    def handle(self) -> int:
        self.module.handle  # raises once the module or context is gone
        return self._handle

    def __call__(self, *args: Any, block: Any = None, grid: Any = (1, 1, 1),
                 shared: int = 0, stream: Stream | None = None, time_kernel: bool = False,
                 cooperative: bool = False, texrefs: Any = None) -> float | None:
        if block is None:
            # A PyCUDA program that forgot block= gets PyCUDA's error, not a launch of one
            # thread that computes part of the answer without a word.
            if self.module._block_required:
                raise ValueError("must specify block size")
            block = (1, 1, 1)
        if texrefs:
            _refuse_texrefs(texrefs)
        if stream is not None and not isinstance(stream, Stream):
            raise TypeError(f"stream: a {type(stream).__name__}, not a Stream")
        h = self.handle
        if len(args) > self.param_count >= 0 and self.module._block_required:
            args = _drop_extra_args(self, args)
        keep: list = []
        post: list = []
        argv = _fill_args(args, self.params, keep, post, stream)
        d = self._desc
        dims = self._dims.get((grid, block)) if type(grid) is tuple and \
            type(block) is tuple else None
        if dims is None:
            dims = (_dim3(grid, "grid"), _dim3(block, "block"))
            if type(grid) is tuple and type(block) is tuple and len(self._dims) < 64:
                self._dims[(grid, block)] = dims
        d.grid, d.block = dims
        shared = operator.index(shared)
        if not 0 <= shared < 2**32:
            raise OverflowError(f"shared: {shared} bytes is outside [0, 2**32)")
        d.shared_bytes = shared
        d.stream = None if stream is None else stream.handle
        d.cooperative = int(cooperative)
        if time_kernel:
            start, end = Event(context=self.module._ctx), Event(context=self.module._ctx)
            start.record(stream)
        st = lib.lat_launch_args(h, byref(d), len(args), argv)
        if st != 0 or _errors._interrupted:
            check(st, f"launch of '{self.name}'")
        for orig, tmp in post:
            if tmp is None:
                orig.post_call(stream)
            else:
                orig[...] = tmp
        if time_kernel:
            end.record(stream)
            end.synchronize()
            return end.time_since(start) * 1e-3
        return None

    prepared_call = None  # set below

    def resources(self) -> dict[str, int]:
        """Registers, shared/local/constant bytes... (``lat_kernel_get_resources``)."""
        r = _lib.kernel_resources()
        check(lib.lat_kernel_get_resources(self.handle, byref(r)), "resources")
        return {n: getattr(r, n) for n, _ in r._fields_}

    @property
    def execution_path(self) -> str:
        """How the kernel's threads run and why (``lat_kernel_describe``): on the emulator,
        e.g. "region loops, optimised" or "fibers: recursion through a function with
        collectives at k.cu:7, TinyCC"."""
        buf = ctypes.create_string_buffer(512)
        lib.lat_kernel_describe(self.handle, buf, len(buf))
        return buf.value.decode(errors="replace")

    def get_attribute(self, name: str) -> int:
        r = self.resources()
        key = {"NUM_REGS": "registers", "SHARED_SIZE_BYTES": "static_shared_bytes",
               "LOCAL_SIZE_BYTES": "local_bytes", "CONST_SIZE_BYTES": "const_bytes",
               "MAX_THREADS_PER_BLOCK": "max_threads_per_block",
               "PTX_VERSION": "ptx_version", "BINARY_VERSION": "binary_version"}
        name = getattr(name, "name", name)  # a function_attribute member
        if not isinstance(name, str):
            raise TypeError(f"get_attribute: {name!r} is not an attribute name or a "
                            "function_attribute member")
        k = key.get(name.upper().split(".")[-1], name.lower())
        if k not in r:
            raise LatticeError(f"get_attribute: unknown kernel attribute '{name}' (one of "
                               f"{', '.join(key)})", -1, "LAT_ERROR_INVALID_VALUE")
        return r[k]

    def __repr__(self) -> str:
        return f"<lattice.Kernel {self.name}({self.param_count} parameters)>"


class _Pointer:
    """An address given to a prepared "P" parameter."""

    __slots__ = ("_lattice_ptr_",)

    def __init__(self, value: int):
        self._lattice_ptr_ = value


def _as_pointer(value: Any, i: int) -> Any:
    if getattr(value, "_lattice_ptr_", None) is not None:
        return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return _Pointer(int(value))
    cai = getattr(value, "__cuda_array_interface__", None)
    if cai is not None:
        return _Pointer(int(cai["data"][0]))
    gpudata = getattr(value, "gpudata", None)
    if gpudata is not None:
        return _as_pointer(gpudata, i)
    if hasattr(type(value), "__int__") and not isinstance(value, (float, np.floating)):
        # PyCUDA packs a 'P' argument with int(): a library's pointer holder with __int__.
        return _Pointer(int(value))
    raise TypeError(f"argument {i}: {type(value).__name__} is not an address for the "
                    "prepared pointer parameter 'P'")


def _as_bytes(value: Any, n: int, i: int) -> np.void:
    if isinstance(value, np.ndarray):
        raw = value.tobytes()
    elif isinstance(value, np.generic):
        raw = np.array(value).tobytes()
    else:
        raw = bytes(value)
    if len(raw) != n:
        raise ValueError(f"argument {i}: {len(raw)} bytes for a prepared {n}-byte parameter")
    return np.frombuffer(raw, dtype=f"V{n}")[0]


def _format_of(arg_types: Any) -> list[str]:
    """PyCUDA's prepared argument types as one struct code per parameter: a struct format
    string ("PiP", "16s"), or a list of NumPy types, dtypes, codes and anything else
    (a pointer)."""
    codes: list[str] = []
    if isinstance(arg_types, str):
        spec = arg_types.replace(" ", "").lstrip("@=<>!")
        pos = 0
        for m in re.finditer(r"(\d*)([A-Za-z?])", spec):
            count, code = m.group(1), {"n": "q", "N": "Q"}.get(m.group(2), m.group(2))
            if m.start() != pos or code not in "bBhHiIlLqQefdFD?Ps":
                break
            pos = m.end()
            if code == "s":
                codes.append(f"{int(count or 1)}s")
            else:
                codes += [code] * int(count or 1)
        if pos != len(spec):
            raise ValueError(f"prepare({arg_types!r}): not a struct format of kernel "
                             "parameters (codes bBhHiIlLqQefdFD?P and Ns; F and D are "
                             "complex64 and complex128, as in PyCUDA)")
        return codes
    for t in arg_types:
        if isinstance(t, type) and issubclass(t, np.generic):
            t = np.dtype(t)
        if isinstance(t, np.dtype):
            codes.append(f"{t.itemsize}s" if t.char == "V" else t.char)
        elif isinstance(t, str):
            codes += _format_of(t)
        else:
            codes.append("P")
    return codes


def _drop_extra_args(k: "Kernel", args: Sequence[Any]) -> Sequence[Any]:
    """PyCUDA's launch packs every argument into CUDA's parameter buffer, and CUDA reads
    the kernel's parameters from its start, ignoring the bytes past them: programs that
    pass one argument too many run on PyCUDA (a course's convolution passes its tile size
    to a kernel without that parameter). The same here, for PyCUDA's modules, with a
    warning; too few arguments stay an error (CUDA would read garbage)."""
    import warnings
    n = k.param_count
    warnings.warn(f"kernel '{k.name}' takes {n} argument{'' if n == 1 else 's'}, "
                  f"{len(args)} given: the last {len(args) - n} ignored, as CUDA ignores "
                  "the parameter bytes past the kernel's parameters", UserWarning,
                  stacklevel=3)
    return args[:n]


def _prepared_args(self: "Kernel", args: Sequence[Any]) -> list[Any]:
    fmt = getattr(self, "_arg_format", None)
    if fmt is None:
        raise LatticeError(f"'{self.name}': prepared_call before prepare(arg_types)", -1,
                           "LAT_ERROR_INVALID_VALUE")
    if len(args) != len(fmt):
        raise TypeError(f"'{self.name}' was prepared with {len(fmt)} arguments "
                        f"({''.join(fmt)}), called with {len(args)}")
    out = []
    for i, (code, a) in enumerate(zip(fmt, args)):
        if code == "P":
            out.append(_as_pointer(a, i))
        elif code.endswith("s"):
            out.append(_as_bytes(a, int(code[:-1]), i))
        else:
            dt = np.dtype(code)
            if isinstance(a, (int, float, bool, np.generic)) or np.ndim(a) == 0:
                if dt.kind in "iub" and isinstance(a, (float, np.floating)):
                    raise TypeError(f"argument {i}: a float for the prepared integer "
                                    f"parameter '{code}'")
                if dt.kind != "c" and isinstance(a, (complex, np.complexfloating)):
                    raise TypeError(f"argument {i}: a complex number for the prepared "
                                    f"real parameter '{code}'")
                v = np.asarray(a)
                if dt.kind in "iu" and v.dtype.kind in "iu" and not (
                        np.iinfo(dt).min <= int(v) <= np.iinfo(dt).max):
                    raise OverflowError(f"argument {i}: {int(v)} does not fit the prepared "
                                        f"parameter '{code}' ({dt})")
                out.append(v.astype(dt)[()])
            else:
                raise TypeError(f"argument {i}: {type(a).__name__} for the prepared scalar "
                                f"parameter '{code}'")
    return out


def _block_of(block: Any, what: str) -> Any:
    if not isinstance(block, (tuple, list)):
        raise TypeError(f"{what}(grid, block, ...): block must be a tuple such as (256, 1, 1) "
                        "(the pre-2011 form without a block is not supported)")
    return tuple(block)


def _prepare(self: Kernel, arg_types: Any, texrefs: Any = None, block: Any = None,
             shared: Any = None) -> Kernel:
    """PyCUDA's prepare: the parameters' types (a struct format such as "PiP", or a list
    of NumPy types/dtypes; anything else is a pointer). Returns the kernel."""
    _refuse_texrefs(texrefs)
    if block is not None or shared is not None:
        raise TypeError("prepare(block=, shared=) is PyCUDA's pre-2011 interface; give the "
                        "block and shared size to prepared_call")
    self._arg_format = _format_of(arg_types)
    self.arg_format = "".join(self._arg_format)  # PyCUDA's attribute: the struct format
    return self


def _prepared_call(self: Kernel, grid: Any, block: Any, *args: Any,
                   shared_size: int = 0) -> None:
    """Launches with the prepared types (PyCUDA's prepared_call)."""
    self(*_prepared_args(self, args), grid=grid, block=_block_of(block, "prepared_call"),
         shared=shared_size)


def _prepared_async_call(self: Kernel, grid: Any, block: Any, stream: "Stream | None",
                         *args: Any, shared_size: int = 0) -> None:
    """prepared_call on a stream (None: the default stream)."""
    self(*_prepared_args(self, args), grid=grid, block=_block_of(block, "prepared_async_call"),
         shared=shared_size, stream=stream)


def _prepared_timed_call(self: Kernel, grid: Any, block: Any, *args: Any,
                         shared_size: int = 0):
    """prepared_call between two events; returns a function giving the seconds."""
    ctx = self.module._ctx
    start, end = Event(context=ctx), Event(context=ctx)
    start.record()
    self(*_prepared_args(self, args), grid=grid, block=_block_of(block, "prepared_timed_call"),
         shared=shared_size)
    end.record()

    def get_call_time() -> float:
        end.synchronize()
        return end.time_since(start) * 1e-3
    return get_call_time


def _refuse_texrefs(texrefs: Any) -> None:
    if texrefs:
        raise NotImplementedError("texture references were removed in CUDA 12 and lattice "
                                  "does not have them: use texture objects "
                                  "(include/lattice/texture.h)")


Kernel.prepare = _prepare  # type: ignore[attr-defined]
Kernel.prepared_call = _prepared_call  # type: ignore[assignment]
Kernel.prepared_async_call = _prepared_async_call  # type: ignore[attr-defined]
Kernel.prepared_timed_call = _prepared_timed_call  # type: ignore[attr-defined]
