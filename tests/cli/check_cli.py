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


def run(args, env=None):
    return subprocess.run([lattice] + args, capture_output=True, text=True, env=env)


def has_line(out, want):
    """A line of out is want, or want followed by a buffer's note ("; ...")."""
    return any(l == want or l.startswith(want + "; ") for l in out.splitlines())


def expect_lines(what, source, args, want, status=0, stderr=None, env=None):
    """`lattice run` of source (written to a .cu file, named before args) exits with
    status and prints each line of want (and stderr contains `stderr`)."""
    with tempfile.TemporaryDirectory() as tmp:
        cu = os.path.join(tmp, "k.cu")
        with open(cu, "w") as f:
            f.write(source)
        r = run(["run", cu] + args, env)
        if r.returncode != status or any(not has_line(r.stdout, w) for w in want) or \
                (stderr is not None and stderr not in r.stderr):
            failures.append("%s: status %d, want %d and %s %r\n%s%s"
                            % (what, r.returncode, status, want, stderr, r.stdout, r.stderr))
        return r


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

# A PNG that cannot be made fails the run (status 1) with the reason: no converter, or a
# converter that fails; the SVG is written all the same (it exited 0 without the PNG).
with tempfile.TemporaryDirectory() as tmp:
    svg, png = os.path.join(tmp, "m.svg"), os.path.join(tmp, "m.png")
    failing = os.path.join(tmp, "bin")
    os.mkdir(failing)
    with open(os.path.join(failing, "rsvg-convert"), "w") as f:
        f.write("#!/bin/sh\necho 'rsvg-convert: cannot write' >&2\nexit 3\n")
    os.chmod(os.path.join(failing, "rsvg-convert"), 0o755)
    for path, why in ((tmp, "neither rsvg-convert nor convert is installed"),
                      (failing + ":/bin:/usr/bin", "the converter (rsvg-convert or convert) failed, exit status 3")):
        r = subprocess.run([lattice, "run", "examples/thread_map.cu", "add", "-n", "96", "-g", "3,2",
                            "-b", "4,4", "--arg", "width=12", "--arg", "height=8", "--map", "c",
                            "--svg", svg, "--png", png],
                           capture_output=True, text=True, env=dict(os.environ, PATH=path))
        if r.returncode != 1 or not os.path.exists(svg) or os.path.exists(png) or \
                "no PNG written to " + png + ": " + why not in r.stderr:
            failures.append("--png that cannot be made (%s): status %d, svg %s\n%s%s"
                            % (why, r.returncode, os.path.exists(svg), r.stdout, r.stderr))
        os.remove(svg)

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
    # The template itself too (it was left out), with how to name an instance.
    want = ["scale<float, 3>(float *out, int n)", "plain(int *out)",
            "scale<...>: template <typename T, int K> __global__ void scale(T *out, int n)",
            "  (a template: run an instance, e.g. lattice run %s 'scale<float, 256>')" % cu]
    if r.returncode != 0 or sorted(r.stdout.splitlines()) != sorted(want):
        failures.append("list of a template's instances: status %d, want %s\n%s%s"
                        % (r.returncode, want, r.stdout, r.stderr))
    # --why: how each kernel's threads run (the path) and on which tier, under its line.
    r = run(["list", "--why", cu])
    lines = r.stdout.splitlines()
    if r.returncode != 0 or "plain(int *out)" not in lines or \
            not any(re.match(r"    one loop over the threads.*, (TinyCC|optimised|native)$", l) for l in lines):
        failures.append("list --why: status %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
    for name, values in (("scale<float, 3>", "(0.5, 3.5, ..., 21.5)"),
                         ("scale<double, 2>", "(0.5, 2.5, ..., 14.5)")):
        r = run(["run", cu, name, "-n", "8", "-a", "n=8", "-c", "none", "--show", "3"])
        want = "  out = [" + values[1:-1] + "]"
        if r.returncode != 0 or want not in r.stdout.splitlines():
            failures.append("run %s: status %d, want %r\n%s%s" % (name, r.returncode, want, r.stdout, r.stderr))

# Every input is parsed strictly, with the reason and status 2: --arg values for their
# parameter's type (they ran with garbage: strtoll's prefix, a wrapped int), names no
# kernel has, numbers of elements.
ARGS_SRC = ("__global__ void k(float *out, const float *in, int n, float s, unsigned char c,\n"
            "                  long long big, __half h)\n"
            "{\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i < n) out[i] = in[i] * s + c + (float)(big & 1) + __half2float(h);\n"
            "}\n")
ARGS_SRC = "#include <cuda_fp16.h>\n" + ARGS_SRC
for arg, why in (("n=abc", "parameter 'n' (int): 'abc' is not an integer"),
                 ("n=1e3", "'1e3' is not an integer (the parameter is not a floating type)"),
                 ("n=99999999999", "99999999999 is out of its range, -2147483648 to 2147483647"),
                 ("n=-2147483649", "out of its range"),
                 ("n=8x", "'8x' is not an integer"),
                 ("n= 8", "' 8' is not a number"),
                 ("n=", "'' is not a number"),
                 ("c=256", "256 is out of its range, 0 to 255"),
                 ("c=-1", "parameter 'c' (unsigned char) is unsigned: '-1' is negative"),
                 ("big=9223372036854775808", "out of its range"),
                 ("s=abc", "parameter 's' (float): 'abc' is not a number"),
                 ("s=1.5f", "'1.5f' is not a number"),
                 ("s=1e39", "1e39 is out of the type's range"),
                 ("h=70000", "70000 is out of the type's range"),
                 ("width=3", "no kernel of this run has a parameter 'width' (its scalar parameters: n, s, c, big, h)"),
                 ("out=3", "'out' of kernel 'k' is a pointer"),
                 ):
    r = expect_lines("--arg " + arg, ARGS_SRC, ["k", "-n", "8", "-c", "none", "-a", arg], [],
                     status=2, stderr=why)
    if not r.stderr.startswith("lattice: --arg %s: " % arg):
        failures.append("--arg %s: the message does not name the option: %r" % (arg, r.stderr))
expect_lines("--arg twice", ARGS_SRC, ["k", "-n", "8", "-c", "none", "-a", "n=1", "-a", "n=2"], [],
             status=2, stderr="--arg n is given twice")
# What is valid stays valid: hexadecimal, the extremes, bool words, infinities.
expect_lines("--arg valid", ARGS_SRC,
             ["k", "-n", "8", "-c", "none", "-a", "n=0x8", "-a", "c=255", "-a", "s=-0.5",
              "-a", "big=-9223372036854775808", "-a", "h=0.25"],
             ["  n = 0x8", "  c = 255", "  out = [255.25, 254.75, 254.25, 253.75, 253.25, 252.75, 252.25, 251.75]"])
# Each finding is printed once, in the reports (the library's log printed it again).
RACY = ("__global__ void k(float *out) {\n"
        "    __shared__ float s[64];\n"
        "    s[threadIdx.x] = threadIdx.x;\n"
        "    out[threadIdx.x] = s[(threadIdx.x + 1) % 64];\n"
        "}\n")
r = expect_lines("a race reported once", RACY, ["k", "-b", "64", "-n", "64"], [], status=1)
both = r.stdout + r.stderr
found = [l.strip() for l in r.stdout.splitlines() if ": racecheck: kernel 'k'" in l]
if not found or any(both.count(f) != 1 for f in found) or "lattice checks on" in both:
    failures.append("a race reported once: %r" % both)
# Buffers of a typedef's or a macro's element type are sized from what the type is (llm.c's
# floatX *, Polybench's DATA_TYPE *): they were refused as "not of what this points to".
expect_lines("typedef'd elements",
             "typedef float floatX;\n#define DATA_TYPE unsigned int\n"
             "__global__ void k(floatX *o, const floatX *in, DATA_TYPE *u, int n) {\n"
             "    int i = threadIdx.x; if (i < n) { o[i] = in[i] * 0.5f; u[i] = 4000000000u + i; }\n}\n",
             ["k", "-n", "4", "-c", "none", "--fill", "inputs"],
             ["  o = [0, 0.5, 1, 1.5]", "  u = [4000000000, 4000000001, 4000000002, 4000000003]"])
# A struct by value is not one number: its bytes from "2" ran as a garbage value.
for arg in ([], ["-a", "f=2"]):
    expect_lines("a struct parameter " + " ".join(arg),
                 "struct F { float a; };\n"
                 "__global__ void k(F f, float *o) { o[threadIdx.x] = f.a; }\n",
                 ["k", "-n", "8", "-c", "none"] + arg, [], status=2,
                 stderr="parameter 'f' is a struct F: lattice run sets parameters of C's arithmetic "
                        "types and the half types, not of this one (launch the kernel from a "
                        "program: lat_launch)")
# A default that does not fit its parameter is an error too (n = 300 for a char).
expect_lines("default out of range", "__global__ void k(int *o, signed char n) { o[0] = n; }\n",
             ["k", "-n", "300", "-c", "none"], [], status=2,
             stderr="300 is out of its range, -128 to 127 (its default; set it with --arg)")
for n in ("0", "-1", "+5", " 5", "268435457", "18446744073709551617", "1e3"):
    expect_lines("-n " + n, ARGS_SRC, ["k", "-n", n, "-c", "none"], [], status=2,
                 stderr="--n takes a number of elements from 1 to 268435456")
for opt, value in (("-g", "-1"), ("-g", "2,,3"), ("-b", "0"), ("-b", "4x4x4x4"), ("--shared", "-1"),
                   ("--columns", "0"), ("--show", "x")):
    expect_lines("%s %s" % (opt, value), ARGS_SRC, ["k", opt, value], [], status=2, stderr="usage:")

# The kernel file must be a regular file: /dev/zero was read without bound, a FIFO
# blocked for ever.
with tempfile.TemporaryDirectory() as tmp:
    fifo = os.path.join(tmp, "fifo.cu")
    os.mkfifo(fifo)
    for path, what in (("/dev/zero", "a device"), (fifo, "a FIFO"), (tmp, "a directory")):
        for cmd in (["run", path, "k"], ["list", path]):
            try:
                r = subprocess.run([lattice] + cmd, capture_output=True, text=True, timeout=60)
            except subprocess.TimeoutExpired:
                failures.append("%s: did not return" % cmd)
                continue
            if r.returncode != 2 or "lattice: %s is %s, not a regular file" % (path, what) not in r.stderr:
                failures.append("%s: status %d\n%s%s" % (cmd, r.returncode, r.stdout, r.stderr))
    r = run(["run", os.path.join(tmp, "missing.cu"), "k"])
    if r.returncode != 2 or "No such file or directory" not in r.stderr:
        failures.append("missing file: status %d\n%s" % (r.returncode, r.stderr))

# Outputs are printed the same every run: "_" for elements nothing wrote under the checks
# (they start unwritten, for initcheck), zeros without them, and each says how many
# elements were never written. Atomics, which the checks' maps do not record, count as
# writes by the bytes they changed.
HALF_SRC = ("__global__ void half(float *out, const float *in, int n)\n"
            "{\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i < n / 2) out[i] = in[i] + 0.5f;\n"
            "}\n"
            "__global__ void hist(int *h, const int *in, int n)\n"
            "{\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i < 4) h[i] = 0;\n"
            "    __syncthreads();\n"
            "    if (i < n) atomicAdd(&h[in[i] % 4], 1);\n"
            "}\n"
            "__global__ void rest(float *out, int n)\n"
            "{\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i >= n / 2 && i < n - 1) out[i] = -1.0f;\n"
            "}\n")
checked = expect_lines("unwritten, checked", HALF_SRC, ["half", "-n", "10"],
                       ["  out = [0.5, 1.5, 2.5, 3.5, 4.5, _, _, ..., _]; 5 of 10 never written ([5] to [9])"])
again = expect_lines("unwritten, checked, again", HALF_SRC, ["half", "-n", "10"], [])
if checked.stdout != again.stdout:
    failures.append("two runs printed differently:\n%s\n%s" % (checked.stdout, again.stdout))
expect_lines("unwritten, unchecked", HALF_SRC, ["half", "-n", "10", "-c", "none"],
             ["  out: 10 x float *, filled with zeros",
              "  out = [0.5, 1.5, 2.5, 3.5, 4.5, 0, 0, ..., 0]; 5 of 10 as filled, never written or "
              "written alike (checks tell which: [5] to [9])"])
expect_lines("unwritten, memcheck only", HALF_SRC, ["half", "-n", "10", "-c", "memcheck"],
             ["  out: 10 x float *, filled with zeros",
              "  out = [0.5, 1.5, 2.5, 3.5, 4.5, _, _, ..., _]; 5 of 10 never written ([5] to [9])"])
# --fill inputs-only leaves the outputs as allocated, for an initcheck on a GPU
# (compute-sanitizer's): checked, the unwritten elements are "_" as under initcheck;
# unchecked, the line says nothing can tell which elements were written.
for args, env in ((["-c", "none"], None),
                  (["-B", "cross"], dict(os.environ, LATTICE_CROSS_PRIMARY="emu"))):
    r = expect_lines("unwritten, inputs-only, %s" % args, HALF_SRC, ["half", "-n", "10", "--fill", "inputs-only"] + args,
                     ["  out: 10 x float *, not written yet"], env=env)
    if not re.search(r"^  out = \[0\.5, 1\.5, 2\.5, 3\.5, 4\.5, .*\]; not filled and unchecked: an element no "
                     r"launch wrote holds what the memory held$", r.stdout, re.M):
        failures.append("--fill inputs-only %s: %s%s" % (args, r.stdout, r.stderr))
expect_lines("unwritten, inputs-only, memcheck", HALF_SRC, ["half", "-n", "10", "-c", "memcheck", "--fill", "inputs-only"],
             ["  out: 10 x float *, not written yet",
              "  out = [0.5, 1.5, 2.5, 3.5, 4.5, _, _, ..., _]; 5 of 10 never written ([5] to [9])"])
expect_lines("--fill none", HALF_SRC, ["half", "--fill", "none"], [], status=2,
             stderr="--fill takes inputs, all or inputs-only")
expect_lines("written by atomics", HALF_SRC, ["hist", "-n", "10", "-b", "10", "--show", "5"],
             ["  h = [3, 3, 2, 2, ..., _]; 6 of 10 never written ([4] to [9])"])
expect_lines("written over two steps", HALF_SRC, ["half", "-n", "10", "--then", "rest"],
             ["  out = [0.5, 1.5, 2.5, 3.5, 4.5, -1, -1, ..., _]; 1 of 10 never written ([9])"])

# Templates not instantiated in the source, in namespaces, with defaults: listed by the
# name an instance is run by; one in an anonymous namespace cannot be named, and is not.
with tempfile.TemporaryDirectory() as tmp:
    cu = os.path.join(tmp, "t.cu")
    with open(cu, "w") as f:
        f.write("#define KERNEL __global__\n"
                "template <typename T,\n          int N = 4>\n"
                "KERNEL void fill(T *x) { x[threadIdx.x] = (T)N; }\n"
                "namespace ops { namespace in {\n"
                "template <class T, unsigned B> __global__ void twice(T *x) { x[threadIdx.x] *= B; }\n"
                "template <typename T> __device__ T sq(T v) { return v * v; }\n"
                "} }\n"
                "namespace { template <int N> __global__ void hidden(int *x) { x[0] = N; } }\n")
    r = run(["list", cu])
    want = ["fill<...>: template <typename T, int N = 4> __global__ void fill(T *x)",
            "  (a template: run an instance, e.g. lattice run %s 'fill<float>')" % cu,
            "ops::in::twice<...>: template <class T, unsigned B> __global__ void twice(T *x)",
            "  (a template: run an instance, e.g. lattice run %s 'ops::in::twice<float, 256>')" % cu]
    if r.returncode != 0 or r.stdout.splitlines() != want:
        failures.append("list of templates: status %d, want %s\n%s%s" % (r.returncode, want, r.stdout, r.stderr))
    r = run(["run", cu, "ops::in::twice<float, 256>", "-n", "4", "-c", "none", "--fill", "all"])
    if r.returncode != 0 or not has_line(r.stdout, "  x = [0, 256, 512, 768]"):
        failures.append("run the listed instance: status %d\n%s%s" % (r.returncode, r.stdout, r.stderr))

# -B chooses the backend (issue 46: compute-sanitizer saw no CUDA call, for lattice run
# always ran on the emulator). The emulator stays the default, LATTICE_BACKEND is not read
# (docs/cli.md says so; the library alone reads its variables, tests/env/check_env.py),
# options may come before the file, and what only the emulator can do
# is refused on a GPU with the option named, before any backend is touched.
NO_GPU = dict(os.environ, LATTICE_CUDA_LIBRARY="/nonexistent/libcuda.so.1")
BOUNDS = ["examples/bugs/bounds.cu", "scale_fixed", "-n", "1000", "--show", "3"]
emu_plain = run(["run"] + BOUNDS + ["-c", "none"])
if emu_plain.returncode != 0 or not emu_plain.stdout.startswith("scale_fixed<<<(4,1,1), (256,1,1)>>> on the emulator\n"):
    failures.append("-c none on the emulator: status %d\n%s%s" % (emu_plain.returncode, emu_plain.stdout, emu_plain.stderr))
for args, env, note in ((["-c", "none"], dict(os.environ, LATTICE_BACKEND="cuda"), None),
                        (["-B", "emu", "-c", "none"], dict(os.environ, LATTICE_BACKEND="cuda"), None),
                        # Unchecked without -c: -B best runs unchecked wherever it runs.
                        (["-B", "best"], NO_GPU, "lattice: note: -B best runs on the emulator: lat_context_create: backend cuda"),
                        (["--backend", "best", "-c", "none"], NO_GPU, "-B best runs on the emulator")):
    r = subprocess.run([lattice, "run"] + args + BOUNDS, capture_output=True, text=True, env=env)
    if r.returncode != 0 or r.stdout != emu_plain.stdout or \
            (note and note not in r.stderr) or (not note and "note" in r.stderr):
        failures.append("%s: status %d, want the emulator's unchecked output%s\n%s%s"
                        % (args, r.returncode, " and %r" % note if note else "", r.stdout, r.stderr))
# -B best with an option only the emulator has runs there, checked as asked.
r = subprocess.run([lattice, "run", "-B", "best", "examples/bugs/bounds.cu", "scale", "-n", "1000", "-c", "memcheck"],
                   capture_output=True, text=True, env=NO_GPU)
if r.returncode != 1 or "on the emulator, checks: memcheck" not in r.stdout or "out-of-bounds" not in r.stdout \
        or "note" in r.stderr:
    failures.append("-B best -c memcheck: status %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
expect_lines("-B gpu", "__global__ void k(int *o) {}\n", ["k", "-B", "gpu"], [],
             status=2, stderr="--backend takes emu, cuda, cross or best")
expect_lines("-B with no value", "__global__ void k(int *o) {}\n", ["k", "-B"], [], status=2,
             stderr="an option needs a value")
# No GPU (no driver here, or LATTICE_CUDA_LIBRARY naming none): lattice's reason, status 2,
# nothing run and nothing printed on stdout.
for backend in ("cuda", "cross"):
    r = subprocess.run([lattice, "run", "-B", backend] + BOUNDS, capture_output=True, text=True, env=NO_GPU)
    if r.returncode != 2 or r.stdout or \
            "backend %s (requested by the program) is not available: " % backend not in r.stderr or \
            "LATTICE_CUDA_LIBRARY=/nonexistent/libcuda.so.1 could not be loaded" not in r.stderr:
        failures.append("-B %s without a GPU: status %d\n%s%s" % (backend, r.returncode, r.stdout, r.stderr))
# Refused on a GPU, named as typed, in any step; -c none is the GPU's own.
for backend in ("cuda", "cross"):
    for opts, named in ((["-c", "racecheck"], "-c racecheck"), (["-c", "all"], "-c all"),
                        (["--check", "memcheck,initcheck"], "--check memcheck,initcheck"),
                        (["-c", "none", "--map", "out"], "--map out"), (["-m", "out"], "-m out"),
                        (["--svg", "m.svg"], "--svg m.svg"), (["--png", "m.png"], "--png m.png"),
                        (["--text"], "--text"), (["--reads"], "--reads"), (["--columns", "4"], "--columns 4"),
                        (["--profile"], "--profile"), (["-s", "reverse"], "-s reverse"),
                        (["--schedule", "random:3"], "--schedule random:3"), (["-G"], "-G"),
                        (["--device-debug"], "--device-debug"),
                        (["--then", "scale", "--map", "out"], "--map out"),
                        (["--map", "out", "-c", "initcheck"], "-c initcheck")):
        r = subprocess.run([lattice, "run", "-B", backend] + BOUNDS + opts, capture_output=True,
                           text=True, env=NO_GPU)
        want = "lattice: %s needs the emulator: -B %s runs the kernel without the emulator's checks" % (named, backend)
        if r.returncode != 2 or r.stdout or want not in r.stderr or "not available" in r.stderr:
            failures.append("-B %s %s: status %d, want %r\n%s%s" % (backend, opts, r.returncode, want, r.stdout, r.stderr))
# Options before the file and the kernel; a third word is an error.
r = run(["run", "-c", "none", "-B", "emu"] + BOUNDS)
if r.returncode != 0 or r.stdout != emu_plain.stdout:
    failures.append("options before the file: status %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
r = run(["run"] + BOUNDS[:2] + ["scale"])
if r.returncode != 2 or "'scale' is one argument too many" not in r.stderr:
    failures.append("a third word: status %d\n%s" % (r.returncode, r.stderr))
for args in (["run"], ["run", "-B", "emu", "examples/bugs/bounds.cu"], ["run", "-n", "4"]):
    r = run(args)
    if r.returncode != 2 or "run needs a file and a kernel" not in r.stderr:
        failures.append("%s: status %d\n%s" % (args, r.returncode, r.stderr))
# Cross-checking with the emulator on both sides (the cross suites' LATTICE_CROSS_PRIMARY):
# the run, its steps and its unwritten elements as on the emulator unchecked.
CROSS = dict(os.environ, LATTICE_CROSS_PRIMARY="emu")
# LATTICE_CHECK is not read either: -c says which checks run (the cross context's emulator
# half took it, and failed the launch with racecheck's report of this write-write race).
WW = ("__global__ void ww(float *out, const float *in)\n"
      "{\n    __shared__ int s[1];\n    s[0] = threadIdx.x;\n"
      "    out[threadIdx.x] = in[threadIdx.x] + 1.0f;\n}\n")
with tempfile.TemporaryDirectory() as tmp:
    cu = os.path.join(tmp, "k.cu")
    with open(cu, "w") as f:
        f.write(WW)
    r = subprocess.run([lattice, "run", "-B", "cross", cu, "ww", "-n", "8"], capture_output=True,
                       text=True, env=dict(CROSS, LATTICE_CHECK="all"))
    if r.returncode != 0 or not has_line(r.stdout, "  out = [1, 2, 3, 4, 5, 6, 7, 8]") or "racecheck" in r.stdout + r.stderr:
        failures.append("-B cross under LATTICE_CHECK=all: status %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
for args in (["-n", "10"], ["-n", "10", "--then", "rest"]):
    with tempfile.TemporaryDirectory() as tmp:
        cu = os.path.join(tmp, "k.cu")
        with open(cu, "w") as f:
            f.write(HALF_SRC)
        e = run(["run", cu, "half", "-c", "none"] + args)
        r = subprocess.run([lattice, "run", "-B", "cross", cu, "half"] + args, capture_output=True,
                           text=True, env=CROSS)
    head = "half<<<(1,1,1), (10,1,1)>>> on lattice emulator and on the emulator, compared after each launch"
    if r.returncode != 0 or e.returncode != 0 or r.stdout.split("\n")[0] != head or \
            r.stdout.split("\n")[1:] != e.stdout.split("\n")[1:]:
        failures.append("-B cross %s: status %d, want the emulator's lines after %r\n%s%s\n%s"
                        % (args, r.returncode, head, r.stdout, r.stderr, e.stdout))

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

# Ctrl-C stops a launch that would never end (no deadline: only the interrupt ends it),
# with a message, exit status 130 (issue 40). Checked (the default) and not.
import signal
with tempfile.TemporaryDirectory() as tmp:
    cu = os.path.join(tmp, "busy.cu")
    with open(cu, "w") as f:  # writes, so that synccheck sees no spin
        f.write("__global__ void busy(int *a) { for (;;) a[blockIdx.x * blockDim.x + threadIdx.x]++; }\n")
    for extra in ([], ["-c", "none"]):
        env = dict(os.environ, LATTICE_EMU_TIMEOUT="0", LATTICE_CHECK_TIMEOUT="86400")
        # SIGINT as a shell leaves it to a program (a test runner may block or ignore it).
        p = subprocess.Popen([lattice, "run", cu, "busy", "-g", "2", "-b", "32"] + extra,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                             preexec_fn=lambda: (signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT]),
                                                 signal.signal(signal.SIGINT, signal.SIG_DFL)))
        out = p.stdout.readline()  # the run's first line: it is compiled and about to launch
        try:
            out += p.stdout.readline()
            p.send_signal(signal.SIGINT)
            more, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            more, err = p.communicate()
        if p.returncode != 130 or "lattice: interrupted (Ctrl-C)" not in err or \
                "kernel 'busy' was interrupted" not in err:
            failures.append("Ctrl-C %s: status %d, want 130 and 'lattice: interrupted'\n%s%s%s"
                            % (extra, p.returncode, out, more, err))

for f in failures:
    print("FAIL", f)
print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
