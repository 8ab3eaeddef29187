"""The lattice program as README.md and examples/bugs/ show it: the README's command draws
exactly the committed docs/thread-map.svg, and each bug in the zoo prints exactly the output
its file shows (but for the buffers' values, some of which are garbage by design), exits 1,
while its corrected command exits 0 with no report.

usage: check_cli.py LATTICE_BINARY SOURCE_ROOT"""
import os
import re
import subprocess
import sys
import tempfile

lattice, root = os.path.abspath(sys.argv[1]), sys.argv[2]
os.chdir(root)
failures = []


def run(args):
    return subprocess.run([lattice] + args, capture_output=True, text=True)


def expect_lines(what, source, args, want):
    """`lattice run` of source (written to a .cu file, named before args) succeeds and
    prints each line of want."""
    with tempfile.TemporaryDirectory() as tmp:
        cu = os.path.join(tmp, "k.cu")
        with open(cu, "w") as f:
            f.write(source)
        r = run(["run", cu] + args)
        if r.returncode != 0 or any(w not in r.stdout.splitlines() for w in want):
            failures.append("%s: status %d, want %s\n%s%s" % (what, r.returncode, want, r.stdout, r.stderr))


# The README's picture.
readme = open("README.md", encoding="utf-8").read()
m = re.search(r"build/tools/lattice (run .*?--svg docs/thread-map.svg)", readme.replace("\\\n", " "))
if not m:
    failures.append("README.md: no `build/tools/lattice run ... --svg docs/thread-map.svg` command")
else:
    with tempfile.TemporaryDirectory() as tmp:
        args = m.group(1).split()
        args[args.index("docs/thread-map.svg")] = os.path.join(tmp, "map.svg")
        r = run(args)
        if r.returncode != 0:
            failures.append("README command failed: %s%s" % (r.stdout, r.stderr))
        elif open(os.path.join(tmp, "map.svg")).read() != open("docs/thread-map.svg").read():
            failures.append("the README's command no longer draws docs/thread-map.svg")

# A failing lattice call's message is printed once: by the library where LATTICE_LOG lets
# it write errors (its default), by the program where not.
with tempfile.TemporaryDirectory() as tmp:
    bad = os.path.join(tmp, "bad.cu")
    with open(bad, "w") as f:
        f.write("__global__ void k(float *x) { x[0] = undeclared_name; }\n")
    for log in ("error", "warning", "none"):
        r = subprocess.run([lattice, "list", bad], capture_output=True, text=True,
                           env=dict(os.environ, LATTICE_LOG=log))
        if r.returncode == 0 or r.stderr.count("'undeclared_name' undeclared") != 1:
            failures.append("LATTICE_LOG=%s: a compile error printed %d times (want once), status %d:\n%s"
                            % (log, r.stderr.count("'undeclared_name' undeclared"), r.returncode, r.stderr))

# --help is output (stdout, status 0), a usage error is not (stderr, status 2); --version.
r = run(["--help"])
if r.returncode != 0 or not r.stdout.startswith("usage: lattice run") or r.stderr:
    failures.append("--help: status %d, stdout %r, stderr %r" % (r.returncode, r.stdout[:40], r.stderr))
r = run([])
if r.returncode != 2 or r.stdout or "usage:" not in r.stderr:
    failures.append("no command: status %d, stdout %r" % (r.returncode, r.stdout[:40]))
r = run(["--version"])
if r.returncode != 0 or not re.match(r"lattice \d+\.\d+\.\d+ \(library \d+\.\d+\.\d+\)\n$", r.stdout):
    failures.append("--version: status %d, %r" % (r.returncode, r.stdout))

# A PNG without a converter fails that output only: the SVG is written, the run succeeds.
with tempfile.TemporaryDirectory() as tmp:
    svg, png = os.path.join(tmp, "m.svg"), os.path.join(tmp, "m.png")
    r = subprocess.run([lattice, "run", "examples/thread_map.cu", "add", "-n", "96", "-g", "3,2",
                        "-b", "4,4", "--arg", "width=12", "--arg", "height=8", "--map", "c",
                        "--svg", svg, "--png", png],
                       capture_output=True, text=True, env=dict(os.environ, PATH=tmp))
    if r.returncode != 0 or not os.path.exists(svg) or os.path.exists(png) or \
            "no PNG written to " + png + ": neither rsvg-convert nor convert" not in r.stderr:
        failures.append("--png without a converter: status %d, svg %s\n%s%s"
                        % (r.returncode, os.path.exists(svg), r.stdout, r.stderr))

# Vector-typed buffers are filled and printed by component: a float4 input holds 0, 1, 2, ...
# through its components (it was filled as 8-byte integers and a float2 printed as a double).
expect_lines("vector buffers",
             "__global__ void v(float2 *out, const float4 *in, int2 *idx)\n"
             "{\n"
             "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    out[i] = make_float2(in[i].x * 0.5f, in[i].w + 0.25f);\n"
             "    idx[i] = make_int2(-i, i * 3);\n"
             "}\n",
             ["v", "-n", "8", "-c", "none", "--show", "3"],
             ["  out = [(0, 3.25), (2, 7.25), ..., (14, 31.25)]",
              "  idx = [(0, 0), (-1, 3), ..., (-7, 21)]"])

