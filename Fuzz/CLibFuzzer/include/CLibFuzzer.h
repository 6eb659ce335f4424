#ifndef AGGR_CLIBFUZZER_H
#define AGGR_CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry point for programs with their own main (LLVM's "Using libFuzzer as a
// library"). Declared weak so builds without -sanitize=fuzzer still link; it is only called
// in fuzzing builds, where libFuzzer defines it.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size))
    __attribute__((weak));

#endif
