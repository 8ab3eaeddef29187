"""The emulator's checks and thread maps through Python."""

import numpy as np
import pytest

import lattice
import lattice.check as lc


@pytest.fixture
def checked():
    try:
        ctx = lattice.Context("emu", check="memcheck,racecheck")
    except lattice.LatticeError as e:  # pragma: no cover
        pytest.skip(str(e))
    with ctx:
        yield ctx


def test_out_of_bounds_is_reported(checked):
    m = lattice.Module("__global__ void k(float *out)"
                       "{ int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = i; }")
    out = lattice.mem_alloc(8 * 4)
    lc.label(out, "out")
    with pytest.raises(lattice.CheckFailedError):
        m.get_kernel("k")(out, grid=2, block=5)
    reps = lc.reports(checked)
    assert reps and reps[0].kind == "out-of-bounds" and "out" in reps[0].message
    assert reps[0].expr == "out[i]" and reps[0].block == (1, 0, 0)
    assert lc.modes(checked) == {"memcheck", "racecheck"}


def test_thread_map_svg_and_text(checked):
    m = lattice.Module("__global__ void k(int *out)"
                       "{ out[blockIdx.x * blockDim.x + threadIdx.x] = 1; }")
    out = lattice.zeros(12, np.int32)
    tm = lc.ThreadMap(out)
    m.get_kernel("k")(out, grid=3, block=4)
    mp = tm.get()
    assert mp.writers[5] == (1, 1) and mp.writers[11] == (2, 3)
    svg = mp._repr_svg_()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "1/1" in str(mp)


def test_random_schedule_is_reproducible(checked):
    lc.configure(checked, order="random", seed=42)
    m = lattice.Module("__global__ void k(int *order, int *next)"
                       "{ order[atomicAdd(next, 1)] = threadIdx.x; }")
    runs = []
    for _ in range(2):
        order, nxt = np.zeros(32, np.int32), np.zeros(1, np.int32)
        m.get_kernel("k")(lattice.Out(order), lattice.InOut(nxt), block=32)
        runs.append(order.copy())
    assert np.array_equal(runs[0], runs[1]) and sorted(runs[0]) == list(range(32))
