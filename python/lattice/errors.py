"""lattice's exceptions: one class per status of the C library, under LatticeError.

Every failing call raises the class of its status; the exception carries the status
name (``.status``, e.g. ``"LAT_ERROR_COMPILE"``), its value (``.code``) and the
library's detailed message (``.message``, the text of ``lat_last_error()``)::

    try:
        lattice.Module("__global__ void k( {")
    except lattice.CompileError as e:
        print(e.status, e.message)

Decide by the class or by ``.status``, never by parsing the text.
"""

from __future__ import annotations

from ._lib import lib

__all__ = ["LatticeError", "RequestError", "check", "error_class"]


class LatticeError(Exception):
    """A lattice call failed. ``status`` is the status name, ``code`` its value,
    ``message`` the detail the library gave (``lat_last_error()``)."""

    status: str = "LAT_ERROR"
    code: int = 0

    def __init__(self, message: str, code: int | None = None, status: str | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status

    def __str__(self) -> str:
        return f"{self.status}: {self.message}"


class RequestError(LatticeError):
    """The call asked for something invalid: a value, device, address, kernel name, launch
    configuration or shared-memory size out of range (the statuses PyCUDA reports as
    ``LogicError``, which is this class in ``lattice.pycuda.driver``)."""


_REQUEST_STATUSES = ("ERROR_INVALID_VALUE", "ERROR_INVALID_DEVICE", "ERROR_INVALID_ADDRESS",
                     "ERROR_KERNEL_NOT_FOUND", "ERROR_INVALID_DIMENSIONS",
                     "ERROR_SHARED_MEMORY")

_by_code: dict[int, type[LatticeError]] = {}

# Where a Python built-in exception means the same, the class derives from it too, so
# `except MemoryError` and `except ValueError` catch lattice's.
_builtin_base = {
    "ERROR_INVALID_VALUE": ValueError,
    "ERROR_OUT_OF_MEMORY": MemoryError,
    "ERROR_OUT_OF_DEVICE_MEMORY": MemoryError,
    "ERROR_OVERFLOW": OverflowError,
    "ERROR_FILE": OSError,
    "ERROR_KERNEL_NOT_FOUND": LookupError,
    "ERROR_ARG_COUNT": TypeError,
    "ERROR_ARG_TYPE": TypeError,
    "ERROR_UNSUPPORTED": NotImplementedError,
    # lat_interrupt() (lattice.core.interrupt); Ctrl-C raises KeyboardInterrupt instead
    "ERROR_INTERRUPTED": InterruptedError,
}


def _class_name(name: str) -> str:
    # "ERROR_OUT_OF_DEVICE_MEMORY" -> "OutOfDeviceMemoryError"
    words = name[len("ERROR_"):].split("_")
    return "".join(w.capitalize() for w in words) + "Error"


for _code in range(-1, -64, -1):
    _full = lib.lat_status_name(_code).decode()
    if _full == "LAT_UNKNOWN_STATUS":
        break
    _short = _full[len("LAT_"):]
    _bases: tuple[type, ...] = (RequestError if _short in _REQUEST_STATUSES else LatticeError,)
    if _short in _builtin_base:
        _bases += (_builtin_base[_short],)
    _cls = type(_class_name(_short), _bases, {
        "status": _full, "code": _code,
        "__doc__": lib.lat_status_string(_code).decode().capitalize() + f" ({_full}).",
        "__module__": __name__})
    _by_code[_code] = _cls
    globals()[_cls.__name__] = _cls
    __all__.append(_cls.__name__)


def error_class(code: int) -> type[LatticeError]:
    """The exception class of a status value (LatticeError for an unknown one)."""
    return _by_code.get(code, LatticeError)


def raise_status(code: int, what: str = "") -> None:
    """Raises the exception of a failing status, with lat_last_error()'s text."""
    text = (lib.lat_last_error() or b"").decode(errors="replace")
    if not text:
        text = lib.lat_status_string(code).decode()
    if what and not text.startswith("lat_") and what not in text:
        text = f"{what}: {text}"
    cls = _by_code.get(code)
    if cls is None:
        raise LatticeError(text, code, lib.lat_status_name(code).decode())
    raise cls(text)


_interrupted = False


def interrupt_pending() -> None:
    """Notes a KeyboardInterrupt that arrived inside a callback from C (ctypes cannot
    propagate it): the next check() raises it."""
    global _interrupted
    _interrupted = True


def check(code: int, what: str = "") -> None:
    """Raises unless code is LAT_OK (0); a Ctrl-C that arrived during the call is raised
    as KeyboardInterrupt first."""
    global _interrupted
    if _interrupted:
        _interrupted = False
        raise KeyboardInterrupt
    if code != 0:
        raise_status(code, what)
