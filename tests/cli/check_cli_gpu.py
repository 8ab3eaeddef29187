"""`lattice run -B cuda` and `-B cross` on a GPU (suite cuda; it skips, with lattice's reason,
where none is usable). Each of the bug zoo's corrected kernels prints, on the GPU, the values a
host reference computes, and the same lines the emulator prints unchecked: the same buffers,
the same "as filled" notes (the unwritten elements are found by the zero fill on both).
Cross-checked, each runs clean. The zoo's bugs run on the GPU too, unchecked; under
NVIDIA's compute-sanitizer (where it is installed) the fixes run clean and the bugs it can see
are found.

usage: check_cli_gpu.py LATTICE_BINARY SOURCE_ROOT"""
import os
import re
import shutil
import struct
import subprocess
import sys

lattice, root = os.path.abspath(sys.argv[1]), sys.argv[2]
os.chdir(root)
failures = []


def run(args, timeout=120):
    try:
        return subprocess.run([lattice, "run"] + args, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(args, -1, "", "did not finish in %d s" % timeout)


probe = run(["-B", "cuda", "examples/bugs/bounds.cu", "scale_fixed", "-n", "4"])
if probe.returncode == 2 and "is not available" in probe.stderr:
    print("SKIP: no GPU: " + probe.stderr.strip().splitlines()[-1])
    sys.exit(77)


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def buffers(out):
    """{name: ([values as floats], note)} of the printed outputs ("  out = [...]; note")."""
    got = {}
    for line in out.splitlines():
        m = re.match(r"  (\w+) = \[(.*?)\](.*)$", line)
        if m:
            got[m.group(1)] = ([float(v) for v in m.group(2).split(", ")], m.group(3))
    return got


def smooth(n):
    s = [0.0] + [float(i) for i in range(n)] + [0.0]
    # Each block of 256 loads its own halo: the neighbours across a block's edge are in[].
    return [f32(f32(s[i] + s[i + 1] + s[i + 2]) / 3) for i in range(n)]


# The corrected command of each zoo file (as the file shows it), and what the host says
# each output must hold: values, and the elements the kernel leaves at their zero fill.
FIXED = {
    "atomic_mixed": (["histogram_fixed", "-n", "512"],
                     {"bins": [16.0] * 32 + [0.0] * 480}),
    "bounds": (["scale_fixed", "-n", "1000"], {"out": [2.0 * i for i in range(1000)]}),
    "divergent_barrier": (["halves_fixed", "-n", "64", "-b", "64"],
                          {"out": [2.0 * t + 32 for t in range(32)] + [0.0] * 32}),
    "missing_barrier": (["reverse_fixed", "-n", "512"],
                        {"out": [float(i // 256 * 256 + 255 - i % 256) for i in range(512)]}),
    "off_by_one_grid": (["scale", "-n", "1000", "--then", "sum_pairs", "-g", "2"],
                        {"out": [2.0 * i for i in range(1000)],
                         "sums": [8.0 * i + 2 for i in range(500)] + [0.0] * 500}),
    "racy_counter": (["count_positive_fixed", "-n", "512"], {"out": [255.0, 256.0] + [0.0] * 510}),
    "uninit_shared": (["smooth_fixed", "-n", "512"], {"out": smooth(512)}),
    "wrong_2d_index": (["fill_fixed", "-n", "32", "-g", "2,1", "-b", "4,4"],
                       {"m": [float(i // 8) for i in range(32)]}),
}

for name, (args, want) in sorted(FIXED.items()):
    path = "examples/bugs/%s.cu" % name
    lines = open(path, encoding="utf-8").read()
    if "$ lattice run %s %s\n" % (path, " ".join(args)) not in lines:
        failures.append("%s: its corrected command is no longer %s" % (path, " ".join(args)))
    gpu = run(["-B", "cuda", path] + args + ["--show", "0"])
    emu = run([path] + args + ["-c", "none", "--show", "0"])
    head = gpu.stdout.split("\n", 1)[0]
    if gpu.returncode != 0 or not re.search(r">>> on the GPU \(.+\)$", head) or "checks" in head:
        failures.append("%s on the GPU: status %d, first line %r\n%s" % (path, gpu.returncode, head, gpu.stderr))
        continue
    # The same lines as the emulator's, but for where the first step ran.
    if gpu.stdout.split("\n")[1:] != emu.stdout.split("\n")[1:]:
        failures.append("%s: the GPU printed\n%s\nthe emulator\n%s" % (path, gpu.stdout, emu.stdout))
    got = buffers(gpu.stdout)
    for buf, values in want.items():
        printed = got.get(buf, ([], ""))
        zero = [i for i, v in enumerate(values) if v == 0]
        note = "" if not zero else "; %d of %d as filled, never written or written alike " \
               "(checks tell which: %s)" % (len(zero), len(values),
                                            "[%d]" % zero[0] if len(zero) == 1 else "[%d] to [%d]" % (zero[0], zero[-1]))
        if printed[0] != [float("%g" % v) for v in values] or printed[1] != note:
            failures.append("%s: '%s' on the GPU is %s%s, the host says %s%s"
                            % (path, buf, printed[0][:12], printed[1], values[:12], note))
    cross = run(["-B", "cross", path] + args)
    if cross.returncode != 0 or "and on the emulator, compared after each launch" not in cross.stdout:
        failures.append("%s cross-checked: status %d\n%s%s" % (path, cross.returncode, cross.stdout, cross.stderr))

# --fill inputs-only leaves the outputs as cuMemAlloc gave them, for compute-sanitizer's
# initcheck: what the kernels wrote is right, and the lines say the rest is unknown.
r = run(["-B", "cuda", "examples/bugs/off_by_one_grid.cu", "scale", "-n", "1000", "-g", "3", "--then",
         "sum_pairs", "-g", "2", "--fill", "inputs-only", "--show", "0"])
got = buffers(r.stdout)
note = "; not filled and unchecked: an element no launch wrote holds what the memory held"
if r.returncode != 0 or r.stdout.count(", not written yet") != 2 or \
        got.get("out", ([], ""))[0][:768] != [2.0 * i for i in range(768)] or got["out"][1] != note or \
        got.get("sums", ([], ""))[0][:384] != [8.0 * i + 2 for i in range(384)] or got["sums"][1] != note:
    failures.append("--fill inputs-only on the GPU: status %d\n%s%s" % (r.returncode, r.stdout, r.stderr))

# -B best takes the GPU when nothing asks for the emulator.
best = run(["-B", "best", "examples/bugs/bounds.cu", "scale_fixed", "-n", "8"])
if best.returncode != 0 or ">>> on the GPU (" not in best.stdout or best.stderr:
    failures.append("-B best: status %d\n%s%s" % (best.returncode, best.stdout, best.stderr))

# The bugs, unchecked on the GPU, as compute-sanitizer runs them (the thread map's options
# are the emulator's and are left out): each runs and ends, its launch succeeding or failing
# as the GPU has it (what a bug does there is undefined), lattice neither crashing nor
# hanging.
for name in sorted(os.listdir("examples/bugs")):
    if not name.endswith(".cu"):
        continue
    path = os.path.join("examples/bugs", name)
    cmd = [l for l in open(path, encoding="utf-8").read().split("\n") if l.startswith("//   $ lattice run ")]
    if not cmd:
        continue
    args = cmd[0][len("//   $ lattice run "):].split()
    for opt in ("--map", "-m"):
        while opt in args:
            del args[args.index(opt):args.index(opt) + 2]
    args = [a for a in args if a not in ("--text", "--reads")]
    r = run(["-B", "cuda"] + args, timeout=60)
    if r.returncode not in (0, 1) or ">>> on the GPU (" not in r.stdout or \
            (r.returncode == 1 and "failed: " not in r.stdout):
        failures.append("%s's bug on the GPU: status %d\n%s%s" % (path, r.returncode, r.stdout, r.stderr))

# NVIDIA's compute-sanitizer over the same runs (what -B cuda is for): each corrected kernel
# runs clean under the tool that names its bug, and the bugs it can see are found. Not
# asserted: a race in global memory (wrong_2d_index: racecheck watches shared memory only),
# uninitialised shared memory (uninit_shared: initcheck watches global memory only), and
# atomic_mixed and divergent_barrier, whose reports depend on the GPU.
sanitizer = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
if not os.access(sanitizer, os.X_OK):
    print("skip compute-sanitizer: not on PATH nor in /usr/local/cuda/bin")
else:
    TOOLS = {"atomic_mixed": "racecheck", "bounds": "memcheck", "divergent_barrier": "synccheck",
             "missing_barrier": "racecheck", "off_by_one_grid": "initcheck", "racy_counter": "racecheck",
             "uninit_shared": "initcheck", "wrong_2d_index": "racecheck"}
    FOUND = {"bounds": ["scale", "-n", "1000"], "missing_barrier": ["reverse", "-n", "512"],
             "off_by_one_grid": ["scale", "-n", "1000", "-g", "3", "--then", "sum_pairs", "-g", "2"],
             "racy_counter": ["count_positive", "-n", "512"]}

    def sanitize(name, args, fill):
        # Outputs left unfilled for initcheck to see the bug's reads; zeros for the fixes,
        # whose outputs keep elements no kernel writes (copied back to be printed).
        cmd = [sanitizer, "--tool", TOOLS[name], "--error-exitcode", "9", lattice, "run", "-B", "cuda",
               "--fill", fill, "examples/bugs/%s.cu" % name] + args
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            return subprocess.CompletedProcess(cmd, -1, "", "did not finish in 120 s")

    for name, (args, _) in sorted(FIXED.items()):
        r = sanitize(name, args, "inputs")
        if r.returncode != 0:
            failures.append("compute-sanitizer --tool %s on %s's fix: status %d\n%s%s"
                            % (TOOLS[name], name, r.returncode, r.stdout, r.stderr))
    for name, args in sorted(FOUND.items()):
        r = sanitize(name, args, "inputs-only")
        if r.returncode != 9:
            failures.append("compute-sanitizer --tool %s on %s's bug: status %d, want 9 (errors found)\n%s%s"
                            % (TOOLS[name], name, r.returncode, r.stdout, r.stderr))

for f in failures:
    print("FAIL", f)
print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
