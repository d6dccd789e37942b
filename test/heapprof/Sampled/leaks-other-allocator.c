// Sampled mode has no leak check (docs/flags.md, detect_leaks), on
// another allocator too.  There the check used to run over the side
// table, which holds only the sampled objects: an object that only an
// unsampled one points to was scanned from nowhere and read as
// unreachable.
//
// A global points to a 32-byte box (sampled with probability
// 1 - e^(-32/65536), about 1 in 2000; not with this seed) that holds the
// only pointers to four 1 MiB objects (each sampled with probability
// 1 - e^-16).  Nothing leaks; the check reported 4 objects, 4194304
// bytes unreachable.  Now the profile has no leak section, and the report
// lists the live memory, as in sampled mode on glibc's allocator.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d:sample_bytes=65536:sample_seed=1:allocator=system %run %t
// RUN: heapprof show %t.d | FileCheck %s --check-prefix=SHOW
// RUN: heapprof report --format json %t.d | FileCheck %s --check-prefix=JSON
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: rm -rf %t.r && %env_heapprof_opts=sample_bytes=65536:sample_seed=1 heapprof run --allocator=system -o %t.r -- %t.plain
// RUN: heapprof show %t.r | FileCheck %s --check-prefix=SHOW
// RUN: heapprof report --format json %t.r | FileCheck %s --check-prefix=JSON
// The same program without sampling: the check runs and finds nothing.
// RUN: rm -rf %t.f && %env_heapprof_opts=profile_dir=%t.f:allocator=system %run %t
// RUN: heapprof show %t.f | FileCheck %s --check-prefix=FULL
// SHOW: sampled: estimated, sampled at 65536 bytes
// SHOW-NOT: leaks:
// SHOW: allocator: glibc
// JSON: "leaks_measure": "live"
// JSON: "leak_check": null
// FULL: leaks: {{.*}} objects=5 {{.*}} direct_objects=0 direct_bytes=0 indirect_objects=0 indirect_bytes=0
#include <stdlib.h>

struct box {
  char *item[4];
};
struct box *volatile root;

__attribute__((noinline)) static char *bigobj(void) { return malloc(1 << 20); }

int main(void) {
  root = malloc(sizeof(struct box));
  for (int i = 0; i < 4; i++) {
    root->item[i] = bigobj();
    root->item[i][0] = (char)i;
  }
  return root->item[3][0] - 3;
}
