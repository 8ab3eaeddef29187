"""PyCUDA's ``pycuda.elementwise``: ElementwiseKernel, with ``range=`` and ``slice=``."""

from __future__ import annotations

import builtins
import re
from typing import Any

import numpy as np

from .. import array as _array
from .gpuarray import GPUArray, take as _take
from .tools import ScalarArg, VectorArg, context_dependent_memoize, dtype_to_ctype, parse_c_arg

__all__ = ["ElementwiseKernel", "get_take_kernel", "get_elwise_module",
           "get_elwise_range_module", "get_elwise_kernel_and_types", "get_elwise_kernel",
           "ScalarArg", "VectorArg"]


_LOOP_NAMES = re.compile(r"\b(tid|total_threads|cta_start)\b")


def _with_complex_header(preamble: str, *texts: Any) -> str:
    """PyCUDA's generated modules begin with ``#include <pycuda-complex.hpp>``, so kernels
    name ``pycuda::complex<float>`` without including it: so do these, where the kernel's
    text names pycuda (the header declares nothing else)."""
    text = " ".join(t if isinstance(t, str) else repr(t) for t in (preamble,) + texts)
    if "pycuda" in text and "pycuda-complex.hpp" not in (preamble or ""):
        return "#include <pycuda-complex.hpp>\n" + (preamble or "")
    return preamble or ""


class ElementwiseKernel:
    """``ElementwiseKernel(arguments, operation, name="kernel", keep=False, options=None,
    preamble="", loop_prep="", after_loop="")``: ``operation`` runs for every i below the
    size of the first array argument, or for the indices of ``range=`` (a slice taken as
    it is) or ``slice=`` (a slice of the first array's indices: negative values count
    from its end). Array arguments must be contiguous."""

    def __init__(self, arguments: Any, operation: str, name: str = "kernel",
                 keep: bool = False, options: Any = None, preamble: str = "",
                 loop_prep: str = "", after_loop: str = ""):
        preamble = _with_complex_header(preamble, arguments, operation, loop_prep, after_loop)
        # PyCUDA's template ends each with ';' ("%(loop_prep)s;"): programs leave it out.
        loop_prep = loop_prep + ";" if loop_prep.strip() else loop_prep
        after_loop = after_loop + ";" if after_loop.strip() else after_loop
        self._spec = (arguments, operation, name, preamble, loop_prep, after_loop)
        # An operation that reads the loop's own variables (tid, total_threads, cta_start:
        # PyCUDA's template declares them) runs in PyCUDA's template and launch shape, so
        # that they mean there what they mean in PyCUDA.
        self._own_loop = _LOOP_NAMES.search(" ".join((operation, loop_prep, after_loop)))
        # Compiler options (-D, -I, ...) are honoured by SourceModule, which builds that
        # template; lattice's array layer takes none.
        if options:
            self._own_loop = True
        self._options, self._template = options, {}
        if self._own_loop:
            self._template_kernel(False)  # compile errors surface here, as PyCUDA's
            return
        self._plain = _array.ElementwiseKernel(arguments, operation, name, keep, options,
                                               preamble, loop_prep, after_loop)
        self._ranged = None

    def _ranged_kernel(self) -> _array.ElementwiseKernel:
        if self._ranged is None:
            arguments, operation, name, preamble, loop_prep, after_loop = self._spec
            text, _ = _array._parse_arguments(arguments)
            # The generated loop's i counts iterations; the operation sees the index.
            op = ("{ const long long lat_j_ = (long long)i; "
                  "{ const long long i = lat_start_ + lat_j_ * lat_step_; "
                  f"{operation}; }} }}")
            self._ranged = _array.ElementwiseKernel(
                text + ", long long lat_start_, long long lat_step_", op, name + "_range",
                preamble=preamble, loop_prep=loop_prep, after_loop=after_loop)
        return self._ranged

    def _template_kernel(self, use_range: bool) -> Any:
        func = self._template.get(use_range)
        if func is None:
            arguments, operation, name, preamble, loop_prep, after_loop = self._spec
            func = self._template[use_range] = get_elwise_kernel_and_types(
                arguments, operation, name, options=self._options, preamble=preamble,
                loop_prep=loop_prep, after_loop=after_loop, use_range=use_range)[1]
        return func

    def _call_template(self, args: Any, first: Any, range_: Any, slice_: Any) -> None:
        from .gpuarray import splay
        if range_ is not None:
            step = 1 if range_.step is None else range_.step
            extra = [range_.start, range_.stop, step]
            count = abs(range_.stop - range_.start) // abs(step)
        elif slice_ is not None:
            start, stop, step = slice_.indices(first.size)
            extra, count = [start, stop, step], abs(stop - start) // abs(step)
        else:
            extra, count = [first.size], first.size
        grid, block = splay(count)
        self._template_kernel(len(extra) == 3).prepared_call(grid, block, *args, *extra)

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        range_ = kwargs.pop("range", None)
        slice_ = kwargs.pop("slice", None)
        kwargs.pop("stream", None)
        if kwargs:
            raise TypeError(f"ElementwiseKernel: unknown keyword arguments {sorted(kwargs)}")
        first = None
        for i, a in enumerate(args):
            if isinstance(a, GPUArray):
                if not a.flags.forc:
                    raise RuntimeError(f"ElementwiseKernel: argument {i} is not contiguous "
                                     "(elementwise kernels index arrays by i; copy the view "
                                     "first)")
                if first is None:
                    first = a
        if range_ is not None and slice_ is not None:
            raise TypeError("ElementwiseKernel: give range= or slice=, not both")
        if self._own_loop:
            if first is None and range_ is None:
                raise ValueError("ElementwiseKernel: no array argument to size the range; "
                                 "give range=")
            self._call_template(args, first, range_, slice_)
            return
        if range_ is None and slice_ is None:
            if first is None:
                raise ValueError("ElementwiseKernel: no array argument to size the range; "
                                 "give range=")
            self._plain(*args, n=first.size)
            return
        if slice_ is not None:
            if first is None:
                raise ValueError("ElementwiseKernel: slice= needs an array argument")
            start, stop, step = slice_.indices(first.size)
        else:
            start = range_.start if range_.start is not None else 0
            stop = range_.stop
            step = range_.step if range_.step is not None else 1
        n = len(builtins.range(start, stop, step))
        if n == 0:
            return
        self._ranged_kernel()(*args, np.int64(start), np.int64(step), n=n)


    def get_texref(self, name: str, use_range: bool = False) -> Any:
        from .driver import _no_texref
        _no_texref()


