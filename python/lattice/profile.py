"""The emulator's profile: what a GPU's memory system would count for a launch, per
source line (``include/lattice/profile.h``, docs/profiling.md).

    ctx = lattice.Context("emu", check="profile")   # or LATTICE_PROFILE=1
    ...launch...
    p = lattice.profile.last(ctx)
    p["global", "load"]["sectors_per_request"]    # totals, like a dict
    p.rows[0]                                        # the costliest line, a dict
    p                                                # in a notebook: a table and a chart
"""

from __future__ import annotations

import ctypes
import html
from ctypes import POINTER, Structure, byref, c_char_p, c_double, c_int, c_size_t, c_ulonglong, c_void_p
from typing import Any, Iterator

from . import _lib
from ._lib import lib
from .core import Context, get_context
from .errors import check as _check

__all__ = ["PROFILE", "Profile", "last", "enabled"]

PROFILE = 1 << 4  # LAT_CHECK_PROFILE: Context(check=lattice.profile.PROFILE)
SPACES = ("global", "shared")
OPS = ("load", "store", "atomic", "branch")

_U6 = c_ulonglong * 3 * 2


class _row(Structure):
    _fields_ = [("file", c_char_p), ("line", c_int), ("expr", c_char_p), ("space", c_int),
                ("op", c_int), ("requests", c_ulonglong), ("transactions", c_ulonglong),
                ("ideal", c_ulonglong), ("lanes", c_ulonglong)]


class _summary(Structure):
    _fields_ = [("kernel", c_char_p), ("grid", _lib.dim3), ("block", _lib.dim3),
                ("requests", _U6), ("transactions", _U6), ("ideal", _U6), ("lanes", _U6),
                ("barriers", c_ulonglong), ("branches", c_ulonglong),
                ("divergent_branches", c_ulonglong), ("branch_lanes", c_ulonglong), ("warps", c_ulonglong), ("shared_bytes", c_size_t),
                ("occupancy", c_double), ("occupancy_limit", c_char_p)]


for _name, _res, _args in [
        ("lat_profile_get", c_int, [c_void_p, POINTER(c_void_p)]),
        ("lat_profile_free", None, [c_void_p]),
        ("lat_profile_summary_get", POINTER(_summary), [c_void_p]),
        ("lat_profile_row_count", c_size_t, [c_void_p]),
        ("lat_profile_row_at", POINTER(_row), [c_void_p, c_size_t]),
        ("lat_profile_format", c_void_p, [c_void_p, c_char_p]),
        ("lat_profile_enabled", c_int, [c_void_p])]:
    _fn = getattr(lib, _name)
    _fn.restype = _res
    _fn.argtypes = _args


def _counts(requests: int, transactions: int, ideal: int, lanes: int) -> dict[str, Any]:
    r = max(requests, 1)
    return {"requests": requests, "transactions": transactions, "ideal": ideal,
            "excess": max(transactions - ideal, 0), "lanes": lanes,
            "per_request": transactions / r, "ideal_per_request": ideal / r,
            "active_lanes": lanes / r}