# Half-precision buffers and scalars (cuda_fp16.h, cuda_bf16.h): filled with 0, 1, 2, ...
# rounded to the type, printed from their bits, scalars converted to the type (a __half
# pointer was refused; a __half scalar got an integer's bits). The values, worked by hand:
# s = half(0.1) = 0.0999755859375; a[1] * s = 0.0999756, a[2] * s = 0.199951 (half's
# spacing there is 2^-13); a[2999] = half(2999) = 3000 (a tie, to even), 3000 * s = 299.93,
# which rounds to 300 (spacing 0.25). bfloat16: b[2999] = 2992 (spacing 16), * -2.5 =
# -7480, which rounds to -7488 (spacing 32). __half2 q[2999] = (5998, 5999) -> (6000, 6000)
# (spacing 4, 5998 a tie to even), times s: 599.85 -> 600 (spacing 0.5).
expect_lines("half buffers",
             "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"
             "__global__ void scale(__half *d, const __half *a, __half s, __nv_bfloat16 *e,\n"
             "                      const __nv_bfloat16 *b, __nv_bfloat16 t, __half2 *p,\n"
             "                      const __half2 *q, int n)\n"
             "{\n"
             "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i < n) {\n"
             "        d[i] = a[i] * s;\n"
             "        e[i] = b[i] * t;\n"
             "        p[i] = __hmul2(q[i], __half2half2(s));\n"
             "    }\n"
             "}\n",
             ["scale", "-n", "3000", "-a", "s=0.1", "-a", "t=-2.5", "-c", "none", "--show", "4"],
             ["  d = [0, 0.0999756, 0.199951, ..., 300]",
              "  e = [-0, -2.5, -5, ..., -7488]",
              "  p = [(0, 0.0999756), (0.199951, 0.299805), (0.399902, 0.5), ..., (600, 600)]"])

# Templates: `list` shows the explicit instances by the names they were written with (it
# scanned the text for __global__ and missed them), and `run` makes the instance it is
# given by name, instantiated in the source or not.
with tempfile.TemporaryDirectory() as tmp:
    cu = os.path.join(tmp, "t.cu")
    with open(cu, "w") as f:
        f.write("template <typename T, int K>\n"
                "__global__ void scale(T *out, int n)\n"
                "{\n"
                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    if (i < n) out[i] = (T)(i * K) + (T)0.5;\n"
                "}\n"
                "template __global__ void scale<float, 3>(float *, int);\n"
                "__global__ void plain(int *out) { out[threadIdx.x] = 7; }\n")
    r = run(["list", cu])
    want = ["scale<float, 3>(float *out, int n)", "plain(int *out)"]
    if r.returncode != 0 or sorted(r.stdout.splitlines()) != sorted(want):
        failures.append("list of a template's instances: status %d, want %s\n%s%s"
                        % (r.returncode, want, r.stdout, r.stderr))
    # --why: how each kernel's threads run, under its line.
    r = run(["list", "--why", cu])
    lines = r.stdout.splitlines()
    if r.returncode != 0 or "plain(int *out)" not in lines or \
            not any(l.startswith("    one loop over the threads") for l in lines):
        failures.append("list --why: status %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
    for name, values in (("scale<float, 3>", "(0.5, 3.5, ..., 21.5)"),
                         ("scale<double, 2>", "(0.5, 2.5, ..., 14.5)")):
        r = run(["run", cu, name, "-n", "8", "-a", "n=8", "-c", "none", "--show", "3"])
        want = "  out = [" + values[1:-1] + "]"
        if r.returncode != 0 or want not in r.stdout.splitlines():
            failures.append("run %s: status %d, want %r\n%s%s" % (name, r.returncode, want, r.stdout, r.stderr))

# The zoo.
for name in sorted(os.listdir("examples/bugs")):
    if not name.endswith(".cu"):
        continue
    path = os.path.join("examples/bugs", name)
    lines = open(path, encoding="utf-8").read().split("\n")
    commands = [i for i, l in enumerate(lines) if l.startswith("//   $ lattice ")]
    if len(commands) != 2:
        failures.append("%s: want two commands (the bug and the fix), found %d" % (path, len(commands)))
        continue
    bug, fix = commands
    shown = []
    for l in lines[bug + 1:]:
        if l == "//":
            break
        shown.append(l[len("//   "):])
    r = run(lines[bug][len("//   $ lattice "):].split())
    got = [l for l in r.stdout.rstrip("\n").split("\n") if not re.match(r"  \w+ = \[", l)]
    if r.returncode != 1:
        failures.append("%s: the bug's command exited %d, want 1" % (path, r.returncode))
    if got != shown:
        failures.append("%s: the output differs from the file's\n  got:\n    %s\n  shown:\n    %s"
                        % (path, "\n    ".join(got), "\n    ".join(shown)))
    r = run(lines[fix][len("//   $ lattice "):].split())
    if r.returncode != 0 or "reports:" in r.stdout:
        failures.append("%s: the fix's command exited %d:\n%s%s" % (path, r.returncode, r.stdout, r.stderr))

for f in failures:
    print("FAIL", f)
print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
