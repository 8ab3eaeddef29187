"""PyCUDA's ``pycuda.compyte``: the dtype registry and stride helpers PyCUDA shares with
PyOpenCL (``compyte.dtypes``, ``compyte.array``)."""
