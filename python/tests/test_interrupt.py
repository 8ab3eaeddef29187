"""Ctrl-C during a launch that would never end raises KeyboardInterrupt at once, and the
context goes on working (issue 40, item 8); lattice.core.interrupt() from another thread
raises lattice's InterruptedError.

The kernels spin on a flag nobody sets and the launches have no deadline
(LATTICE_EMU_TIMEOUT=0): only the interrupt ends them. The child processes are waited for
with a generous bound only so that a broken interrupt fails the test instead of hanging it.
"""
import os
import signal
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import lattice
from lattice import core
from lattice.errors import InterruptedError as LatticeInterrupted, LatticeError

PKG_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SPIN = "__global__ void spin(volatile int *flag) { while (*flag == 0) ; }"

CHILD = textwrap.dedent('''
    import os, sys
    import numpy as np
    OWN_FD = os.environ.get("OWN_WAKEUP_FD") == "1"
    if OWN_FD:  # a program's own wakeup fd, set before lattice's
        import signal
        r, w = os.pipe()
        os.set_blocking(w, False)
        signal.set_wakeup_fd(w)
    import lattice
    ctx = lattice.Context(backend="emu")
    ctx.push()
    spin = lattice.Module(%r).get_function("spin")
    flag = np.zeros(1, np.int32)
    print("launching", flush=True)
    try:
        spin(lattice.In(flag), block=(64, 1, 1), grid=(8, 1, 1))
        print("returned", flush=True)
    except KeyboardInterrupt:
        print("KeyboardInterrupt", flush=True)
    if OWN_FD:
        print("own fd got SIGINT:", bytes([signal.SIGINT]) in os.read(r, 100), flush=True)
    rng = np.random.default_rng(7)
    a = rng.standard_normal(1000).astype(np.float32)
    out = np.empty_like(a)
    twice = lattice.Module(
        "__global__ void twice(float *o, const float *a, int n)"
        "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = 2 * a[i]; }"
    ).get_function("twice")
    twice(lattice.Out(out), lattice.In(a), np.int32(a.size), block=(128, 1, 1), grid=(8, 1, 1))
    print("usable:", bool(np.array_equal(out, 2 * a)), flush=True)
''' % SPIN)


def run_child(extra_env=None):
    env = dict(os.environ, LATTICE_EMU_TIMEOUT="0", LATTICE_BACKEND="emu",
               PYTHONPATH=PKG_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.update(extra_env or {})
    p = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert p.stdout.readline().strip() == "launching", p.stderr.read()
        # The main thread is in the launch's C call by now, or enters it next.
        threading.Event().wait(0.3)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        p.kill()
        p.wait()
    assert p.returncode == 0, err
    return out.split("\n")


def test_ctrl_c_during_an_endless_launch_raises_keyboard_interrupt():
    lines = run_child()
    assert "KeyboardInterrupt" in lines
    assert "returned" not in lines
    assert "usable: True" in lines


def test_ctrl_c_still_reaches_a_wakeup_fd_set_before_lattice():
    lines = run_child({"OWN_WAKEUP_FD": "1"})
    assert "KeyboardInterrupt" in lines
    assert "own fd got SIGINT: True" in lines
    assert "usable: True" in lines


def test_interrupt_from_another_thread_raises_lattice_interrupted_error(backend, monkeypatch):
    if backend != "emu":
        pytest.skip("about the emulator's launches")
    monkeypatch.setenv("LATTICE_EMU_TIMEOUT", "0")
    ctx = lattice.Context(backend="emu")
    try:
        ctx.push()
        spin = lattice.Module(SPIN).get_function("spin")
        done = threading.Event()

        def interrupter():
            while not done.wait(0.02):
                core.interrupt()

        t = threading.Thread(target=interrupter)
        t.start()
        try:
            with pytest.raises(LatticeInterrupted) as e:
                spin(lattice.In(np.zeros(1, np.int32)), block=(32, 1, 1), grid=(2, 1, 1))
        finally:
            done.set()
            t.join()
        assert isinstance(e.value, LatticeError) and isinstance(e.value, InterruptedError)
        assert "spin" in e.value.message and e.value.status == "LAT_ERROR_INTERRUPTED"
    finally:
        ctx.pop()
        ctx.detach()
