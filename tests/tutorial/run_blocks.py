"""Compiles and runs every ```c block of a Markdown file (docs/tutorial.md) as a program of
its own, as a reader would: strict C11, every warning an error, linked against the library
of this build; each must exit 0 on the emulator.
usage: run_blocks.py FILE.md CC INCLUDE_DIR LIBRARY SANITIZE"""
import os
import re
import subprocess
import sys
import tempfile

md, cc, include, library, sanitize = sys.argv[1:6]
blocks = re.findall(r"^```c\n(.*?)^```", open(md, encoding="utf-8").read(), re.S | re.M)
if not blocks:
    sys.exit(f"FAIL: no ```c block in {md}")
libdir = os.path.dirname(os.path.abspath(library))
if library.endswith(".a"):
    link = [library, "-fopenmp", "-ldl", "-lm", "-lpthread"]
else:
    link = [library, "-Wl,-rpath," + libdir, "-lm"]
extra = [] if sanitize == "none" else ["-fsanitize=" + sanitize]
env = dict(os.environ, LATTICE_BACKEND="emu")
failed = 0
with tempfile.TemporaryDirectory() as tmp:
    for n, code in enumerate(blocks, 1):
        src = os.path.join(tmp, f"block{n}.c")
        exe = os.path.join(tmp, f"block{n}")
        open(src, "w", encoding="utf-8").write(code)
        cmd = [cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-I" + include, *extra, src, "-o", exe, *link]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"FAIL block {n}: does not compile\n{r.stdout}{r.stderr}")
            failed += 1
            continue
        r = subprocess.run([exe], capture_output=True, text=True, env=env, timeout=120)
        first = code.split("\n")[0]
        if r.returncode != 0:
            print(f"FAIL block {n} exits {r.returncode}\n{r.stdout}{r.stderr}")
            failed += 1
        else:
            print(f"ok block {n}: {r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ''}")
print(f"{len(blocks) - failed} of {len(blocks)} blocks compile and run")
sys.exit(1 if failed else 0)