# PyCUDA's module-level kernel builders: a prepared Function whose parameters are the
# arguments given, then "n" (or start, stop, step with a range), looping over i in a grid
# stride as PyCUDA's do, so that a prepared_call with PyCUDA's arguments means the same.

_ELWISE = """#include <pycuda-complex.hpp>
%(preamble)s
extern "C" __global__ void %(name)s(%(arguments)s)
{
  size_t tid = threadIdx.x;
  size_t total_threads = gridDim.x*blockDim.x;
  size_t cta_start = blockDim.x*blockIdx.x;
  %(index)s;
  %(loop_prep)s;
  %(loop)s
  %(after_loop)s;
}
"""

_FLAT_LOOP = ("for (i = cta_start + tid; i < n; i += total_threads)\n"
              "  { %s; }")
_RANGE_LOOP = ("if (step < 0) {\n"
               "  for (i = start + (cta_start + tid)*step; i > stop; i += total_threads*step)\n"
               "  { %s; }\n"
               "} else {\n"
               "  for (i = start + (cta_start + tid)*step; i < stop; i += total_threads*step)\n"
               "  { %s; }\n"
               "}")


def _elwise_module(arguments: Any, operation: str, name: str, keep: bool, options: Any,
                   preamble: str, loop_prep: str, after_loop: str, use_range: bool) -> Any:
    from .compiler import SourceModule
    loop = (_RANGE_LOOP % (operation, operation)) if use_range else (_FLAT_LOOP % operation)
    return SourceModule(_ELWISE % {
        "arguments": ", ".join(arg.declarator() for arg in arguments), "name": name,
        "preamble": preamble, "loop_prep": loop_prep, "after_loop": after_loop,
        "index": "long i" if use_range else "size_t i", "loop": loop},
        options=options, keep=keep, no_extern_c=True)


