"""PyCUDA's ``pycuda.debug``: ``python -m pycuda.debug SCRIPT [ARGS]`` runs SCRIPT with
every SourceModule built for debuggers (``driver.set_debugging()``: ``-G``, which on the
emulator builds kernels for gdb and lldb, docs/debugging.md). Imported from a program, it
sets the same and then expects its command line to name the script, as PyCUDA's does."""

from __future__ import annotations

import sys
from optparse import OptionParser
from os.path import exists

from . import driver as _driver

_driver.set_debugging()

_parser = OptionParser(usage="usage: %prog [options] SCRIPT-TO-RUN [SCRIPT-ARGUMENTS]")
_parser.disable_interspersed_args()
_options, _args = _parser.parse_args()

if len(_args) < 1:
    _parser.print_help()
    sys.exit(2)

_main = _args[0]
if not exists(_main):
    print("Error:", _main, "does not exist")
    sys.exit(1)

sys.argv = _args
with open(_main) as _f:
    exec(compile(_f.read(), _main, "exec"))
