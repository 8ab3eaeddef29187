#!/usr/bin/env python3
"""gdb (or lldb) debugs a kernel built with -G (docs/debugging.md), scripted in batch mode.

Runs `gdb -batch -x CMDS --args lattice run debug_kernel.cu smooth ... -G` (with --lldb:
`lldb -b -s CMDS -- lattice run ...`) and checks that
a breakpoint conditioned on threadIdx.x == 5 && blockIdx.x == 1 stops that thread and no
other, that its locals, parameters and __shared__ array print by their source names with
the values that thread computed (from a random scalar parameter, so never zeros), after
`next` over the barrier the value its neighbour stored in the shared array (after a pause
longer than the launch's deadline, which a debugger's pause does not hit), that the
names threadIdx and blockIdx hold the thread's indices in a __device__ function's frame
too (at a one-line function's first line as well), that the backtrace runs through the __device__ function to the kernel, and that
`next` stays on the .cu file's lines. No timing is involved.

Exit status 77 (skipped, with the reason) where the debugger or a C compiler is missing,
or where the machine forbids ptrace.

usage: check_gdb.py [--lldb] LATTICE_PROGRAM KERNEL_FILE
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile


def skip(why):
    print(f"skip: {why}")
    sys.exit(77)


def line_of(path, marker):
    with open(path) as f:
        for n, text in enumerate(f, 1):
            if f"// BREAK {marker}" in text:
                return n
    sys.exit(f"{path}: no '// BREAK {marker}' line")


def gdb_session(name, sline, kline, dline, oline):
    """gdb's commands, and what its output must hold (description, pattern) given the
    expected values."""
    cmds = f"""set pagination off
set confirm off
set width 0
set breakpoint pending on
break {name}:{sline} if threadIdx.x == 5 && blockIdx.x == 1
run
shell sleep 2
printf "KERNEL t=%d i=%d row=%d col=%d tx=%d bx=%d bdim=%d n=%d bias=%d\\n", t, i, row, col, threadIdx.x, blockIdx.x, blockDim.x, n, bias
next
next
next
next
info line *$pc
printf "SHARED mine=%.2f t05=%.2f t06=%.2f\\n", mine, tile[0][5], tile[0][6]
ptype tile
break {name}:{dline} if threadIdx.x == 5 && blockIdx.x == 1
break {name}:{oline} if threadIdx.x == 7 && blockIdx.x == 2
continue
bt
step
info line *$pc
printf "DEVICE a=%.2f b=%.2f k=%d w=%.2f tx=%d bx=%d\\n", a, b, k, w, threadIdx.x, blockIdx.x
next
printf "STEP mixed=%.2f\\n", mixed
continue
printf "ONELINE t=%d tx=%d bx=%d\\n", t, threadIdx.x, blockIdx.x
info breakpoints
continue
"""

    def expectations(bias, mine, nxt, w, mixed):
        f = re.escape(name)
        return [
            ("the kernel breakpoint stops thread 5 of block 1",
             rf"^Breakpoint 1, smooth \(.*\) at .*{f}:{sline}$"),
            # Over the barrier: the other threads ran up to it meanwhile, so the
            # neighbour's element of the tile is there.
            ("next steps over __syncthreads() to the kernel's later lines",
             rf'^Line {kline} of ".*{f}"'),
            ("locals, parameters and indices in the kernel",
             rf"^KERNEL t=5 i=69 row=0 col=5 tx=5 bx=1 bdim=64 n=150 bias={bias}$"),
            ("locals and the __shared__ array by their names",
             rf"^SHARED mine={mine:.2f} t05={mine:.2f} t06={nxt:.2f}$"),
            ("the __shared__ array's type", r"^type = float \[8\]\[33\]$"),
            ("the __device__ function's breakpoint",
             rf"^Breakpoint 2, blend \(.*\) at .*{f}:{dline}$"),
            ("parameters, locals and indices in the __device__ function",
             rf"^DEVICE a={mine:.2f} b={nxt:.2f} k=5 w={w:.2f} tx=5 bx=1$"),
            ("the backtrace's __device__ frame", rf"^#0 +blend \(.*\) at .*{f}:{dline}$"),
            ("the backtrace's kernel frame", rf"^#1 +.* in smooth \(.*\) at .*{f}:\d+$"),
            ("step goes over the emulator's min() and stays on the .cu file's lines",
             rf'^Line {dline + 1} of ".*{f}"'),
            ("the value computed by the stepped line", rf"^STEP mixed={mixed:.2f}$"),
            # A breakpoint at a one-line function's line stops before its first
            # statement: the thread's indices hold that thread's there too.
            ("a one-line __device__ function's breakpoint",
             rf"^Breakpoint 3, lane_of \(.*\) at .*{f}:{oline}$"),
            ("the indices at a function's first instruction", r"^ONELINE t=7 tx=7 bx=2$"),
            ("the program ran to its end", r"exited normally|exited with code 0+\]"),
        ]

    return ["-nx", "-batch", "-x"], ["--args"], cmds, expectations, r"breakpoint already hit 1 time"


def lldb_session(name, sline, kline, dline, oline):
    """lldb's commands and expectations, as gdb_session's."""
    cond = "--condition 'threadIdx.x == {} && blockIdx.x == {}'"
    cmds = f"""settings set auto-confirm true
