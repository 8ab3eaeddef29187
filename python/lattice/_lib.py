"""The ctypes binding of liblattice: where the library is found, and its C declarations.

Only this module knows C. The library is looked for, in order, at:

1. ``$LATTICE_LIBRARY`` (a path to ``liblattice.so``), for a build tree or a test run;
2. the wheel's copy, where ``pip install ./python`` put it: ``.lattice.mesonpy.libs/``
   beside this package in site-packages (``liblattice.so.0`` inside the package, for
   wheels built before they were tagged py3-none-<platform>);
3. ``build/liblattice.so.0`` of the repository this package sits in, when it is run
   from the source tree (``PYTHONPATH=python``) after ``scripts/setup``;
4. the system's loader path (``ctypes.util.find_library("lattice")``), for a
   ``meson install``-ed lattice.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from ctypes import (POINTER, Structure, Union, c_char_p, c_double, c_float, c_int, c_int32,
                    c_int64, c_longlong, c_size_t, c_uint, c_uint32, c_uint64, c_ulonglong,
                    c_void_p)

__all__ = ["lib", "library_path"]


def _find() -> str:
    env = os.environ.get("LATTICE_LIBRARY")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    # Inside the package (an older wheel), or where meson-python puts a wheel's libraries:
    # site-packages/.lattice.mesonpy.libs (the wheel is py3-none-<platform>, python/meson.build).
    for cand in (os.path.join(here, "liblattice.so.0"), os.path.join(here, "liblattice.so"),
                 os.path.join(os.path.dirname(here), ".lattice.mesonpy.libs", "liblattice.so.0")):
        if os.path.exists(cand):
            return cand
    tree = os.path.join(os.path.dirname(os.path.dirname(here)), "build", "liblattice.so.0")
    if os.path.exists(tree):
        return tree
    found = ctypes.util.find_library("lattice")
    if found:
        return found
    raise ImportError(
        "lattice: liblattice.so not found: not in the package, not at $LATTICE_LIBRARY, "
        "and not on the loader's path (build it with scripts/setup; see docs/python.md)")


library_path = _find()
lib = ctypes.CDLL(library_path)
# The C library's free(), for the strings lattice returns malloc'd (thread maps).
libc_free = ctypes.CDLL(None).free
libc_free.argtypes = [c_void_p]
libc_free.restype = None

lat_status = c_int
lat_deviceptr = c_uint64
ctx_p = c_void_p
MAX_DIMS = 8


class dim3(Structure):
    _fields_ = [("x", c_uint), ("y", c_uint), ("z", c_uint)]


class device_info(Structure):
    _fields_ = [("name", ctypes.c_char * 256), ("compute_major", c_int),
                ("compute_minor", c_int), ("total_memory", c_size_t),
                ("multiprocessor_count", c_int), ("warp_size", c_int),
                ("max_threads_per_block", c_int), ("max_block_dim", c_int * 3),
                ("max_grid_dim", c_int * 3), ("shared_memory_per_block", c_size_t),
                ("constant_memory", c_size_t), ("clock_rate_khz", c_int),
                ("memory_bus_width", c_int), ("l2_cache_size", c_int),
                ("max_threads_per_multiprocessor", c_int), ("registers_per_block", c_int),
                ("shared_memory_per_block_optin", c_size_t)]


LOGFUNC = ctypes.CFUNCTYPE(None, c_void_p, c_int, c_char_p)


class logger(Structure):
    _fields_ = [("func", LOGFUNC), ("user_data", c_void_p)]


class context_desc(Structure):
    _fields_ = [("backend", c_int), ("device", c_int), ("logger", logger),
                ("cross_rtol", c_double), ("cross_atol", c_double), ("check", c_uint),
                ("emu_opt", c_int), ("pointer_check", c_int)]


class module_desc(Structure):
    _fields_ = [("source", c_char_p), ("path", c_char_p), ("name", c_char_p),
                ("defines", POINTER(c_char_p)), ("include_dirs", POINTER(c_char_p)),
                ("options", POINTER(c_char_p)), ("no_extern_c", c_int),
                ("name_expressions", POINTER(c_char_p)), ("emu_opt", c_int)]


class module_image_desc(Structure):
    _fields_ = [("data", c_void_p), ("size", c_size_t), ("path", c_char_p), ("kind", c_int),
                ("name", c_char_p)]


class launch_desc(Structure):
    _fields_ = [("grid", dim3), ("block", dim3), ("shared_bytes", c_size_t),
                ("stream", c_void_p), ("cooperative", c_int)]


class _buffer(Structure):
    _fields_ = [("data", c_void_p), ("size", c_size_t)]


class _arg_value(Union):
    _fields_ = [("i32", c_int32), ("u32", c_uint32), ("i64", c_int64), ("u64", c_uint64),
                ("f32", c_float), ("f64", c_double), ("ptr", c_uint64), ("buffer", _buffer)]


class arg(Structure):
    _fields_ = [("kind", c_int), ("value", _arg_value)]


# lat_arg_kind
ARG_I32, ARG_U32, ARG_I64, ARG_U64, ARG_F32, ARG_F64, ARG_PTR, ARG_BYTES, ARG_IN, ARG_OUT, \
    ARG_INOUT = range(1, 12)


class stream_desc(Structure):
    _fields_ = [("non_blocking", c_int), ("priority", c_int)]


class event_desc(Structure):
    _fields_ = [("disable_timing", c_int), ("blocking_sync", c_int)]


class copy_2d(Structure):
    _fields_ = [("src_host", c_void_p), ("src_device", c_uint64), ("src_pitch", c_size_t),
                ("src_x", c_size_t), ("src_y", c_size_t), ("dst_host", c_void_p),
                ("dst_device", c_uint64), ("dst_pitch", c_size_t), ("dst_x", c_size_t),
                ("dst_y", c_size_t), ("width_bytes", c_size_t), ("height", c_size_t)]


class kernel_resources(Structure):
    _fields_ = [(n, c_int) for n in (
        "registers", "static_shared_bytes", "local_bytes", "const_bytes", "spill_store_bytes",
        "spill_load_bytes", "max_threads_per_block", "ptx_version", "binary_version")]


class _scalar_value(Union):
    _fields_ = [("i", c_int64), ("u", c_uint64), ("f", c_double)]


class scalar(Structure):
    _fields_ = [("dtype", c_int), ("value", _scalar_value)]


class operand(Structure):
    _fields_ = [("array", c_void_p), ("scalar", scalar)]


class elementwise_desc(Structure):
    _fields_ = [("arguments", c_char_p), ("operation", c_char_p), ("name", c_char_p),
                ("preamble", c_char_p), ("loop_prep", c_char_p), ("after_loop", c_char_p)]


class reduction_desc(Structure):
    _fields_ = [("dtype", c_int), ("neutral", c_char_p), ("reduce", c_char_p),
                ("map", c_char_p), ("arguments", c_char_p), ("name", c_char_p),
                ("preamble", c_char_p)]


class scan_desc(Structure):
    _fields_ = [("dtype", c_int), ("scan", c_char_p), ("neutral", c_char_p),
                ("exclusive", c_int), ("name", c_char_p), ("preamble", c_char_p)]


class check_options(Structure):
    _fields_ = [("order", c_int), ("seed", c_uint64), ("preempt", c_int),
                ("timeout_s", c_double), ("max_reports", c_int)]


class check_access(Structure):
    _fields_ = [("kind", c_int), ("file", c_char_p), ("line", c_int), ("expr", c_char_p),
                ("size", c_size_t), ("block", dim3), ("thread", dim3), ("thread_last", dim3)]


class check_report(Structure):
    _fields_ = [("kind", c_int), ("check", c_uint), ("kernel", c_char_p),
                ("access", check_access), ("other", check_access), ("space", c_int),
                ("address", c_uint64), ("region_base", c_uint64), ("region_size", c_size_t),
                ("offset", c_longlong), ("region_name", c_char_p), ("count", c_ulonglong),
                ("message", c_char_p), ("note", c_int), ("region_shape", c_char_p)]


class check_map_cell(Structure):
    _fields_ = [("write_block", c_longlong), ("write_thread", c_longlong),
                ("read_block", c_longlong), ("read_thread", c_longlong), ("writes", c_uint),
                ("reads", c_uint)]


class check_map(Structure):
    _fields_ = [("count", c_size_t), ("elem_size", c_size_t), ("grid", dim3), ("block", dim3),
                ("kernel", c_char_p), ("cells", POINTER(check_map_cell))]


class check_map_style(Structure):
    _fields_ = [("columns", c_size_t), ("show_reads", c_int), ("title", c_char_p)]


class check_param(Structure):
    _fields_ = [("name", c_char_p), ("type", c_char_p), ("is_pointer", c_int),
                ("is_float", c_int), ("is_signed", c_int), ("size", c_size_t),
                ("pointee_size", c_size_t), ("pointee_components", c_size_t),
                ("is_record", c_int)]


P = c_void_p
PP = POINTER(c_void_p)
_S = lat_status
_protos = {
    "lat_version": (c_int, []),
    "lat_version_string": (c_char_p, []),
    "lat_status_name": (c_char_p, [c_int]),
    "lat_status_string": (c_char_p, [c_int]),
    "lat_last_error": (c_char_p, []),
    "lat_backend_name": (c_char_p, [c_int]),
    "lat_backend_resolve": (_S, [c_int, POINTER(c_int)]),
    "lat_device_count": (_S, [c_int, POINTER(c_int)]),
    "lat_device_get_info": (_S, [c_int, c_int, POINTER(device_info)]),
    "lat_device_attribute": (_S, [c_int, c_int, c_char_p, POINTER(c_int)]),
    "lat_device_attribute_names": (POINTER(c_char_p), [POINTER(c_size_t)]),
    "lat_backend_driver_version": (_S, [c_int, POINTER(c_int)]),
    "lat_context_create": (_S, [POINTER(context_desc), PP]),
    "lat_context_destroy": (None, [P]),
    "lat_context_backend": (c_int, [P]),
    "lat_context_device_info": (_S, [P, POINTER(device_info)]),
    "lat_context_synchronize": (_S, [P]),
    "lat_mem_alloc": (_S, [P, c_size_t, POINTER(c_uint64)]),
    "lat_mem_alloc_pitch": (_S, [P, c_size_t, c_size_t, c_uint, POINTER(c_uint64),
                                 POINTER(c_size_t)]),
    "lat_memcpy_2d": (_S, [P, POINTER(copy_2d)]),
    "lat_memcpy_2d_async": (_S, [P, POINTER(copy_2d), P]),
    "lat_mem_free": (_S, [P, c_uint64]),
    "lat_mem_info": (_S, [P, POINTER(c_size_t), POINTER(c_size_t)]),
    "lat_memset_d8": (_S, [P, c_uint64, ctypes.c_uint8, c_size_t]),
    "lat_memcpy_peer": (_S, [P, c_uint64, P, c_uint64, c_size_t]),
    "lat_host_alloc": (_S, [P, c_size_t, c_uint, POINTER(c_void_p)]),
    "lat_host_free": (_S, [P, c_void_p]),
    "lat_host_register": (_S, [P, c_void_p, c_size_t, c_uint]),
    "lat_host_unregister": (_S, [P, c_void_p]),
    "lat_host_device_pointer": (_S, [P, c_void_p, POINTER(c_uint64)]),
    "lat_context_enable_peer_access": (_S, [P, P]),
    "lat_memset_d16": (_S, [P, c_uint64, ctypes.c_uint16, c_size_t]),
    "lat_memset_d32": (_S, [P, c_uint64, c_uint32, c_size_t]),
    "lat_memcpy_htod": (_S, [P, c_uint64, c_void_p, c_size_t]),
    "lat_memcpy_dtoh": (_S, [P, c_void_p, c_uint64, c_size_t]),
    "lat_memcpy_dtod": (_S, [P, c_uint64, c_uint64, c_size_t]),
    "lat_memcpy_htod_async": (_S, [P, c_uint64, c_void_p, c_size_t, P]),
    "lat_memcpy_dtoh_async": (_S, [P, c_void_p, c_uint64, c_size_t, P]),
    "lat_memcpy_dtod_async": (_S, [P, c_uint64, c_uint64, c_size_t, P]),
    "lat_module_create": (_S, [P, POINTER(module_desc), PP]),
    "lat_module_load": (_S, [P, POINTER(module_image_desc), PP]),
    "lat_module_destroy": (None, [P]),
    "lat_module_get_code": (_S, [P, POINTER(c_int), POINTER(c_void_p), POINTER(c_size_t)]),
    "lat_module_log": (c_char_p, [P]),
    "lat_module_get_kernel": (_S, [P, c_char_p, PP]),
    "lat_module_kernel_count": (c_int, [P]),
    "lat_module_kernel_name": (c_char_p, [P, c_int]),
    "lat_module_get_lowered_name": (_S, [P, c_char_p, POINTER(c_char_p)]),
    "lat_module_get_global": (_S, [P, c_char_p, POINTER(c_uint64), POINTER(c_size_t)]),
    "lat_module_memcpy_to_global": (_S, [P, c_char_p, c_size_t, c_void_p, c_size_t]),
    "lat_module_memcpy_from_global": (_S, [P, c_char_p, c_size_t, c_void_p, c_size_t]),
    "lat_kernel_name": (c_char_p, [P]),
    "lat_kernel_param_count": (c_int, [P]),
    "lat_kernel_get_resources": (_S, [P, POINTER(kernel_resources)]),
    "lat_kernel_describe": (c_int, [P, c_char_p, c_size_t]),
    "lat_launch_args": (_S, [P, POINTER(launch_desc), c_size_t, P]),
    "lat_stream_create": (_S, [P, POINTER(stream_desc), PP]),
    "lat_stream_destroy": (None, [P]),
    "lat_stream_synchronize": (_S, [P]),
    "lat_stream_query": (_S, [P, POINTER(c_int)]),
    "lat_stream_wait_event": (_S, [P, P]),
    "lat_event_create": (_S, [P, POINTER(event_desc), PP]),
    "lat_event_destroy": (None, [P]),
    "lat_event_record": (_S, [P, P]),
    "lat_event_synchronize": (_S, [P]),
    "lat_event_query": (_S, [P, POINTER(c_int)]),
    "lat_event_elapsed_ms": (_S, [P, P, POINTER(c_float)]),
    "lat_cache_directory": (c_char_p, []),
    # arrays
    "lat_dtype_name": (c_char_p, [c_int]),
    "lat_array_empty": (_S, [P, c_int, c_int, POINTER(c_size_t), PP]),
    "lat_array_zeros": (_S, [P, c_int, c_int, POINTER(c_size_t), PP]),
    "lat_array_full": (_S, [P, c_int, c_int, POINTER(c_size_t), scalar, PP]),
    "lat_array_arange": (_S, [P, c_int, c_double, c_double, c_double, PP]),
    "lat_array_from_host": (_S, [P, c_int, c_int, POINTER(c_size_t), c_void_p, PP]),
    "lat_array_wrap": (_S, [P, c_uint64, c_int, c_int, POINTER(c_size_t), PP]),
    "lat_array_destroy": (None, [P]),
    "lat_array_set": (_S, [P, c_void_p, c_size_t]),
    "lat_array_get": (_S, [P, c_void_p, c_size_t]),
    "lat_array_set_async": (_S, [P, c_void_p, c_size_t, P]),
    "lat_array_get_async": (_S, [P, c_void_p, c_size_t, P]),
    "lat_array_get_scalar": (_S, [P, POINTER(scalar)]),
    "lat_array_fill": (_S, [P, scalar]),
    "lat_array_copy": (_S, [P, P]),
    "lat_array_astype": (_S, [P, c_int, PP]),
    "lat_array_slice": (_S, [P, c_size_t, c_size_t, PP]),
    "lat_array_reshape": (_S, [P, c_int, POINTER(c_size_t), PP]),
    "lat_array_ptr": (c_uint64, [P]),
    "lat_array_ndim": (c_int, [P]),
    "lat_array_dtype": (c_int, [P]),
    "lat_array_shape": (POINTER(c_size_t), [P]),
    "lat_array_binary": (_S, [c_int, operand, operand, P, PP]),
    "lat_array_unary": (_S, [c_int, P, P, PP]),
    "lat_array_where": (_S, [P, operand, operand, P, PP]),
    "lat_array_reduce": (_S, [c_int, P, P, PP]),
    "lat_array_reduce_axis": (_S, [c_int, P, c_int, P, PP]),
    "lat_array_dot": (_S, [P, P, P, PP]),
    "lat_elementwise_create": (_S, [P, POINTER(elementwise_desc), PP]),
    "lat_elementwise_destroy": (None, [P]),
    "lat_elementwise_launch": (_S, [P, c_size_t, c_size_t, P]),
    "lat_reduction_create": (_S, [P, POINTER(reduction_desc), PP]),
    "lat_reduction_destroy": (None, [P]),
    "lat_reduction_launch": (_S, [P, c_size_t, c_size_t, P, P, PP]),
    "lat_scan_create": (_S, [P, POINTER(scan_desc), PP]),
    "lat_scan_destroy": (None, [P]),
    "lat_scan_launch": (_S, [P, P, P]),
    "lat_random_create": (_S, [P, c_uint64, PP]),
    "lat_random_destroy": (None, [P]),
    "lat_random_bits": (_S, [P, P]),
    "lat_random_uniform": (_S, [P, P]),
    "lat_random_normal": (_S, [P, P, c_double, c_double]),
    # checks
    "lat_check_modes": (_S, [P, POINTER(c_uint)]),
    "lat_check_parse_modes": (_S, [c_char_p, POINTER(c_uint)]),
    "lat_check_configure": (_S, [P, POINTER(check_options)]),
    "lat_check_last_seed": (c_uint64, [P]),
    "lat_check_report_count": (c_size_t, [P]),
    "lat_check_report_get": (POINTER(check_report), [P, c_size_t]),
    "lat_check_clear": (_S, [P]),
    "lat_check_leaks": (_S, [P]),
    "lat_check_kind_name": (c_char_p, [c_int]),
    "lat_check_label": (_S, [P, c_uint64, c_char_p]),
    "lat_check_map_buffer": (_S, [P, c_uint64, c_size_t]),
    "lat_check_map_get": (_S, [P, c_uint64, POINTER(check_map)]),
    "lat_check_map_svg": (_S, [POINTER(check_map), POINTER(check_map_style), PP]),
    "lat_check_map_text": (_S, [POINTER(check_map), POINTER(check_map_style), PP]),
    "lat_check_kernel_param": (_S, [P, c_int, POINTER(check_param)]),
}

for _name, (_res, _args) in _protos.items():
    _fn = getattr(lib, _name)
    _fn.restype = _res
    _fn.argtypes = _args
