"""Runs python/tests with pytest against a built liblattice.so and ends with lattice's
totals line ("N passed, N failed, N skipped") for scripts/test-totals.py.
Exit 77 (meson's skip) with the reason where Python's packages or the backend are missing.
Usage: run_pytest.py PYTHON_DIR LIBLATTICE_SO [pytest args...]"""

import os
import re
import subprocess
import sys

pkg_dir, libpath = sys.argv[1], sys.argv[2]
missing = []
for mod in ("numpy", "pytest"):
    try:
        __import__(mod)
    except ImportError:
        missing.append(mod)
# scripts/test installs what the system's Python lacks into a virtual environment in the
# build directory (LATTICE_TEST_VENV): run there instead.
venv_python = os.path.join(os.environ.get("LATTICE_TEST_VENV", ""), "bin", "python")
if missing and os.environ.get("LATTICE_TEST_VENV") and os.access(venv_python, os.X_OK) and \
        os.path.realpath(sys.prefix) != os.path.realpath(os.environ["LATTICE_TEST_VENV"]):
    os.execv(venv_python, [venv_python] + sys.argv)
if missing:
    print(f"SKIP: the Python tests need {' and '.join(missing)} "
          "(scripts/test installs them into a virtual environment in the build directory)")
    print("0 passed, 0 failed, 1 skipped")
    sys.exit(77)

env = dict(os.environ, LATTICE_LIBRARY=libpath,
           PYTHONPATH=os.pathsep.join(p for p in (pkg_dir, os.environ.get("PYTHONPATH")) if p))
backend = env.get("LATTICE_BACKEND", "")
if backend == "cuda":
    probe = subprocess.run([sys.executable, "-c",
                            "import lattice; lattice.Device(0, 'cuda')"], env=env,
                           capture_output=True, text=True)
    if probe.returncode != 0:
        reason = (probe.stderr.strip().splitlines() or ["no GPU"])[-1]
        print(f"SKIP: no usable CUDA backend: {reason}")
        print("0 passed, 0 failed, 1 skipped")
        sys.exit(77)

r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                    os.path.join(pkg_dir, "tests")] + sys.argv[3:], env=env,
                   capture_output=True, text=True)
sys.stdout.write(r.stdout)
sys.stderr.write(r.stderr)
counts = {k: 0 for k in ("passed", "failed", "skipped", "error")}
summary = (r.stdout.strip().splitlines() or [""])[-1]
for n, word in re.findall(r"(\d+) (passed|failed|skipped|errors?)", summary):
    counts["error" if word.startswith("error") else word] += int(n)
print(f"{counts['passed']} passed, {counts['failed'] + counts['error']} failed, "
      f"{counts['skipped']} skipped")
sys.exit(0 if r.returncode == 0 else 1)
