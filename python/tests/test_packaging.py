"""The wheel holds every module of the package: python/meson.build lists the files it
installs by hand, and a module left out (lattice.profile, lattice.pycuda._kernels) made an
installed lattice fail at import while the source tree worked."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_every_module_is_installed_by_the_wheel():
    listed = set(re.findall(r"'(lattice/[\w/]+\.py)'", (ROOT / "meson.build").read_text()))
    present = {p.relative_to(ROOT).as_posix() for p in (ROOT / "lattice").rglob("*.py")}
    assert present - listed == set(), "not installed by python/meson.build"
    assert listed - present == set(), "listed in python/meson.build but missing"
