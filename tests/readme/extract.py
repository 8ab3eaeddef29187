"""Writes the README's first C code block to a file, so the test suite compiles and runs
the example exactly as a reader sees it."""
import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"```c\n(.*?)```", text, re.S)
if not m:
    sys.exit("no ```c block in " + sys.argv[1])
open(sys.argv[2], "w", encoding="utf-8").write(m.group(1))
