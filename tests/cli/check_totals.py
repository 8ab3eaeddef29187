"""scripts/test-totals.py on a made-up meson testlog.json: the totals count every case
(harness cases, scripts' own skips), and each skip's reason is printed with where it came
from (the totals line printed no reasons), a skip without one listed as such.

usage: check_totals.py SOURCE_ROOT"""
import json
import os
import subprocess
import sys
import tempfile

root = sys.argv[1]
log = [
    {"name": "lattice:emu / memory", "result": "OK",
     "stdout": "ok a\nskip b: no MPI\nok c\n2 passed, 0 failed, 1 skipped\n"},
    {"name": "lattice:cuda / memory", "result": "SKIP",
     "stdout": "skip a: no GPU at 0x7f00\nskip b: no GPU at 0x7f08\n0 passed, 0 failed, 2 skipped\n"},
    {"name": "lattice:cuda / readme_example", "result": "SKIP", "stdout": "skip: no GPU\n"},
    {"name": "lattice:python-emu / python", "result": "SKIP",
     "stdout": "SKIP: the Python tests need numpy\n0 passed, 0 failed, 1 skipped\n"},
    {"name": "lattice:symbols / mystery", "result": "SKIP", "stdout": ""},
    {"name": "lattice:emu / crashes", "result": "FAIL", "stdout": "ok a\n"},
]
with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    for t in log:
        f.write(json.dumps(t) + "\n")
r = subprocess.run([sys.executable, os.path.join(root, "scripts", "test-totals.py"), f.name],
                   capture_output=True, text=True)
os.unlink(f.name)
want = ["failed: lattice:emu / crashes (FAIL)",
        "skipped 2: no GPU at ... [cuda / memory: a, cuda / memory: b]",
        "skipped 1: no MPI [emu / memory: b]",
        "skipped 1: no GPU [cuda / readme_example]",
        "skipped 1: the Python tests need numpy [python-emu / python]",
        "skipped 1: (no reason given) [symbols / mystery]",
        "2 passed, 1 failed, 6 skipped"]
got = r.stdout.splitlines()
if r.returncode != 0 or got != want:
    print("FAIL: test-totals.py printed\n  " + "\n  ".join(got) + "\nwant\n  " + "\n  ".join(want) + "\n" + r.stderr)
    print("1 failures")
    sys.exit(1)
print("0 failures")
