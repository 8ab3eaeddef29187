"""The ctypes mirrors of lattice's descriptor structs against the C header.

A field added in C and not here makes the library read past the end of the Python
struct: lat_context_create once saw pointer_check as garbage and refused every context.
"""
import pathlib
import re

import pytest

from lattice import _lib

HEADERS = pathlib.Path(__file__).resolve().parents[2] / "include"


def c_fields(struct):
    for header in HEADERS.glob("**/*.h"):
        text = header.read_text()
        m = re.search(r"typedef struct %s \{(.*?)\} %s;" % (struct, struct), text, re.S)
        if m:
            body = re.sub(r"/\*.*?\*/", "", m.group(1), flags=re.S)
            names = []
            for decl in body.split(";"):
                decl = decl.strip()
                if not decl:
                    continue
                # the last identifier of each declarator, before any array bounds:
                # "lat_dim3 grid" -> grid, "size_t x, y" -> x, y
                for part in decl.split(","):
                    names.append(re.findall(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*$",
                                            part)[0])
            return names
    pytest.skip("include/ not found beside the package (an installed copy)")


# Every struct the package mirrors (lat_check_param grew a field that the mirror lacked:
# the library wrote past the Python struct), but those this reading of C cannot take: a
# function pointer (lat_logger) and unions (lat_arg, lat_scalar).
@pytest.mark.parametrize("struct, mirror", [
    ("lat_dim3", _lib.dim3),
    ("lat_device_info", _lib.device_info),
    ("lat_context_desc", _lib.context_desc),
    ("lat_module_desc", _lib.module_desc),
    ("lat_module_image_desc", _lib.module_image_desc),
    ("lat_launch_desc", _lib.launch_desc),
    ("lat_stream_desc", _lib.stream_desc),
    ("lat_event_desc", _lib.event_desc),
    ("lat_copy_2d", _lib.copy_2d),
    ("lat_kernel_resources", _lib.kernel_resources),
    ("lat_operand", _lib.operand),
    ("lat_elementwise_desc", _lib.elementwise_desc),
    ("lat_reduction_desc", _lib.reduction_desc),
    ("lat_scan_desc", _lib.scan_desc),
    ("lat_check_options", _lib.check_options),
    ("lat_check_access", _lib.check_access),
    ("lat_check_report", _lib.check_report),
    ("lat_check_map_cell", _lib.check_map_cell),
    ("lat_check_map", _lib.check_map),
    ("lat_check_map_style", _lib.check_map_style),
    ("lat_check_param", _lib.check_param),
])
def test_descriptor_fields_match_the_header(struct, mirror):
    assert [f[0] for f in mirror._fields_] == c_fields(struct)
