"""Elementwise math on device arrays (PyCUDA's cumath): each function runs one generated
kernel. float32 stays float32; float64 and integer arrays give float64."""

from __future__ import annotations

from typing import Any

from .array import Array

_UNARY = ["fabs", "ceil", "floor", "trunc", "round", "rint", "exp", "exp2", "expm1", "log",
          "log2", "log10", "log1p", "sqrt", "rsqrt", "cbrt", "sin", "cos", "tan", "asin",
          "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc"]
_FIRST_UNARY = 70  # LAT_OP_FABS
_BINARY = {"atan2": 8, "hypot": 9, "copysign": 10, "ldexp": 11, "fmin": 6, "fmax": 7,
           "minimum": 6, "maximum": 7, "fmod": 4, "pow": 5}

__all__ = _UNARY + list(_BINARY) + ["isnan", "isinf", "isfinite", "logical_not",
                                     "logical_and", "logical_or"]


def _make_unary(name: str, op: int):
    def f(a: Array, out: Array | None = None, stream: Any = None) -> Array:
        return a._unary(op, out)
    f.__name__ = name
    f.__doc__ = f"{name}(a) elementwise, on the device."
    return f


def _make_binary(name: str, op: int):
    def f(a: Any, b: Any, out: Array | None = None, stream: Any = None) -> Array:
        ref = a if isinstance(a, Array) else b
        return ref._binary(op, a, b, out)
    f.__name__ = name
    f.__doc__ = f"{name}(a, b) elementwise, on the device."
    return f


for _i, _n in enumerate(_UNARY):
    globals()[_n] = _make_unary(_n, _FIRST_UNARY + _i)
for _n, _op in _BINARY.items():
    globals()[_n] = _make_binary(_n, _op)
logical_not = _make_unary("logical_not", 66)
isnan = _make_unary("isnan", 67)
isinf = _make_unary("isinf", 68)
isfinite = _make_unary("isfinite", 69)
logical_and = _make_binary("logical_and", 18)
logical_or = _make_binary("logical_or", 19)
abs = fabs  # noqa: A001  (lattice.math.abs, as cumath has fabs)
