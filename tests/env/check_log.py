"""Logging without a logger and LAT_TRY, as a user sees them on stderr."""
import os
import subprocess
import sys

prog = sys.argv[1]
fails = 0


def run(mode, **env):
    e = dict(os.environ, LATTICE_BACKEND="emu")
    e.pop("LATTICE_LOG", None)
    e.pop("LATTICE_CHECK", None)  # a checked context's first line is its "checks on" warning
    e.update(env)
    return subprocess.run([prog, mode], env=e, capture_output=True, text=True, timeout=60)


def expect(what, cond, r):
    global fails
    if cond:
        print("ok", what)
    else:
        fails += 1
        print(f"FAIL {what}: exit {r.returncode}\nstdout: {r.stdout}\nstderr: {r.stderr}")


r = run("leak")
expect("a leak at context destroy is a warning on stderr by default",
       r.returncode == 0 and "lattice: warning: lat_context_destroy: freed 1 allocation (400 bytes) "
       "still live" in r.stderr, r)
r = run("leak", LATTICE_LOG="error")
expect("LATTICE_LOG=error hides warnings", r.returncode == 0 and r.stderr == "", r)
r = run("ok", LATTICE_LOG="info")
expect("LATTICE_LOG=info shows notes", "lattice: info: lattice 0." in r.stderr, r)
r = run("ok", LATTICE_CHECK="memcheck")
expect("the checks being on is a warning", "lattice: warning: lattice checks on: memcheck"
       in r.stderr, r)
r = run("ok", LATTICE_LOG="loud")
expect("a malformed LATTICE_LOG fails context creation, naming it",
       r.returncode == 1 and "LATTICE_LOG='loud' is not valid: expected none|error|warning|info"
       in r.stderr and "LAT_ERROR_INVALID_VALUE" in r.stderr, r)
r = run("fail", LATTICE_LOG="none")
expect("LAT_TRY prints file, line, the call and the error, and exits 1",
       r.returncode == 1 and "log_prog.c:16: lat_memcpy_htod(ctx, p, mode, 800) failed: "
       "LAT_ERROR_INVALID_ADDRESS" in r.stderr and "800 bytes" in r.stderr and "done" not in r.stdout, r)
r = run("fail")
expect("by default the library's own error line comes first",
       r.stderr.startswith("lattice: error: lat_memcpy_htod"), r)
sys.exit(1 if fails else 0)
