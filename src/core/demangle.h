/*
 * Kernel names as nvcc and NVRTC mangle them (the Itanium C++ ABI): a program compiled as
 * written asks for _Z6kernelPf or _Z3addIfLi3EEvPT_, the names a GPU's module has. A
 * backend that names its kernels as the source writes them (the emulator: kernel,
 * add<float, 3>) finds the mangled one under these.
 */
#ifndef LAT_DEMANGLE_H
#define LAT_DEMANGLE_H

/* The names, most qualified first, under which a kernel mangled as `mangled` may be known:
 * its qualified name with its template arguments as a name expression writes them
 * ("ns::add<float, 3>"), unqualified, with integer arguments without their suffixes (3u as
 * 3) and without blanks after commas. Only nested names, template arguments of built-in,
 * pointer, qualified, class and literal kinds are read; the parameter types are not (the
 * caller compares what it knows). NULL when `mangled` is not such a name, or out of
 * memory. One block: free() it. Thread safety: any thread. */
char **lat__demangle_candidates(const char *mangled);

#endif