def get_elwise_module(arguments: Any, operation: str, name: str = "kernel", keep: bool = False,
                      options: Any = None, preamble: str = "", loop_prep: str = "",
                      after_loop: str = "") -> Any:
    """PyCUDA's: a SourceModule with kernel ``name(arguments)`` running ``operation`` for
    each i below its parameter ``n`` (which ``arguments`` must declare)."""
    return _elwise_module(arguments, operation, name, keep, options, preamble, loop_prep,
                          after_loop, False)


def get_elwise_range_module(arguments: Any, operation: str, name: str = "kernel",
                            keep: bool = False, options: Any = None, preamble: str = "",
                            loop_prep: str = "", after_loop: str = "") -> Any:
    """PyCUDA's: as get_elwise_module, for i in range(start, stop, step) (parameters that
    ``arguments`` must declare)."""
    return _elwise_module(arguments, operation, name, keep, options, preamble, loop_prep,
                          after_loop, True)


def get_elwise_kernel_and_types(arguments: Any, operation: str, name: str = "kernel",
                                keep: bool = False, options: Any = None,
                                use_range: bool = False, **kwargs: Any) -> tuple:
    """PyCUDA's: ``(module, function, arguments)``; ``arguments`` (a C declaration list or
    VectorArg/ScalarArg objects) gain ``n`` (uintp) or ``start, stop, step`` (intp), and the
    function is prepared for them."""
    if isinstance(arguments, str):
        arguments = [parse_c_arg(arg) for arg in arguments.split(",")]
    arguments = list(arguments)
    if use_range:
        arguments += [ScalarArg(np.intp, "start"), ScalarArg(np.intp, "stop"),
                      ScalarArg(np.intp, "step")]
    else:
        arguments.append(ScalarArg(np.uintp, "n"))
    mod = _elwise_module(arguments, operation, name, keep, options,
                         kwargs.pop("preamble", ""), kwargs.pop("loop_prep", ""),
                         kwargs.pop("after_loop", ""), use_range)
    if kwargs:
        raise TypeError(f"get_elwise_kernel: unknown keyword arguments {sorted(kwargs)}")
    func = mod.get_function(name)
    func.prepare("".join(arg.struct_char for arg in arguments))
    return mod, func, arguments


def get_elwise_kernel(arguments: Any, operation: str, name: str = "kernel", keep: bool = False,
                      options: Any = None, **kwargs: Any) -> Any:
    """PyCUDA's: the prepared Function of get_elwise_kernel_and_types."""
    return get_elwise_kernel_and_types(arguments, operation, name, keep, options, **kwargs)[1]


def _ct(dtype: Any) -> str:
    return dtype_to_ctype(np.dtype(dtype))


def _real_ct(dtype_z: Any, dtype: Any) -> str:
    """The C type a real operand is cast to in complex arithmetic (PyCUDA's)."""
    dz, d = np.dtype(dtype_z), np.dtype(dtype)
    if dz.kind == "c" and d.kind != "c":
        return _ct(np.empty(0, dz).real.dtype)
    return _ct(dz)


@context_dependent_memoize
def get_copy_kernel(dtype_dest: Any, dtype_src: Any) -> Any:
    return get_elwise_kernel(f"{_ct(dtype_dest)} *dest, {_ct(dtype_src)} *src",
                             "dest[i] = src[i]", "copy")


