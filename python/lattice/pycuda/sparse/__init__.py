"""``pycuda.sparse``: deprecated in PyCUDA (importing it warns DeprecationWarning, as
there). lattice does not provide its solvers and sparse matrix-vector products, which do not run
under PyCUDA on a CUDA 12 driver either (its CG solver's GPU scalars are read through
texture references); importing one of its modules (``pycuda.sparse.packeted``, ``.cg``,
``.coordinate``, ``.operator``, ``.inner``, ``.pkt_build``) raises ImportError naming it."""

from warnings import warn

warn("pycuda.sparse is deprecated. and will be removed in 2015.x",
     DeprecationWarning, stacklevel=2)


def _refuse(name: str) -> None:
    raise ImportError(f"lattice.pycuda does not provide pycuda.sparse.{name} (PyCUDA's "
                      "deprecated sparse solvers: pycuda.sparse.packeted needs pymetis, and "
                      "PyCUDA's CG solver reads GPU scalars through texture references, "
                      "which CUDA 12 removed)", name=f"pycuda.sparse.{name}")
