"""``pycuda.compyte.dtypes``: C type names <-> NumPy dtypes. ``TYPE_REGISTRY`` is the
registry ``pycuda.tools`` uses, so a dtype registered here is known to ``dtype_to_ctype``,
``parse_c_arg`` and the kernel builders there, as in PyCUDA."""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np


class TypeNameNotKnown(RuntimeError):
    """PyCUDA's exception class for an unknown type name (it is defined, and raised by
    no function of this module, in PyCUDA too: unknown names raise KeyError)."""


class DTypeRegistry:
    """Two-way map of C type names and dtypes. The first name a dtype is registered
    under is the one ``dtype_to_ctype`` gives."""

    def __init__(self) -> None:
        self.dtype_to_name: dict[Any, str] = {}
        self.name_to_dtype: dict[str, np.dtype] = {}

    def get_or_register_dtype(self, names: str | Sequence[str],
                              dtype: Any = None) -> np.dtype:
        """Without ``dtype``: the dtype the names are registered to (KeyError for an
        unknown name, ValueError when they name different dtypes). With ``dtype``:
        registers it under the names and returns it (the dtype object registered
        first where an equal one was); a name registered to another dtype raises
        RuntimeError."""
        if isinstance(names, str):
            names = [names]
        if dtype is None:
            found = [self.name_to_dtype[n] for n in names]
            if any(f != found[0] for f in found):
                raise ValueError(f"the names {list(names)} name different dtypes")
            return found[0]
        dtype = np.dtype(dtype)
        existing = self.dtype_to_name.get(dtype)
        if existing is not None:
            dtype = self.name_to_dtype[existing]
        for n in names:
            old = self.name_to_dtype.setdefault(n, dtype)
            if old != dtype:
                raise RuntimeError(f"name '{n}' already registered to different dtype")
        if existing is None:
            self.dtype_to_name[dtype] = names[0]
        self.dtype_to_name.setdefault(str(dtype), names[0])
        return dtype

    def dtype_to_ctype(self, dtype: Any) -> str:
        """The C name of a registered dtype; ValueError for None or an unknown one."""
        if dtype is None:
            raise ValueError("dtype may not be None")
        dtype = np.dtype(dtype)
        try:
            return self.dtype_to_name[dtype]
        except KeyError:
            raise ValueError(f"unable to map dtype '{dtype}'") from None


def fill_registry_with_c_types(reg: DTypeRegistry, respect_windows: bool,
                               include_bool: bool = True) -> None:
    """Registers C's integer and floating types (long is 64 bits: LP64)."""
    if include_bool:
        reg.get_or_register_dtype("bool", np.bool_)
    reg.get_or_register_dtype(["signed char", "char"], np.int8)
    reg.get_or_register_dtype("unsigned char", np.uint8)
    reg.get_or_register_dtype(["short", "signed short", "signed short int",
                               "short signed int"], np.int16)
    reg.get_or_register_dtype(["unsigned short", "unsigned short int",
                               "short unsigned int"], np.uint16)
    reg.get_or_register_dtype(["int", "signed int"], np.int32)
    reg.get_or_register_dtype(["unsigned", "unsigned int"], np.uint32)
    reg.get_or_register_dtype(["long", "long int", "signed long int", "long signed int"],
                              np.int64)
    reg.get_or_register_dtype(["unsigned long", "unsigned long int", "long unsigned int"],
                              np.uint64)
    reg.get_or_register_dtype("float", np.float32)
    reg.get_or_register_dtype("double", np.float64)


def fill_registry_with_opencl_c_types(reg: DTypeRegistry) -> None:
    """Registers OpenCL C's names (uchar, uint, ulong...)."""
    g = reg.get_or_register_dtype
    g(["char", "signed char"], np.int8)
    g(["uchar", "unsigned char"], np.uint8)
    g(["short", "signed short", "signed short int", "short signed int"], np.int16)
    g(["ushort", "unsigned short", "unsigned short int", "short unsigned int"], np.uint16)
    g(["int", "signed int"], np.int32)
    g(["uint", "unsigned", "unsigned int"], np.uint32)
    g(["long", "long int", "signed long int", "long signed int"], np.int64)
    g(["ulong", "unsigned long", "unsigned long int", "long unsigned int"], np.uint64)
    g(["intptr_t"], np.intp)
    g(["uintptr_t"], np.uintp)
    g("float", np.float32)
    g("double", np.float64)