@context_dependent_memoize
def get_linear_combination_kernel(summand_descriptors: Any, dtype_z: Any) -> tuple:
    """PyCUDA's ``(function, texrefs)`` for ``z = a0*x0 + a1*x1 + ...``, its parameters
    ``a0, x0, a1, x1, ..., z, n``. A scalar read from device memory (``is_gpu_scalar``),
    which PyCUDA reads through a texture reference (removed in CUDA 12), raises
    NotImplementedError."""
    args: list = []
    summands = []
    for i, (is_gpu_scalar, scalar_dtype, vector_dtype) in enumerate(summand_descriptors):
        if is_gpu_scalar:
            raise NotImplementedError(
                "get_linear_combination_kernel: a GPU scalar is read through a texture "
                "reference, which CUDA 12 removed (and lattice does not have); pass it as a "
                "host scalar or write the kernel with ElementwiseKernel")
        args += [ScalarArg(scalar_dtype, f"a{i}"), VectorArg(vector_dtype, f"x{i}")]
        summands.append(f"a{i}*x{i}[i]")
    args += [VectorArg(dtype_z, "z"), ScalarArg(np.uintp, "n")]
    mod = get_elwise_module(args, "z[i] = " + " + ".join(summands), "linear_combination")
    func = mod.get_function("linear_combination")
    func.prepare("".join(arg.struct_char for arg in args))
    return func, []


@context_dependent_memoize
def get_axpbyz_kernel(dtype_x: Any, dtype_y: Any, dtype_z: Any, x_is_scalar: bool = False,
                      y_is_scalar: bool = False) -> Any:
    """``z = a*x + b*y``: parameters ``a, x, b, y, z, n``."""
    x_t, y_t = _real_ct(dtype_z, dtype_x), _real_ct(dtype_z, dtype_y)
    x = "x[0]" if x_is_scalar else "x[i]"
    y = "y[0]" if y_is_scalar else "y[i]"
    return get_elwise_kernel(
        f"{_ct(dtype_x)} a, {_ct(dtype_x)} *x, {_ct(dtype_y)} b, {_ct(dtype_y)} *y, "
        f"{_ct(dtype_z)} *z",
        f"z[i] = ({x_t}) a*(({x_t}) {x}) + (({y_t}) b)*(({y_t}) {y})", "axpbyz")


@context_dependent_memoize
def get_axpbz_kernel(dtype_x: Any, dtype_z: Any) -> Any:
    """``z = a*x + b``: parameters ``a, x, b, z, n``."""
    return get_elwise_kernel(f"{_ct(dtype_z)} a, {_ct(dtype_x)} *x, {_ct(dtype_z)} b, "
                             f"{_ct(dtype_z)} *z", "z[i] = a * x[i] + b", "axpb")


@context_dependent_memoize
def get_binary_op_kernel(dtype_x: Any, dtype_y: Any, dtype_z: Any, operator: str,
                         x_is_scalar: bool = False, y_is_scalar: bool = False) -> Any:
    """``z = x (operator) y``: parameters ``x, y, z, n``."""
    x_t, y_t, out_t = _real_ct(dtype_z, dtype_x), _real_ct(dtype_z, dtype_y), _ct(dtype_z)
    x = "x[0]" if x_is_scalar else "x[i]"
    y = "y[0]" if y_is_scalar else "y[i]"
    return get_elwise_kernel(
        f"{_ct(dtype_x)} *x, {_ct(dtype_y)} *y, {out_t} *z",
        f"z[i] = ({out_t}) (({x_t}) {x} {operator} ({y_t}) {y})", "multiply")


@context_dependent_memoize
def get_rdivide_elwise_kernel(dtype_x: Any, dtype_z: Any) -> Any:
    return get_elwise_kernel(f"{_ct(dtype_x)} *x, {_ct(dtype_z)} y, {_ct(dtype_z)} *z",
                             "z[i] = y / x[i]", "divide_r")


@context_dependent_memoize
def get_binary_func_kernel(func: str, dtype_x: Any, dtype_y: Any, dtype_z: Any) -> Any:
    return get_elwise_kernel(f"{_ct(dtype_x)} *x, {_ct(dtype_y)} *y, {_ct(dtype_z)} *z",
                             f"z[i] = {func}(x[i], y[i])", func + "_kernel")


@context_dependent_memoize
def get_binary_func_scalar_kernel(func: str, dtype_x: Any, dtype_y: Any, dtype_z: Any) -> Any:
    return get_elwise_kernel(f"{_ct(dtype_x)} *x, {_ct(dtype_y)} y, {_ct(dtype_z)} *z",
                             f"z[i] = {func}(x[i], y)", func + "_kernel")


