"""The environment-variable table in docs/environment.md against the code: the library's
lists (LAT_ENV_MAP in src/core/env.h, the emulator's LAT_EMU_ENV_MAP in
src/emu/backend/env.h) and the docs' table name the same variables (rows marked reserved
aside); no source reads a LATTICE_* variable but through those lists (no
getenv("LATTICE_...") outside core/env.c); every LATTICE_* name the sources, headers or the
lattice program mention is in the table; and the emulator's LATTICE_EMU_* names appear in
src/ only under src/emu/ (the layers: core knows no backend's variables)."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
fail = []

# The tables: core's, and each backend's own (its variables' prefix).
TABLES = (("src/core/env.h", "LATTICE_"), ("src/emu/backend/env.h", "LATTICE_EMU_"))
table = set()
for path, prefix in TABLES:
    rows = re.findall(r"^\s*XX\(([A-Z_]+),", (root / path).read_text(), re.M)
    if not rows:
        sys.exit(f"FAIL: no XX(...) entries in {path}")
    table |= {prefix + m for m in rows}

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
            if (name.startswith("LATTICE_EMU_") and rel.parts[0] == "src"
                    and rel.parts[1] != "emu"):
                fail.append(f"{rel} mentions {name}: the emulator's variables belong to "
                            "src/emu/ alone")
for name, where in sorted(mentioned.items()):
    if name not in documented:
        fail.append(f"{where} mentions {name}, which docs/environment.md does not list")

for line in fail:
    print("FAIL:", line)
if fail:
    sys.exit(1)
print(f"ok: {len(table)} variables read through the tables, all in docs/environment.md "
      f"({len(reserved)} reserved); {len(mentioned)} names mentioned in the sources, all listed")
