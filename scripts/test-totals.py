"""Counts test cases from meson's testlog.json.

Each lattice test binary ends its output with "N passed, N failed, N skipped"; a test
without such a line (an example, a compile check) counts as one case by meson's verdict.
Prints one line per failing test, then why cases were skipped (one line per reason, with
how many and where), then the totals on a line of their own.

A skipped case says why: the harness prints "skip CASE: reason", a script "SKIP: reason".
A skip that gives no reason is listed as such, so that it gets one (the harness fails a
case that skips without one).
"""
import json
import re
import sys

LINE = re.compile(r"^(\d+) passed, (\d+) failed, (\d+) skipped$", re.M)
CASE_SKIP = re.compile(r"^skip (\S+): (.*)$", re.M)
SCRIPT_SKIP = re.compile(r"^(?:\S+: )?(?:SKIP|skip): ?(.*)$", re.M)
NO_REASON = "(no reason given)"

passed = failed = skipped = 0
reasons = {}  # reason -> [count, [where...]]


def note_skip(reason, where, count=1):
    # Addresses, pids and temporary paths make reasons that are one differ.
    reason = re.sub(r"0x[0-9a-f]+|/tmp/\S+", "...", reason.strip()) or NO_REASON
    entry = reasons.setdefault(reason, [0, []])
    entry[0] += count
    entry[1].append(where)


with open(sys.argv[1], encoding="utf-8") as f:
    for raw in f:
        t = json.loads(raw)
        out = (t.get("stdout") or "") + (t.get("stderr") or "")
        name = t["name"].split(":", 1)[-1].strip()
        m = LINE.findall(out)
        result = t["result"]
        if m and result in ("OK", "FAIL", "SKIP"):
            p, fl, s = map(int, m[-1])
            passed, failed, skipped = passed + p, failed + fl, skipped + s
            if result == "FAIL" and fl == 0:
                failed += 1  # it crashed after printing its totals
            cases = CASE_SKIP.findall(out)
            for case, why in cases:
                note_skip(why, "%s: %s" % (name, case))
            if s > len(cases):
                whys = SCRIPT_SKIP.findall(out)
                note_skip(whys[-1] if whys else "", name, s - len(cases))
        elif result == "OK":
            passed += 1
        elif result in ("SKIP", "EXPECTEDFAIL"):
            skipped += 1
            whys = SCRIPT_SKIP.findall(out) or [c[1] for c in CASE_SKIP.findall(out)]
            note_skip(whys[-1] if whys else "", name)
        else:
            failed += 1
        if result not in ("OK", "SKIP", "EXPECTEDFAIL"):
            print(f"failed: {t['name']} ({result})")
for reason, (count, where) in sorted(reasons.items(), key=lambda r: -r[1][0]):
    shown = ", ".join(where[:3]) + (", ..." if len(where) > 3 else "")
    print(f"skipped {count}: {reason} [{shown}]")
print(f"{passed} passed, {failed} failed, {skipped} skipped")