@context_dependent_memoize
def get_fill_kernel(dtype: Any) -> Any:
    return get_elwise_kernel(f"{_ct(dtype)} a, {_ct(dtype)} *z", "z[i] = a", "fill")


@context_dependent_memoize
def get_reverse_kernel(dtype: Any) -> Any:
    return get_elwise_kernel(f"{_ct(dtype)} *y, {_ct(dtype)} *z", "z[i] = y[n-1-i]",
                             "reverse")


@context_dependent_memoize
def get_real_kernel(dtype: Any, real_dtype: Any) -> Any:
    return get_elwise_kernel(f"{_ct(dtype)} *y, {_ct(real_dtype)} *z",
                             "z[i] = pycuda::real(y[i])", "real")


@context_dependent_memoize
def get_imag_kernel(dtype: Any, real_dtype: Any) -> Any:
    return get_elwise_kernel(f"{_ct(dtype)} *y, {_ct(real_dtype)} *z",
                             "z[i] = pycuda::imag(y[i])", "imag")


@context_dependent_memoize
def get_conj_kernel(dtype: Any, conj_dtype: Any) -> Any:
    return get_elwise_kernel(f"{_ct(dtype)} *y, {_ct(conj_dtype)} *z",
                             "z[i] = pycuda::conj(y[i])", "conj")


@context_dependent_memoize
def get_arange_kernel(dtype: Any) -> Any:
    return get_elwise_kernel(f"{_ct(dtype)} *z, {_ct(dtype)} start, {_ct(dtype)} step",
                             "z[i] = start + i*step", "arange")


@context_dependent_memoize
def get_unary_func_kernel(func_name: str, in_dtype: Any, out_dtype: Any = None) -> Any:
    out_dtype = in_dtype if out_dtype is None else out_dtype
    return get_elwise_kernel(f"{_ct(in_dtype)} *y, {_ct(out_dtype)} *z",
                             f"z[i] = {func_name}(y[i])", f"{func_name}_kernel")


@context_dependent_memoize
def get_if_positive_kernel(crit_dtype: Any, dtype: Any) -> Any:
    return get_elwise_kernel([VectorArg(crit_dtype, "crit"), VectorArg(dtype, "then_"),
                              VectorArg(dtype, "else_"), VectorArg(dtype, "result")],
                             "result[i] = crit[i] > 0 ? then_[i] : else_[i]", "if_positive")


@context_dependent_memoize
def get_where_kernel(crit_dtype: Any, dtype: Any) -> Any:
    return get_elwise_kernel([VectorArg(crit_dtype, "crit"), VectorArg(dtype, "then_"),
                              VectorArg(dtype, "else_"), VectorArg(dtype, "result")],
                             "result[i] = crit[i] != 0 ? then_[i] : else_[i]", "if_positive")


@context_dependent_memoize
def get_scalar_op_kernel(dtype_x: Any, dtype_a: Any, dtype_y: Any, operator: str) -> Any:
    return get_elwise_kernel(f"{_ct(dtype_x)} *x, {_ct(dtype_a)} a, {_ct(dtype_y)} *y",
                             f"y[i] = x[i] {operator} a", "scalarop_kernel")


@context_dependent_memoize
def get_logical_not_kernel(dtype_x: Any, dtype_out: Any) -> Any:
    return get_elwise_kernel([VectorArg(dtype_x, "x"), VectorArg(dtype_out, "out")],
                             "out[i] = (x[i] == 0)", "logical_not")


