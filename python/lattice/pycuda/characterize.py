"""PyCUDA's ``pycuda.characterize``: what the device can do."""


def has_double_support() -> bool:
    """Every lattice backend computes in double precision."""
    return True
