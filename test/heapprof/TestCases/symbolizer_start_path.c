// llvm-symbolizer is looked for on PATH as the process started with it, not
// as it is at the dump: a server that clears its environment (clearenv) or
// replaces PATH before a text checkpoint or an error report found only the
// LLVM 19 directory's symbolizer. Here the only llvm-symbolizer on the
// starting PATH is a stand-in that names every frame marked_fn; the
// fallback directory's real one would name them make and bad_free.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: rm -rf %t.bin && mkdir -p %t.bin
// RUN: echo '#!/bin/sh' > %t.bin/llvm-symbolizer
// RUN: echo 'while read -r line; do printf "marked_fn\nmarked.c:1:1\n\n"; done' >> %t.bin/llvm-symbolizer
// RUN: chmod +x %t.bin/llvm-symbolizer
// PATH=/nonexistent before a text checkpoint: its allocation stack is the
// stand-in's.
// RUN: rm -rf %t.d && env PATH=%t.bin HEAPPROF_OPTIONS=print_text=1:print_raw=0:profile_dir=%t.d:dump_at_exit=0 %run %t path
// RUN: cat %t.d/*.txt | FileCheck %s --check-prefix=DUMP
// DUMP: #0 0x{{[0-9a-f]+}} in marked_fn marked.c:1:1
// DUMP-NOT: in make
// clearenv() before an error report (a bad free, halt_on_error=0): the
// report's stack is the stand-in's.
// RUN: env PATH=%t.bin HEAPPROF_OPTIONS=halt_on_error=0:dump_at_exit=0 %run %t clear 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: HeapProf: ERROR: invalid-free
// REPORT-NEXT: #0 0x{{[0-9a-f]+}} in marked_fn marked.c:1:1
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>
#include <string.h>

static char not_heap[64];

__attribute__((noinline)) void *make(void) { return malloc(40); }
__attribute__((noinline)) void bad_free(void) { free(not_heap + 8); }

int main(int argc, char **argv) {
  void *volatile p = make();
  if (!strcmp(argv[1], "path")) {
    setenv("PATH", "/nonexistent", 1);
    __heapprof_dump();
  } else {
    clearenv();
    bad_free();
  }
  free(p);
  return 0;
}
