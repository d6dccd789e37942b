// free() of a pointer heapprof did not hand out, and of a pointer into the
// middle of a chunk: one report with the stack of the bad call and a hint,
// then abort -- after the profile is written, so nothing is lost.  With
// halt_on_error=0 the report is printed, the pointer is left alone and the
// program finishes.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t stack 2>&1 | FileCheck %s --check-prefixes=ADDR,CHECK,STACK
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t interior 2>&1 | FileCheck %s --check-prefixes=ADDR,CHECK,INTERIOR
// RUN: %env_heapprof_opts=log_path=stderr not --crash %run %t global 2>&1 | FileCheck %s --check-prefixes=ADDR,CHECK,GLOBAL
//
// The profile file is written before the abort.
// RUN: rm -rf %t.dir
// RUN: %env_heapprof_opts=print_text=1:profile_dir=%t.dir not --crash %run %t interior 2>&1 | FileCheck %s --check-prefixes=ADDR,INTERIOR
// RUN: cat %t.dir/heapprof.invalid_free.c.tmp.*.txt | FileCheck %s --check-prefix=PROFILE
//
// RUN: %env_heapprof_opts=log_path=stderr:halt_on_error=0 %run %t interior 2>&1 | FileCheck %s --check-prefixes=ADDR,INTERIOR,GOON
// RUN: %env_heapprof_opts=log_path=stderr:halt_on_error=false %run %t stack 2>&1 | FileCheck %s --check-prefixes=ADDR,STACK,GOON
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char global_buf[64];

__attribute__((noinline)) void release_it(void *p) { free(p); }

__attribute__((noinline)) char *make_chunk(void) { return malloc(100); }

int main(int argc, char **argv) {
  char *volatile chunk = make_chunk();
  char local[16];
  fprintf(stderr, "chunk at %p\n", (void *)chunk);
  // ADDR: chunk at [[CHUNK:0x[0-9a-f]+]]
  if (!strcmp(argv[1], "stack"))
    release_it(local);
  else if (!strcmp(argv[1], "global"))
    release_it(global_buf);
  else
    release_it(chunk + 16);
  // STACK: HeapProf: ERROR: invalid-free on address 0x{{[0-9a-f]+}} (pc 0x{{[0-9a-f]+}}, free): not allocated by heapprof
  // GLOBAL: HeapProf: ERROR: invalid-free on address 0x{{[0-9a-f]+}} (pc 0x{{[0-9a-f]+}}, free): not allocated by heapprof
  // INTERIOR: HeapProf: ERROR: invalid-free on address 0x{{[0-9a-f]+}} (pc 0x{{[0-9a-f]+}}, free): interior pointer 16 bytes inside the chunk at [[CHUNK]]
  // STACK-NEXT: #0 0x{{[0-9a-f]+}} in release_it {{.*}}invalid_free.c:{{[0-9]+}}
  // GLOBAL-NEXT: #0 0x{{[0-9a-f]+}} in release_it {{.*}}invalid_free.c:{{[0-9]+}}
  // INTERIOR-NEXT: #0 0x{{[0-9a-f]+}} in release_it {{.*}}invalid_free.c:{{[0-9]+}}
  // STACK-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}invalid_free.c:{{[0-9]+}}
  // GLOBAL-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}invalid_free.c:{{[0-9]+}}
  // INTERIOR-NEXT: #1 0x{{[0-9a-f]+}} in main {{.*}}invalid_free.c:{{[0-9]+}}
  // CHECK: HINT: HEAPPROF_OPTIONS=halt_on_error=0 reports and continues
  // CHECK-NEXT: HeapProf: ABORTING
  // The profile follows the report, on stderr here.
  // CHECK-NEXT: HeapProf profile: {{.*}}invalid_free.c.tmp pid {{[0-9]+}}, error, dump 0
  // CHECK: alloc_count 1, size (ave/min/max) 100.00 / 100 / 100
  // CHECK: live at dump: 1
  // CHECK: in make_chunk
  // CHECK-NOT: program finished
  fprintf(stderr, "program finished\n");
  // GOON: HINT: HEAPPROF_OPTIONS=halt_on_error=0
  // GOON-NOT: ABORTING
  // GOON: program finished
  // The chunk was not freed by the bad call: still live at exit.
  // GOON: HeapProf profile: {{.*}}, exit, dump 0
  // GOON: alloc_count 1, size (ave/min/max) 100.00 / 100 / 100
  // GOON: live at dump: 1
  return 0;
}
// PROFILE: HeapProf profile: {{.*}}invalid_free.c.tmp pid {{[0-9]+}}, error, dump 0
// PROFILE: alloc_count 1, size (ave/min/max) 100.00 / 100 / 100
// PROFILE: live at dump: 1
// PROFILE: in make_chunk
// PROFILE: Summary: 1 contexts, 1 allocations, 100 bytes
