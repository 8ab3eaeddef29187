/* libFuzzer target: compile, then launch every kernel under all the checks (fuzz.h). */
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init(FUZZ_LAUNCH_CHECKED);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_one(data, size, FUZZ_LAUNCH_CHECKED);
}