@context_dependent_memoize
def get_put_kernel(dtype: Any, idx_dtype: Any, vec_count: int = 1) -> Any:
    """``dest_k[gmem_dest_idx[i]] = src_k[i]``: parameters ``gmem_dest_idx, dest0...,
    src0..., n``."""
    args = ([VectorArg(idx_dtype, "gmem_dest_idx")]
            + [VectorArg(dtype, f"dest{i}") for i in builtins.range(vec_count)]
            + [VectorArg(dtype, f"src{i}") for i in builtins.range(vec_count)]
            + [ScalarArg(np.uintp, "n")])
    body = f"{_ct(idx_dtype)} dest_idx = gmem_dest_idx[i];\n" + "\n".join(
        f"dest{i}[dest_idx] = src{i}[i];" for i in builtins.range(vec_count))
    func = get_elwise_module(args, body, "put").get_function("put")
    func.prepare("".join(arg.struct_char for arg in args))
    return func


def get_take_put_kernel(*a: Any, **k: Any):
    raise NotImplementedError("get_take_put_kernel reads through a texture reference "
                              "(removed in CUDA 12); use gpuarray.multi_take_put")


def get_take_kernel(*a: Any, **k: Any):
    raise NotImplementedError("get_take_kernel reads through a texture reference (removed "
                              "in CUDA 12); use gpuarray.take")


take = _take


def get_binary_minmax_kernel(func: str, dtype_x: Any, dtype_y: Any, dtype_z: Any,
                             use_scalar: bool) -> Any:
    """PyCUDA's: fmin/fmax (f-suffixed for single precision) or min/max of two arrays, or
    of an array and a scalar (``use_scalar``)."""
    if np.float64 not in [dtype_x, dtype_y]:
        func = func + "f"
    if any(np.dtype(dt).kind == "f" for dt in [dtype_x, dtype_y, dtype_z]):
        func = "f" + func
    if use_scalar:
        return get_binary_func_scalar_kernel(func, dtype_x, dtype_y, dtype_z)
    return get_binary_func_kernel(func, dtype_x, dtype_y, dtype_z)


@context_dependent_memoize
def get_fmod_kernel() -> Any:
    return get_elwise_kernel("float *arg, float *mod, float *z",
                             "z[i] = fmod(arg[i], mod[i])", "fmod_kernel")


@context_dependent_memoize
def get_frexp_kernel() -> Any:
    return get_elwise_kernel("float *x, float *significand, float *exponent",
                             "int expt = 0; significand[i] = frexp(x[i], &expt); "
                             "exponent[i] = expt;", "frexp_kernel")


@context_dependent_memoize
def get_ldexp_kernel() -> Any:
    return get_elwise_kernel("float *sig, float *expt, float *z",
                             "z[i] = ldexp(sig[i], int(expt[i]))", "ldexp_kernel")


@context_dependent_memoize
def get_modf_kernel() -> Any:
    return get_elwise_kernel("float *x, float *intpart ,float *fracpart",
                             "fracpart[i] = modf(x[i], &intpart[i])", "modf_kernel")


@context_dependent_memoize
def get_pow_array_kernel(dtype_x: Any, dtype_y: Any, dtype_z: Any, is_base_array: bool,
                         is_exp_array: bool) -> Any:
    """PyCUDA's kernel for ``z = x ** y``: (x, y, z) with x or y a scalar when it is not
    an array (powf for a float32 result, else pow). Both operands are cast to the type
    computed in, as nvcc's host <cmath> promotes them: NVRTC has no such overload, and
    pow(double, float) is ambiguous there (pow(double, double) or pow(float, float)?)."""
    func, ct = ("powf", "float") if dtype_z == np.float32 else ("pow", "double")
    if not is_base_array and is_exp_array:
        x_decl, y_decl, call = "{x} x", "{y} *y", f"{func}(({ct})x, ({ct})y[i])"
    elif is_base_array and is_exp_array:
        x_decl, y_decl, call = "{x} *x", "{y} *y", f"{func}(({ct})x[i], ({ct})y[i])"
    elif is_base_array and not is_exp_array:
        x_decl, y_decl, call = "{x} *x", "{y} y", f"{func}(({ct})x[i], ({ct})y)"
    else:
        raise AssertionError
    decl = f"{x_decl}, {y_decl}, {{z}} *z".format(x=_ct(dtype_x), y=_ct(dtype_y),
                                                  z=_ct(dtype_z))
    return get_elwise_kernel(decl, f"z[i] = {call}", name="pow_method")
