"""The emulator's profile (lattice.profile) through Python: its counts for a strided copy
follow from the stride, and it shows in a notebook."""

import numpy as np
import pytest

import lattice
import lattice.profile as lp

SRC = """
__global__ void copy(float *out, const float *in, int stride)
{
    __shared__ float s[32][33];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x % 32][threadIdx.x / 32] = in[i * stride];
    __syncthreads();
    out[i] = s[threadIdx.x % 32][threadIdx.x / 32];
}
"""


@pytest.fixture
def profiled():
    try:
        ctx = lattice.Context("emu", check="profile")
    except lattice.LatticeError as e:  # pragma: no cover
        pytest.skip(str(e))
    with ctx:
        yield ctx


@pytest.mark.parametrize("stride", [1, 2, 8, 32])
def test_sectors_follow_the_stride(profiled, stride):
    m = lattice.Module(SRC)
    inp = lattice.to_device(np.random.default_rng(stride).random(64 * 32 * 32, dtype=np.float32))
    out = lattice.zeros(64 * 4, np.float32)
    m.get_kernel("copy")(out, inp, np.int32(stride), grid=4, block=64)
    p = lp.last(profiled, SRC)
    assert lp.enabled(profiled)
    ld = p["global", "load"]
    assert ld["requests"] == 8  # 4 blocks of 2 warps
    assert ld["per_request"] == min(4 * stride, 32)
    assert ld["ideal_per_request"] == 4
    assert p["global", "store"]["per_request"] == 4
    assert p["shared", "store"]["per_request"] == 1  # 33 words a row: no conflict
    assert ("global", "atomic") not in p
    row = p.rows[0]
    assert row["line"] == 6 and row["expr"] == "in[i * stride]" or stride == 1
    assert "profile of kernel 'copy'" in str(p)
    assert p._repr_svg_().startswith("<svg") and "<table>" in p._repr_html_()
    assert np.allclose(out.get(), inp.get()[np.arange(256) * stride])


def test_a_context_without_profiling_raises():
    with lattice.Context("emu", check="none") as ctx:
        assert not lp.enabled(ctx)
        with pytest.raises(lattice.LatticeError):
            lp.last(ctx)


def test_the_transpose_notebook_runs_and_its_numbers_change():
    """python/examples/profile_transpose.ipynb, cell by cell: 32 sectors a store, then 32
    wavefronts a shared load, then 1."""
    import json
    import os
    path = os.path.join(os.path.dirname(__file__), "..", "examples", "profile_transpose.ipynb")
    nb = json.load(open(path, encoding="utf-8"))
    g: dict = {}
    try:
        for c in nb["cells"]:
            if c["cell_type"] == "code":
                exec("".join(c["source"]), g)
                p = g.get("p")
                if p is not None:
                    assert p._repr_html_().startswith("<p>")
        assert g["p"]["shared", "load"]["per_request"] == 1
        assert g["p"]["global", "store"]["per_request"] == 4
    finally:
        if "ctx" in g:
            g["ctx"].pop()
