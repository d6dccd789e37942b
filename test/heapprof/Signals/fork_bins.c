// The size bins of a parent and its fork child add up to each allocation
// and its free once: the child's free of an object it inherited is its copy
// of the parent's allocation, which the parent's bins count with the
// parent's own free. The parent keeps 10 blocks of 32 bytes across the
// fork and frees them; the child frees its 10 copies, and allocates and
// frees 4 blocks of 48 bytes of its own. Summed: 32 bytes, 10 allocations
// and 10 frees; 48 bytes, 4 and 4; nothing kept. Before, the child's 10
// frees made it 20. The same under heapprof run (the side table).
// RUN: rm -rf %t.dir %t.run %t.sys && %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: heapprof report --full %t.dir | FileCheck %s
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: heapprof run -o %t.run -- %t.plain
// RUN: heapprof report --full %t.run | FileCheck %s
// RUN: heapprof run --allocator=system -o %t.sys -- %t.plain
// RUN: heapprof report --full %t.sys | FileCheck %s
// CHECK: heapprof report: 2 processes, 2 files
// CHECK: == Allocation bins: by requested size
// CHECK-NEXT: size  allocs {{.*}}frees {{.*}}kept
// CHECK:      {{^ +}}32{{ +}}10{{ +}}320 B{{ +}}10{{ +}}0 B
// CHECK:      {{^ +}}48{{ +}}4{{ +}}192 B{{ +}}4{{ +}}0 B
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

void *volatile keep[10];

int main(void) {
  for (int i = 0; i < 10; i++)
    keep[i] = malloc(32);
  pid_t p = fork();
  if (p == 0) {
    for (int i = 0; i < 10; i++)
      free(keep[i]);
    for (int i = 0; i < 4; i++)
      free(malloc(48));
    return 0;
  }
  waitpid(p, 0, 0);
  for (int i = 0; i < 10; i++)
    free(keep[i]);
  return 0;
}
