"""PyCUDA's ``pycuda.autoprimaryctx``: like ``autoinit`` (lattice has one current context
per process; it is the device's primary context in PyCUDA's sense)."""

from .autoinit import context, device  # noqa: F401
