"""Every PyCUDA program of the seeds, with only `import pycuda` changed to
`import lattice.pycuda`, run in a fresh interpreter; its variables are then checked."""

import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = os.path.join(HERE, "seeds")


def port(source: str) -> str:
    """The only change: pycuda's imports become lattice.pycuda's."""
    source = re.sub(r"^(\s*)import pycuda\.", r"\1import lattice.pycuda.", source, flags=re.M)
    source = re.sub(r"^(\s*)from pycuda(\.| )", r"\1from lattice.pycuda\2", source, flags=re.M)
    return source


CHECKS = {
    "seed0_crash_course.py": """
assert np.allclose(a_final, 2 * a), (a_final, a)
""",
    "seed1_recitation.py": """
assert numpy.array_equal(dest, a * b)
""",
    "seed2_tutorial.py": """
assert a_doubled.shape == (4, 4)
assert numpy.allclose(a_doubled, 2 * a_gpu.get())
ctx.pop()
""",
    "seed3_notebook.py": """
assert numpy.array_equal(a_doubled, 2 * a)
assert abs(pi_host_sum - math.pi) < 1e-4, pi_host_sum
assert abs(pi_inout - math.pi) < 1e-4, pi_inout
assert abs(only_one_element[0] / PROBLEM_SIZE - math.pi) < 1e-4
""",
    "seed4_blog.py": """
assert not (dest - a * b).any()
""",
}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_seed_runs_with_only_imports_changed(name, tmp_path):
    with open(os.path.join(SEEDS, name)) as f:
        original = f.read()
    ported = port(original)
    assert "import pycuda" not in ported and "from pycuda" not in ported
    # Nothing but the import lines differs.
    changed = [(a, b) for a, b in zip(original.splitlines(), ported.splitlines()) if a != b]
    assert changed and all("pycuda" in a and "lattice.pycuda" in b for a, b in changed)
    prog = tmp_path / name
    prog.write_text(ported + "\n# checks\n" + CHECKS[name])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in [os.path.dirname(HERE),
                                                   env.get("PYTHONPATH", "")] if p)
    r = subprocess.run([sys.executable, str(prog)], capture_output=True, text=True, env=env,
                       timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    if name == "seed3_notebook.py":
        assert "3.14" in r.stdout
