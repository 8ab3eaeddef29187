"""The emulator's checks (memcheck, racecheck, synccheck, initcheck), its schedules, and
thread maps (``include/lattice/check.h``).

    ctx = lattice.Context("emu", check="all")
    ...launches...
    for r in lattice.check.reports(ctx): print(r.message)

    m = lattice.check.ThreadMap(ctx, out_alloc, elem_size=4)   # before the launch
    ...launch...
    m.get()          # in a notebook the map displays inline as SVG
"""

from __future__ import annotations

import ctypes
from ctypes import byref, c_uint, c_void_p
from dataclasses import dataclass
from typing import Any

from . import _lib
from ._lib import lib
from .core import Context, _devptr, get_context
from .errors import check as _check

__all__ = ["modes", "configure", "reports", "clear", "leaks", "Report", "ThreadMap", "Map",
           "label", "last_seed"]

_ORDERS = {"forward": 0, "reverse": 1, "random": 2}


def modes(ctx: Context | None = None) -> set[str]:
    """The checks a context runs: a subset of {"memcheck", "racecheck", "synccheck",
    "initcheck"}."""
    bits = c_uint()
    _check(lib.lat_check_modes(get_context(ctx).handle, byref(bits)), "check.modes")
    names = ["memcheck", "racecheck", "synccheck", "initcheck"]
    return {n for i, n in enumerate(names) if bits.value & (1 << i)}


def configure(ctx: Context | None = None, *, order: str = "forward", seed: int = 0,
              preempt: bool = False, timeout_s: float = 0.0, max_reports: int = 0) -> None:
    """The schedule of a checked context's threads: ``order`` "forward", "reverse" or
    "random" (from ``seed``; 0: a fresh seed, see last_seed()), ``preempt`` to switch
    threads between memory accesses, a hang ``timeout_s``, and ``max_reports``."""
    o = _lib.check_options(_ORDERS[order], seed, int(preempt), timeout_s, max_reports)
    _check(lib.lat_check_configure(get_context(ctx).handle, byref(o)), "check.configure")


def last_seed(ctx: Context | None = None) -> int:
    return lib.lat_check_last_seed(get_context(ctx).handle)


@dataclass
class Report:
    """One finding of the checks."""
    kind: str
    kernel: str
    message: str
    file: str
    line: int
    expr: str
    block: tuple[int, int, int]
    thread: tuple[int, int, int]
    region: str
    count: int

    def __str__(self) -> str:
        return self.message


def _d3(d: "_lib.dim3") -> tuple[int, int, int]:
    return (d.x, d.y, d.z)


def reports(ctx: Context | None = None) -> list[Report]:
    """The findings of the context's checked launches so far."""
    h = get_context(ctx).handle
    out = []
    for i in range(lib.lat_check_report_count(h)):
        r = lib.lat_check_report_get(h, i).contents
        s = lambda b: (b or b"").decode(errors="replace")  # noqa: E731
        out.append(Report(s(lib.lat_check_kind_name(r.kind)), s(r.kernel), s(r.message),
                          s(r.access.file), r.access.line, s(r.access.expr),
                          _d3(r.access.block), _d3(r.access.thread), s(r.region_name),
                          r.count))
    return out


def clear(ctx: Context | None = None) -> None:
    _check(lib.lat_check_clear(get_context(ctx).handle), "check.clear")


def leaks(ctx: Context | None = None) -> None:
    """Reports the allocations still live (as findings of kind leak)."""
    _check(lib.lat_check_leaks(get_context(ctx).handle), "check.leaks")


def label(buf: Any, name: str | None, ctx: Context | None = None) -> None:
    """Names an allocation in reports."""
    ctx = ctx or getattr(buf, "_ctx", None) or get_context(None)
    _check(lib.lat_check_label(ctx.handle, _devptr(buf), name.encode() if name else None),
           "check.label")


class Map:
    """Who last wrote (and read) each element of a buffer in a checked launch. Displays
    as SVG in a notebook (``_repr_svg_``); ``str()`` is a text table; ``writers`` and
    ``readers`` are (block, thread) lists."""

    def __init__(self, cmap: "_lib.check_map", columns: int = 0, show_reads: bool = False,
                 title: str | None = None):
        self._map = cmap
        self.kernel = (cmap.kernel or b"").decode()
        self.grid, self.block = _d3(cmap.grid), _d3(cmap.block)
        cells = [cmap.cells[i] for i in range(cmap.count)]
        self.writers = [(c.write_block, c.write_thread) for c in cells]
        self.readers = [(c.read_block, c.read_thread) for c in cells]
        self.writes = [c.writes for c in cells]
        self.reads = [c.reads for c in cells]
        self._style = _lib.check_map_style(columns, int(show_reads),
                                           title.encode() if title else None)
        self._svg = self._render(lib.lat_check_map_svg)
        self._text = self._render(lib.lat_check_map_text)

    def _render(self, fn) -> str:
        p = c_void_p()
        _check(fn(byref(self._map), byref(self._style), byref(p)), "check map")
        try:
            return ctypes.string_at(p.value).decode()
        finally:
            _lib.libc_free(p.value)

    def svg(self) -> str:
        return self._svg

    def _repr_svg_(self) -> str:
        return self._svg

    def __str__(self) -> str:
        return self._text


class ThreadMap:
    """Asks a checked context to record who touches each ``elem_size``-byte element of a
    device allocation (or array); ``get()`` returns the Map of the latest launch."""

    def __init__(self, buf: Any, elem_size: int | None = None, ctx: Context | None = None):
        self._ctx = ctx or getattr(buf, "_ctx", None) or get_context(None)
        self._buf = buf
        self.ptr = _devptr(buf)
        if elem_size is None:
            elem_size = getattr(getattr(buf, "dtype", None), "itemsize", 4)
        _check(lib.lat_check_map_buffer(self._ctx.handle, self.ptr, elem_size), "ThreadMap")

    def get(self, columns: int = 0, show_reads: bool = False, title: str | None = None) -> Map:
        m = _lib.check_map()
        _check(lib.lat_check_map_get(self._ctx.handle, self.ptr, byref(m)), "ThreadMap.get")
        return Map(m, columns, show_reads, title)
