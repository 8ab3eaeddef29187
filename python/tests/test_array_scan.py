"""lattice's own scans (src/array/scan.c) against NumPy: sizes around the block and chunk
edges, in place and out of place, inclusive and exclusive, an operator other than +."""

import numpy as np
import pytest

import lattice


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_scans_match_numpy(dtype, rng):
    for n in (1, 5, 255, 256, 257, 1000, 65536 + 7, 1 << 20):
        a = rng.integers(-1000, 1000, n).astype(dtype)
        g = lattice.to_device(a)
        out = lattice.empty(n, dtype)
        lattice.InclusiveScanKernel(dtype, "a+b", "0")(g, out)
        np.testing.assert_array_equal(out.get(), np.cumsum(a).astype(dtype))
        lattice.ExclusiveScanKernel(dtype, "a+b", "0")(g, out)
        np.testing.assert_array_equal(out.get(),
                                      np.concatenate([[0], np.cumsum(a)[:-1]]).astype(dtype))
        lattice.InclusiveScanKernel(dtype, "a > b ? a : b", "-1000000")(g)
        np.testing.assert_array_equal(g.get(), np.maximum.accumulate(a))
