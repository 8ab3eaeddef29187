"""PyCUDA's ``pycuda.cumath``: elementwise math functions of GPUArrays.

Every function is ``f(array, out=None, stream=None)``; a second positional argument is
taken as ``out`` when it is a GPUArray and as ``stream`` when it is a Stream (anything
else is refused). Result types are NumPy's (``cumath.sin`` of an int32 array is float64,
as ``numpy.sin`` gives); what NumPy refuses (``fabs`` of a complex array) is refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import core as _core
from . import _kernels as _k
from ._kernels import Code, ctype, launch
from .gpuarray import GPUArray

__all__ = ["fabs", "ceil", "floor", "exp", "log", "log10", "sqrt", "sin", "cos", "tan",
           "asin", "acos", "atan", "sinh", "cosh", "tanh", "fmod", "ldexp", "modf",
           "frexp"]

_NUMPY = {"asin": "arcsin", "acos": "arccos", "atan": "arctan"}
_COMPLEX = {"exp", "log", "log10", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh"}


def _out_stream(fname: str, args: tuple, kwargs: dict, nout: int = 1) -> tuple:
    out = kwargs.pop("out", None)
    stream = kwargs.pop("stream", None)
    if kwargs:
        raise TypeError(f"cumath.{fname}: unknown keyword arguments {sorted(kwargs)}")
    for a in args:
        if isinstance(a, GPUArray) and nout == 1 and out is None:
            out = a
        elif isinstance(a, _core.Stream) and stream is None:
            stream = a
        elif a is not None:
            raise TypeError(f"cumath.{fname}: a positional argument after the array must be "
                            f"the output GPUArray or a Stream, not {type(a).__name__}")
    return out, stream


def _result_dtype(npname: str, *dts: np.dtype) -> np.dtype:
    """The dtype NumPy's function gives for these input types (refusing what it refuses)."""
    with np.errstate(all="ignore"):
        r = getattr(np, npname)(*(np.ones(1, dt) for dt in dts))
    dt = (r[0] if isinstance(r, tuple) else r).dtype
    return _k.check_dtype(dt)


def _unary(name: str):
    npname = _NUMPY.get(name, name)

    def f(array: GPUArray, *args: Any, **kwargs: Any) -> GPUArray:
        out, _ = _out_stream(name, args, kwargs)
        if not isinstance(array, GPUArray):
            raise TypeError(f"cumath.{name}: the argument must be a GPUArray")
        rt = _result_dtype(npname, array.dtype)
        if out is None:
            out = array._like(rt)
        elif out.shape != array.shape:
            raise ValueError(f"cumath.{name}: out has shape {out.shape}, the array "
                             f"{array.shape}")
        code = Code()
        if rt.kind == "c":
            if name not in _COMPLEX:
                raise NotImplementedError(f"cumath.{name} of complex numbers is not "
                                          "supported by lattice")
            code.need_complex(rt)
            z = _k._zname(rt)

            def expr(e: str) -> str:
                return f"{z}_{name}({code.cast(e, array.dtype, rt)})"
        elif rt.kind in "iub":
            def expr(e: str) -> str:  # ceil/floor of an integer: the integer itself
                return code.cast(e, array.dtype, rt)
        else:
            fn = {"fabs": "fabs"}.get(name, name)
            fn = fn + ("f" if rt == np.float32 else "")

            def expr(e: str) -> str:
                return f"{fn}({code.cast(e, array.dtype, rt)})"
        launch(f"lat_{name}", [out], [array], [],
               lambda o, a, s: f"{o[0]} = {code.cast(expr(a[0]), rt, out.dtype)};", code)
        return out
    f.__name__ = name
    f.__doc__ = f"Elementwise {name} (NumPy's {npname}), a new array or ``out``."
    return f


for _n in ("fabs", "ceil", "floor", "exp", "log", "log10", "sqrt", "sin", "cos", "tan",
           "asin", "acos", "atan", "sinh", "cosh", "tanh"):
    globals()[_n] = _unary(_n)


def _real_float(fname: str, a: GPUArray) -> np.dtype:
    if not isinstance(a, GPUArray):
        raise TypeError(f"cumath.{fname}: the arguments must be GPUArrays")
    if a.dtype.kind not in "f":
        raise TypeError(f"cumath.{fname}: float32 or float64 arrays only, not {a.dtype}")
    return a.dtype


def fmod(arg: GPUArray, mod: GPUArray, *args: Any, **kwargs: Any) -> GPUArray:
    """The C remainder fmod(arg, mod) elementwise (the sign of arg)."""
    out, _ = _out_stream("fmod", args, kwargs)
    _real_float("fmod", arg)
    _real_float("fmod", mod)
    rt = np.result_type(arg.dtype, mod.dtype)
    if out is None:
        out = GPUArray(np.broadcast_shapes(arg.shape, mod.shape), rt, context=arg._ctx)
    fn = "fmodf" if rt == np.float32 else "fmod"
    code = Code()
    launch("lat_fmod", [out], [arg, mod], [],
           lambda o, a, s: f"{o[0]} = {code.cast(f'{fn}({code.cast(a[0], arg.dtype, rt)}, {code.cast(a[1], mod.dtype, rt)})', rt, out.dtype)};",
           code)
    return out


def ldexp(significand: GPUArray, exponent: GPUArray, *args: Any, **kwargs: Any) -> GPUArray:
    """significand * 2**exponent elementwise; a float exponent is truncated to an int
    (as PyCUDA's kernel does)."""
    out, _ = _out_stream("ldexp", args, kwargs)
    rt = _real_float("ldexp", significand)
    if not isinstance(exponent, GPUArray) or exponent.dtype.kind not in "iuf":
        raise TypeError("cumath.ldexp: the exponent must be a real GPUArray")
    if out is None:
        out = GPUArray(np.broadcast_shapes(significand.shape, exponent.shape), rt,
                       context=significand._ctx)
    fn = "ldexpf" if rt == np.float32 else "ldexp"
    launch("lat_ldexp", [out], [significand, exponent], [],
           lambda o, a, s: f"{o[0]} = ({ctype(out.dtype)}){fn}({a[0]}, (int)({a[1]}));")
    return out


def modf(arg: GPUArray, *args: Any, **kwargs: Any) -> tuple[GPUArray, GPUArray]:
    """(fractional part, integral part), both of arg's type, as numpy.modf."""
    _out_stream("modf", args, kwargs, 2)
    rt = _real_float("modf", arg)
    frac, intpart = arg._like(rt), arg._like(rt)
    c = ctype(rt)
    fn = "modff" if rt == np.float32 else "modf"
    launch("lat_modf", [frac, intpart], [arg], [],
           lambda o, a, s: f"{{ {c} ip_; {o[0]} = {fn}({a[0]}, &ip_); {o[1]} = ip_; }}")
    return frac, intpart


def frexp(arg: GPUArray, *args: Any, **kwargs: Any) -> tuple[GPUArray, GPUArray]:
    """(significands, exponents): arg = significand * 2**exponent, exponents int32, as
    numpy.frexp."""
    _out_stream("frexp", args, kwargs, 2)
    rt = _real_float("frexp", arg)
    sig, ex = arg._like(rt), arg._like(np.int32)
    fn = "frexpf" if rt == np.float32 else "frexp"
    launch("lat_frexp", [sig, ex], [arg], [],
           lambda o, a, s: f"{{ int e_; {o[0]} = {fn}({a[0]}, &e_); {o[1]} = e_; }}")
    return sig, ex