def fill_registry_with_c99_stdint_types(reg: DTypeRegistry) -> None:
    """Registers <stdint.h>'s names."""
    g = reg.get_or_register_dtype
    g("bool", np.bool_)
    for bits in (8, 16, 32, 64):
        g(f"int{bits}_t", np.dtype(f"int{bits}"))
        g(f"uint{bits}_t", np.dtype(f"uint{bits}"))
    g("uintptr_t", np.uintp)
    g("float", np.float32)
    g("double", np.float64)


def fill_registry_with_c99_complex_types(reg: DTypeRegistry) -> None:
    """Registers C99's complex names."""
    reg.get_or_register_dtype("float complex", np.complex64)
    reg.get_or_register_dtype("double complex", np.complex128)
    reg.get_or_register_dtype("long double complex", np.clongdouble)


# pycuda.tools fills this one (C types, pycuda::complex<...>, lattice's extra spellings).
TYPE_REGISTRY = DTypeRegistry()
DTYPE_TO_NAME = TYPE_REGISTRY.dtype_to_name
NAME_TO_DTYPE = TYPE_REGISTRY.name_to_dtype
dtype_to_ctype = TYPE_REGISTRY.dtype_to_ctype
get_or_register_dtype = TYPE_REGISTRY.get_or_register_dtype


def _fill_dtype_registry(respect_windows: bool, include_bool: bool = True) -> None:
    fill_registry_with_c_types(TYPE_REGISTRY, respect_windows, include_bool)


def parse_c_arg_backend(c_arg: str, scalar_arg_factory: Callable[[np.dtype, str], Any],
                        vec_arg_factory: Callable[[np.dtype, str], Any],
                        name_to_dtype: Any = None) -> Any:
    """Parses a C parameter declaration (``"const float *x"``, ``"int n"``): a pointer or
    array declarator gives ``vec_arg_factory(dtype, name)``, else ``scalar_arg_factory``.
    ``name_to_dtype`` is a DTypeRegistry, a callable, or None for TYPE_REGISTRY. An
    unparsable declarator or unknown type raises ValueError."""
    import re
    if isinstance(name_to_dtype, DTypeRegistry):
        lookup = name_to_dtype.name_to_dtype.__getitem__
    elif name_to_dtype is None:
        lookup = NAME_TO_DTYPE.__getitem__
    else:
        lookup = name_to_dtype
    text = re.sub(r"\b(const|volatile|__restrict__|restrict)\b", " ", c_arg)
    m = re.search(r"(\**)\s*([_a-zA-Z0-9]+)(\s*\[[ 0-9]*\])*\s*$", text)
    if m is None:
        raise ValueError(f"couldn't parse C declarator '{c_arg}'")
    tp = " ".join(text[:m.start()].split())
    try:
        dtype = lookup(tp)
    except KeyError:
        raise ValueError(f"unknown type '{tp}'") from None
    factory = vec_arg_factory if m.group(1) or m.group(3) is not None else scalar_arg_factory
    return factory(dtype, m.group(2))


def register_dtype(dtype: Any, c_names: str | Sequence[str], alias_ok: bool = False) -> None:
    """Deprecated in PyCUDA for ``get_or_register_dtype`` (warns DeprecationWarning): a
    dtype registered already raises RuntimeError unless ``alias_ok``."""
    import warnings
    warnings.warn("register_dtype is deprecated. Use get_or_register_dtype instead.",
                  DeprecationWarning, stacklevel=2)
    if isinstance(c_names, str):
        c_names = [c_names]
    dtype = np.dtype(dtype)
    name = TYPE_REGISTRY.dtype_to_name.get(dtype)
    if not alias_ok and name is not None:
        raise RuntimeError(f"dtype '{dtype}' already registered "
                           f"(as '{name}', new names '{', '.join(c_names)}')")
    TYPE_REGISTRY.get_or_register_dtype(c_names, dtype)
