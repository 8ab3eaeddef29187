"""Counts test cases from meson's testlog.json.

Each lattice test binary ends its output with "N passed, N failed, N skipped"; a test
without such a line (an example, a compile check) counts as one case by meson's verdict.
Prints one line per failing test, then the totals on a line of their own.
"""
import json
import re
import sys

LINE = re.compile(r"^(\d+) passed, (\d+) failed, (\d+) skipped$", re.M)

passed = failed = skipped = 0
with open(sys.argv[1], encoding="utf-8") as f:
    for raw in f:
        t = json.loads(raw)
        out = t.get("stdout") or ""
        m = LINE.findall(out)
        result = t["result"]
        if m and result in ("OK", "FAIL", "SKIP"):
            p, fl, s = map(int, m[-1])
            passed, failed, skipped = passed + p, failed + fl, skipped + s
            if result == "FAIL" and fl == 0:
                failed += 1  # it crashed after printing its totals
        elif result == "OK":
            passed += 1
        elif result in ("SKIP", "EXPECTEDFAIL"):
            skipped += 1
        else:
            failed += 1
        if result not in ("OK", "SKIP", "EXPECTEDFAIL"):
            print(f"failed: {t['name']} ({result})")
print(f"{passed} passed, {failed} failed, {skipped} skipped")