class Profile:
    """One launch's profile. Indexing by ``(space, op)`` ("global"/"shared",
    "load"/"store"/"atomic") gives that kind's totals as a dict (``requests``,
    ``transactions``: sectors or wavefronts, ``ideal``, ``excess``, ``per_request``,
    ``active_lanes``); ``rows`` is a list of dicts, one a source line's access, costliest
    first; ``str()`` is lattice's table; a notebook shows a table and a chart."""

    def __init__(self, handle: int, source: str | None = None):
        s = lib.lat_profile_summary_get(handle).contents
        self.kernel = s.kernel.decode()
        self.grid = (s.grid.x, s.grid.y, s.grid.z)
        self.block = (s.block.x, s.block.y, s.block.z)
        self.warps, self.barriers = s.warps, s.barriers
        self.branches, self.divergent_branches = s.branches, s.divergent_branches
        self.shared_bytes = s.shared_bytes
        self.occupancy, self.occupancy_limit = s.occupancy, s.occupancy_limit.decode()
        self.totals = {(SPACES[sp], OPS[op]): _counts(s.requests[sp][op], s.transactions[sp][op],
                                                      s.ideal[sp][op], s.lanes[sp][op])
                       for sp in range(2) for op in range(3) if s.requests[sp][op]}
        self.rows: list[dict[str, Any]] = []
        for i in range(lib.lat_profile_row_count(handle)):
            r = lib.lat_profile_row_at(handle, i).contents
            row = {"file": r.file.decode(), "line": r.line, "expr": r.expr.decode(),
                   "space": SPACES[r.space], "op": OPS[r.op]}
            row.update(_counts(r.requests, r.transactions, r.ideal, r.lanes))
            self.rows.append(row)
        text = lib.lat_profile_format(handle, source.encode() if source else None)
        try:
            self._text = ctypes.string_at(text).decode() if text else ""
        finally:
            _lib.libc_free(text)

    def __getitem__(self, key: tuple[str, str]) -> dict[str, Any]:
        return self.totals.get(key) or _counts(0, 0, 0, 0)

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self.totals)

    def __len__(self) -> int:
        return len(self.totals)

    def keys(self):
        return self.totals.keys()

    def items(self):
        return self.totals.items()

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"<lattice.profile.Profile of {self.kernel}: {len(self.rows)} rows>"

    def svg(self) -> str:
        """A bar a row: transactions per request against the ideal (the grey tick), red as
        the excess grows."""
        rows = self.rows[:20]
        w, bar, h = 640, 18, 24
        top = 30
        most = max([r["per_request"] for r in rows] + [1.0])
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{top + h * len(rows) + 10}" '
               f'font-family="monospace" font-size="11">',
               f'<text x="4" y="16">{html.escape(self.kernel)}: sectors (global) or wavefronts (shared) '
               f'a request; tick: ideal</text>']
        for i, r in enumerate(rows):
            y = top + i * h
            frac = r["per_request"] / most
            bad = min(1.0, r["excess"] / max(r["transactions"], 1))
            colour = f"rgb({int(80 + 175 * bad)},{int(170 - 120 * bad)},{int(90 - 40 * bad)})"
            label = f'{r["line"]:>4} {r["space"][0]}{r["op"][0]} {r["expr"][:28]}'
            out.append(f'<text x="4" y="{y + 13}">{html.escape(label)}</text>')
            out.append(f'<rect x="260" y="{y}" width="{max(frac * 300, 1):.1f}" height="{bar}" fill="{colour}"/>')
            ix = 260 + r["ideal_per_request"] / most * 300
            out.append(f'<line x1="{ix:.1f}" y1="{y - 2}" x2="{ix:.1f}" y2="{y + bar + 2}" stroke="#444"/>')
            out.append(f'<text x="{265 + frac * 300:.1f}" y="{y + 13}">{r["per_request"]:.2f}</text>')
        out.append("</svg>")
        return "\n".join(out)

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_html_(self) -> str:
        head = ("<tr><th>line</th><th>space</th><th>op</th><th>requests</th><th>per request</th>"
                "<th>ideal</th><th>active lanes</th><th>access</th></tr>")
        body = "".join(
            f'<tr><td>{r["line"]}</td><td>{r["space"]}</td><td>{r["op"]}</td><td>{r["requests"]}</td>'
            f'<td>{r["per_request"]:.2f}</td><td>{r["ideal_per_request"]:.2f}</td>'
            f'<td>{r["active_lanes"]:.1f}</td><td><code>{html.escape(r["expr"])}</code></td></tr>'
            for r in self.rows)
        return (f"<p>{html.escape(self.kernel)} &lt;&lt;&lt;{self.grid}, {self.block}&gt;&gt;&gt;: "
                f"theoretical occupancy {self.occupancy:.0%} ({html.escape(self.occupancy_limit)})</p>"
                f"<table>{head}{body}</table>{self.svg()}")


def enabled(ctx: Context | None = None) -> bool:
    """Whether the context profiles its launches."""
    return bool(lib.lat_profile_enabled(get_context(ctx).handle))


def last(ctx: Context | None = None, source: str | None = None) -> Profile:
    """The profile of the context's last launch (``source``: the kernel's text, shown
    beside each row of ``str()``). Raises LatticeError when the context does not profile
    or has launched nothing yet."""
    h = c_void_p()
    _check(lib.lat_profile_get(get_context(ctx).handle, byref(h)), "profile.last")
    try:
        return Profile(h.value, source)
    finally:
        lib.lat_profile_free(h.value)
