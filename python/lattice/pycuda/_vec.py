"""CUDA's vector types as NumPy dtypes: PyCUDA's ``gpuarray.vec`` (``vec.float3``,
``vec.make_float3(1, 2, 3)``...). gpuarray re-exports ``vec`` from here.

Each type is a structured dtype with fields x, y, z, w of the element type, packed: its
size is CUDA's (``float3`` is 12 bytes, ``double2`` 16). The ``make_*`` functions return a
0-d array of the type, which a kernel takes by value. Every name is registered with
``tools.get_or_register_dtype``, so ``dtype_to_ctype(vec.float3) == "float3"``.
"""

from __future__ import annotations

import numpy as np

_FIELDS = ("x", "y", "z", "w")

# CUDA's vector families: the element type and the counts vector_types.h defines.
_FAMILIES = (
    ("char", np.int8), ("uchar", np.uint8), ("short", np.int16), ("ushort", np.uint16),
    ("int", np.int32), ("uint", np.uint32), ("long", np.int64), ("ulong", np.uint64),
    ("longlong", np.int64), ("ulonglong", np.uint64), ("float", np.float32),
    ("double", np.float64),
)


class vec:  # noqa: N801
    """The vector dtypes (``vec.float3``) and their constructors (``vec.make_float3``)."""


def _maker(name: str, dtype: np.dtype, count: int):
    def make(*components: float) -> np.ndarray:
        if len(components) != count:
            raise TypeError(f"make_{name}() takes {count} components, not {len(components)}")
        return np.array(tuple(components), dtype=dtype)

    make.__name__ = f"make_{name}"
    make.__doc__ = f"A 0-d array of {name} ({count} components), passed to a kernel by value."
    return make


def _fill() -> None:
    from .tools import get_or_register_dtype
    for base, elem in _FAMILIES:
        for count in (1, 2, 3, 4):
            name = f"{base}{count}"
            dtype = np.dtype([(f, elem) for f in _FIELDS[:count]])
            dtype = get_or_register_dtype(name, dtype)
            setattr(vec, name, dtype)
            setattr(vec, f"make_{name}", staticmethod(_maker(name, dtype, count)))


_fill()
