// A libFuzzer target built with -fheapprof: libFuzzer's interceptors
// (memcmp, bcmp, strcmp, strncmp, linked whole by -fsanitize=fuzzer) and
// the runtime's define the same functions, and the link failed with
// "multiple definition of 'strncmp'".  The runtime's are weak, so the link
// succeeds and libFuzzer's serve.  -runs=1000 calls the target 1000 times,
// each allocating once and freeing: 1000 allocations and 1000 frees in the
// target's contexts (libFuzzer reaches it by more than one path).
// REQUIRES: heapprof-driver
// RUN: rm -rf %t && mkdir -p %t
// RUN: heapprof-clang -O1 -fsanitize=fuzzer -fheapprof=%t/prof %s -o %t/fuzz 2>&1 | count 0
// RUN: %run %t/fuzz -runs=1000 -seed=1 2>&1 | FileCheck %s --check-prefix=FUZZ
// FUZZ: Done 1000 runs
// RUN: heapprof report --top 0 --format json %t/prof | %python %S/Inputs/sum_allocs.py LLVMFuzzerTestOneInput | FileCheck %s
// CHECK: allocs 1000 frees 1000
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *volatile copy = malloc(size + 1);
  memcpy(copy, data, size);
  copy[size] = 0;
  int r = strcmp(copy, "FUZZ");
  free(copy);
  return r == 1234;
}
