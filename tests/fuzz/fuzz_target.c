/* A libFuzzer target (fuzz.h): built once per mode, FUZZ_MODE given by meson.build
 * (FUZZ_COMPILE: compile only; FUZZ_LAUNCH: then launch every kernel unchecked;
 * FUZZ_LAUNCH_CHECKED: the same under all the checks). */
#include "fuzz.h"

#ifndef FUZZ_MODE
#error "meson.build defines FUZZ_MODE for each target"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init(FUZZ_MODE);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_one(data, size, FUZZ_MODE);
}
