"""What a newcomer trips on in the docs, checked: a page cited anywhere (README, docs/,
the headers, the sources, the Python package) exists; no sentence ends in ':' with nothing
after it (the next block must be what the colon announces: code, a list, a table, a
picture); the README's quick start is exactly two commands, each a script of the
repository; and the README says where the library is installed and how a program finds
it (LD_LIBRARY_PATH, rpath, pkg-config, CMake).

usage: check_docs.py SOURCE_ROOT"""
import os
import re
import sys

root = sys.argv[1]
os.chdir(root)
failures = []


def text_files():
    for top in ("README.md", "docs", "include", "src", "python", "tools", "examples", "scripts"):
        if os.path.isfile(top):
            yield top
            continue
        for d, _, names in os.walk(top):
            for n in names:
                if n.endswith((".md", ".h", ".c", ".py", ".txt")) or d.endswith("scripts"):
                    yield os.path.join(d, n)


# 1. Cited pages exist.
for path in text_files():
    try:
        text = open(path, encoding="utf-8").read()
    except (UnicodeDecodeError, OSError):
        continue
    for m in re.finditer(r"(?<![\w/.])docs/([\w.-]+\.md)", text):
        if not os.path.isfile(os.path.join("docs", m.group(1))):
            line = text.count("\n", 0, m.start()) + 1
            failures.append("%s:%d cites docs/%s, which does not exist" % (path, line, m.group(1)))

# 2. A colon announces something.
ANNOUNCED = re.compile(r"^(```|    |\t|[-*+] |\d+\. |\||!\[|>|<)")
for path in ["README.md"] + sorted(os.path.join("docs", n) for n in os.listdir("docs") if n.endswith(".md")):
    lines = open(path, encoding="utf-8").read().split("\n")
    fenced = False
    for i, l in enumerate(lines):
        if l.startswith("```"):
            fenced = not fenced
            continue
        # A colon that ends a paragraph (a colon at a line's end inside one is wrapped text).
        if fenced or not l.rstrip().endswith(":") or l.startswith(("#", "|", "    ")) or \
                (i + 1 < len(lines) and lines[i + 1].strip()):
            continue
        nxt = next((x for x in lines[i + 1:] if x.strip()), "")
        if not ANNOUNCED.match(nxt) and not re.match(r"^\s+", nxt):
            failures.append("%s:%d ends in ':' and what follows is not what it announces: %r"
                            % (path, i + 1, nxt[:60]))

# 3. The quick start: two commands that exist.
readme = open("README.md", encoding="utf-8").read()
m = re.search(r"## Quick start[^\n]*\n+```sh\n(.*?)```", readme, re.S)
if not m:
    failures.append("README.md: no ```sh block under '## Quick start'")
else:
    cmds = [l for l in m.group(1).split("\n") if l.strip()]
    if len(cmds) != 2:
        failures.append("README.md: the quick start has %d commands, want 2" % len(cmds))
    for c in cmds:
        prog = c.split()[0]
        if not (os.path.isfile(prog) and os.access(prog, os.X_OK)):
            failures.append("README.md: quick start command %r: %s is not an executable script" % (c, prog))

# 4. Where the library lands and how a program finds it.
for word in ("LD_LIBRARY_PATH", "rpath", "pkg-config", "find_package(lattice", "lib/x86_64-linux-gnu"):
    if word not in readme:
        failures.append("README.md does not say %r (where the library lands and how a program finds it)" % word)

for f in failures:
    print("FAIL", f)
print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
