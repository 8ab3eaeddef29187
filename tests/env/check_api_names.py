"""Issue 43's rule for messages, held against the source: every public function that can
fail opens with LAT__API() (so that lat__error names it), and no error message spells a
public function's name by hand (it would name the wrong one when called from another)."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
# Functions that record nothing: lat_interrupt is async-signal-safe (no thread-local
# state), the rest read or print what was recorded.
EXEMPT = {"lat_interrupt", "lat_last_error", "lat_status_name", "lat_status_string",
          "lat_report_failure", "lat_log_stderr_level"}
definition = re.compile(r"^(?!static)(?:const )?[a-z_0-9]+ \**(lat_[a-z0-9][a-z0-9_]*)\(", re.M)
# lat__error(ctx, status, "lat_x: ...") or lat__error_logged(status, "lat_x: ..."), the
# format on the call's line or the next.
spelled = re.compile(r'lat__(?:error|error_logged|oom_for)\([^;"]*"lat_[a-z0-9_]+[:(]')
failures = []
for path in sorted((root / "src").rglob("*.c")):
    text = path.read_text(encoding="utf-8")
    rel = path.relative_to(root)
    for m in definition.finditer(text):
        name = m.group(1)
        body = text.find("\n{\n", m.start())
        if name in EXEMPT or body < 0 or ";" in text[m.start():body]:
            continue
        if not text.startswith("    LAT__API();", body + 3) and "lat__error" in text:
            line = text.count("\n", 0, m.start()) + 1
            failures.append(f"{rel}:{line}: {name} does not open with LAT__API()")
    for m in spelled.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        failures.append(f"{rel}:{line}: a message spells its public function by hand")
for f in failures:
    print(f)
print(f"{len(failures)} problems")
sys.exit(1 if failures else 0)
