"""Runs the package from the source tree against a built liblattice: LATTICE_LIBRARY names
it (meson's test sets it to the build's liblattice.so); an installed package finds its own.
LATTICE_BACKEND=cuda runs the same tests on a GPU."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PKG_ROOT = os.path.dirname(HERE)
if os.environ.get("LATTICE_PYTHON_INSTALLED") != "1" and PKG_ROOT not in sys.path:
    sys.path.insert(0, PKG_ROOT)


@pytest.fixture(scope="session")
def backend():
    import lattice
    return lattice.current_context().backend


@pytest.fixture
def rng():
    import numpy as np
    return np.random.default_rng(1234)


def pytest_configure(config):
    # PyCUDA's mark_cuda_test (lattice.pycuda.tools) marks its tests "cuda".
    config.addinivalue_line("markers", "cuda: a test that runs in a fresh CUDA context")
