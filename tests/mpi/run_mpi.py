#!/usr/bin/env python3
"""Runs examples/mpi's mpi_heat under mpirun and checks what it prints.

usage: run_mpi.py MPI_HEAT MPIRUN emu|cuda

emu:  1, 2 and 3 ranks (3 gives uneven bands) on the emulator, with two emulated devices
      so that ranks take different ones; each run checks itself against a single-rank run
      (--check), and all three must print the same grid checksum and residual. Then the
      blocking exchange, which must give the same grid again.
cuda: 2 ranks sharing the GPU, checked against a single-rank run, and the emulator's
      grid: the same checksum.
Exits 77 (skipped) with the reason where MPI or the example or a GPU is missing.
"""
import os
import re
import subprocess
import sys

SKIP = 77


def skip(why):
    print("SKIP: " + why)
    sys.exit(SKIP)


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    heat, mpirun, backend = sys.argv[1:]
    if not heat or not mpirun:
        skip("no MPI library or mpirun found when lattice was configured "
             "(scripts/setup installs openmpi-bin and libopenmpi-dev)")
    version = subprocess.run([mpirun, "--version"], capture_output=True, text=True).stdout
    extra = []
    env = dict(os.environ)
    # Under AddressSanitizer: Open MPI's own allocations outlive MPI_Finalize (its plugins
    # are unloaded with them), and LeakSanitizer would fail every run on them; lattice's
    # leaks are checked by the rest of the suite and by valgrind.
    if "ASAN_OPTIONS" in env:
        env["ASAN_OPTIONS"] += ":detect_leaks=0"
    if "Open MPI" in version or "OpenRTE" in version:
        # More ranks than cores on a CI runner; root in containers; shared memory only.
        extra = ["--oversubscribe", "--bind-to", "none"]
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
        env["OMPI_MCA_btl"] = "self,vader"
        env["OMPI_MCA_btl_vader_single_copy_mechanism"] = "none"
        env["OMPI_MCA_rmaps_base_oversubscribe"] = "1"

    def run(np, backend, *args):
        e = dict(env)
        e["LATTICE_BACKEND"] = backend
        if backend == "emu":
            e["LATTICE_EMU_DEVICES"] = "2"
        cmd = [mpirun, "-np", str(np)] + extra + [heat, "--nx", "160", "--ny", "130",
                                                  "--steps", "60"] + list(args)
        p = subprocess.run(cmd, capture_output=True, text=True, env=e, timeout=240)
        out = p.stdout + p.stderr
        print("$ LATTICE_BACKEND=%s %s\n%s" % (backend, " ".join(cmd), out))
        if p.returncode != 0:
            return None, out
        m = re.search(r"final residual (\S+), grid checksum ([0-9a-f]+)", out)
        return (m.group(1), m.group(2)) if m else None, out

    failures = []
    if backend == "cuda":
        probe = subprocess.run([heat, "--steps", "1", "--quiet"], capture_output=True, text=True,
                               env=dict(env, LATTICE_BACKEND="cuda"))
        if probe.returncode != 0 and ("unavailable" in probe.stderr.lower()
                                      or "not found" in probe.stderr.lower()
                                      or "no cuda" in probe.stderr.lower()):
            skip("no usable GPU: " + probe.stderr.strip().splitlines()[-1])
        gpu, out = run(2, "cuda", "--check")
        if gpu is None or "identical, bit for bit" not in out:
            failures.append("2 ranks on the GPU: not identical to one rank")
        emu, out = run(1, "emu")
        if gpu and emu and gpu != emu:
            failures.append("the GPU's grid %s differs from the emulator's %s" % (gpu, emu))
    else:
        results = {}
        for np in (1, 2, 3):
            r, out = run(np, "emu", "--check")
            if r is None or "identical, bit for bit" not in out:
                failures.append("%d ranks: failed or not identical to one rank" % np)
            results[np] = r
        if len(set(results.values())) != 1:
            failures.append("the rank counts disagree: %s" % results)
        r, out = run(3, "emu", "--blocking")
        if r != results.get(1):
            failures.append("the blocking exchange gives %s, the overlapped %s" % (r, results.get(1)))
    for f in failures:
        print("FAIL: " + f)
    print("%d passed, %d failed" % (0 if failures else 1, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