breakpoint set --file {name} --line {kline} {cond.format(5, 1)}
breakpoint set --file {name} --line {dline} {cond.format(5, 1)}
breakpoint set --file {name} --line {oline} {cond.format(7, 2)}
run
frame variable t i row col mine n bias
expression tile[0][6]
expression threadIdx.x + 1000 * blockIdx.x
expression sizeof(tile)
continue
next
frame variable a b k w
expression threadIdx.x + 2000 * blockIdx.x
bt 2
next
frame variable mixed
continue
expression threadIdx.x + 3000 * blockIdx.x
breakpoint list
continue
"""

    def expectations(bias, mine, nxt, w, mixed):
        f = re.escape(name)
        return [
            ("the kernel breakpoint", r"stop reason = breakpoint 1\.1"),
            ("the kernel's locals and parameters", r"^\(int\) t = 5\n\(int\) i = 69\n"
             r"\(int\) row = 0\n\(int\) col = 5\n"
             rf"\(float\) mine = {mine:g}\n\(int\) n = 150\n\(int\) bias = {bias}$"),
            ("the __shared__ array by its name", rf"^\(float\) \$0 = {nxt:g}$"),
            ("the indices in the kernel (5 of block 1)", r"^\(unsigned int\) \$1 = 1005$"),
            ("the __shared__ array's size", r"^\(unsigned long\) \$2 = 1056$"),
            ("the __device__ function's breakpoint", r"stop reason = breakpoint 2\.1"),
            ("the __device__ function's parameters and locals",
             rf"^\(float\) a = {mine:g}\n\(float\) b = {nxt:g}\n\(int\) k = 5\n\(float\) w = {w:g}$"),
            ("the indices in the __device__ function", r"^\(unsigned int\) \$3 = 2005$"),
            ("the backtrace's __device__ frame", rf"frame #0: .*`blend\(.*\) at {f}:{dline + 1}"),
            ("the backtrace's kernel frame", rf"frame #1: .*`smooth\(.*\) at {f}:\d+"),
            ("the value computed by the stepped line", rf"^\(float\) mixed = {mixed:g}$"),
            ("a one-line __device__ function's breakpoint", r"stop reason = breakpoint 3\.1"),
            ("the indices at a function's first instruction", r"^\(unsigned int\) \$4 = 6007$"),
            ("the program ran to its end", r"exited with status = 0 "),
        ]

    return ["-b", "-s"], ["--"], cmds, expectations, r"hit count = 1$"


def main():
    lldb = sys.argv[1] == "--lldb"
    args = sys.argv[2:] if lldb else sys.argv[1:]
    lattice, kernel = os.path.abspath(args[0]), os.path.abspath(args[1])
    tool = "lldb" if lldb else "gdb"
    debugger = shutil.which(tool)
    if not debugger:
        skip(f"{tool} is not installed (apt-get install {tool})")
    if not any(shutil.which(c) for c in ("cc", "gcc", "clang")):
        skip("no C compiler: -G builds the module with one")
    name = os.path.basename(kernel)
    kline, dline = line_of(kernel, "kernel"), line_of(kernel, "device")
    sline, oline = line_of(kernel, "store"), line_of(kernel, "oneline")
    before, after, cmds, expectations, hit_once = (lldb_session if lldb else gdb_session)(
        name, sline, kline, dline, oline)
    bias = random.Random().randint(1, 1000)
    print(f"bias = {bias}")
    env = dict(os.environ)
    env.pop("DEBUGINFOD_URLS", None)
    # LeakSanitizer cannot run under a debugger (it uses ptrace itself): an ASan build's
    # program is debugged with the leak check off; everything else ASan checks stays on.
    env["ASAN_OPTIONS"] = ":".join(
        [o for o in env.get("ASAN_OPTIONS", "").split(":") if o and not o.startswith("detect_leaks")]
        + ["detect_leaks=0"])
    env["LATTICE_LOG"] = "error"
    # A pause in the debugger (gdb's `shell sleep 2`) is not a hang: under a debugger a -G
    # launch has no deadline, so the run still ends normally.
    env["LATTICE_EMU_TIMEOUT"] = "1"
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cmds")
        with open(path, "w") as f:
            f.write(cmds)
        argv = [debugger, *before, path, *after, lattice, "run", kernel, "smooth",
                "-g", "3", "-b", "64", "-n", "150", "-a", f"bias={bias}", "-G"]
        r = subprocess.run(argv, env=env, cwd=tmp, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=300)
    out = r.stdout
    print(out)
    if re.search(r"ptrace: Operation not permitted|Could not trace the inferior|"
                 r"error: process launch failed", out):
        skip(f"this machine does not let {tool} trace a process (ptrace)")

    # in[i] is i (lattice run fills inputs so); thread 5 of block 1 is i = 69.
    mine, nxt = 69 * 3.0 + bias, 70 * 3.0 + bias
    w = 0.25 * (5 % 4)
    mixed = mine * (1 - w) + nxt * w
    failures = [f"{what}: no match for {pattern!r}"
                for what, pattern in expectations(bias, mine, nxt, w, mixed)
                if not re.search(pattern, out, re.M)]
    # Each conditional breakpoint stopped once: no other thread matched.
    if len(re.findall(hit_once, out, re.M)) != 3:
        failures.append("each breakpoint should have stopped exactly once")
    for f in failures:
        print("FAIL:", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
