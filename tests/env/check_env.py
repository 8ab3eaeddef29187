"""The environment-variable table in docs/environment.md against the code: the library's
list (LAT_ENV_MAP in src/core/env.h) and the docs' table name the same variables (rows
marked reserved aside); no source reads a LATTICE_* variable but through that list (no
getenv("LATTICE_...") outside env.c); and every LATTICE_* name the sources, headers or the
lattice program mention is in the table."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
fail = []

env_h = (root / "src/core/env.h").read_text()
table = {"LATTICE_" + m for m in re.findall(r"^\s*XX\(([A-Z_]+),", env_h, re.M)}
if not table:
    sys.exit("FAIL: no XX(...) entries in src/core/env.h")

docs = (root / "docs/environment.md").read_text()
rows = re.findall(r"^\| `(LATTICE_[A-Z_]+)` \|(.*)$", docs, re.M)
documented = {name for name, _ in rows}
reserved = {name for name, rest in rows if "reserved" in rest.split("|")[1]}

for name in sorted(table - documented):
    fail.append(f"{name} is read by the library (src/core/env.h) but not in docs/environment.md")
for name in sorted(documented - table - reserved):
    fail.append(f"{name} is in docs/environment.md but the library does not read it")

mentioned = {}
for d in ("src", "include", "tools"):
    for f in sorted((root / d).rglob("*.[ch]")):
        text = f.read_text(errors="replace")
        rel = f.relative_to(root)
        if rel.as_posix() != "src/core/env.c":
            for m in re.finditer(r'getenv\(\s*"(LATTICE_[A-Z_]*)', text):
                fail.append(f"{rel}: reads {m.group(1)} with getenv; read it through src/core/env.h")
        for name in re.findall(r"\bLATTICE_[A-Z][A-Z0-9_]*[A-Z0-9]\b", text):
            if name == "LATTICE_H" or name.endswith("_H"):
                continue  # header guards
            mentioned.setdefault(name, rel)
for name, where in sorted(mentioned.items()):
    if name not in documented:
        fail.append(f"{where} mentions {name}, which docs/environment.md does not list")

for line in fail:
    print("FAIL:", line)
if fail:
    sys.exit(1)
print(f"ok: {len(table)} variables read through src/core/env.h, all in docs/environment.md "
      f"({len(reserved)} reserved); {len(mentioned)} names mentioned in the sources, all listed")
