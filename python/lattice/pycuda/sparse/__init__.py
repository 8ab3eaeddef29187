"""``pycuda.sparse``: deprecated in PyCUDA (importing it warns DeprecationWarning, as
there). lattice does not provide its solvers and sparse matrix-vector products; importing
one of its modules (``pycuda.sparse.packeted``, ``.cg``, ``.coordinate``, ``.operator``,
``.inner``, ``.pkt_build``) raises ImportError naming it."""

from warnings import warn

warn("pycuda.sparse is deprecated. and will be removed in 2015.x",
     DeprecationWarning, stacklevel=2)


def _refuse(name: str) -> None:
    raise ImportError(f"lattice.pycuda does not provide pycuda.sparse.{name} (PyCUDA's "
                      "deprecated sparse solvers; pycuda.sparse.packeted also needs "
                      "pymetis)", name=f"pycuda.sparse.{name}")
