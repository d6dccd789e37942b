// append_dumps=1: the checkpoints and the exit dump of one process go into
// one raw file (and one text file), dump after dump; llvm-profdata reads
// the file as one profile and merges the records of a context across dumps.
// RUN: rm -rf %t.dir && %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir:append_dumps=1:print_text=1 %run %t
// RUN: ls %t.dir | count 2
// RUN: heapprof show %t.dir/*.profraw | FileCheck %s --check-prefix=SHOW
// Three dumps: checkpoints 1 and 2, then exit (checkpoint number 0).
// SHOW: 3 dumps
// SHOW: dump 0 at offset 0x0: {{.*}}heapprof extension v3: checkpoint 1,
// SHOW: dump 1 at offset {{.*}}checkpoint 2,
// SHOW: dump 2 at offset {{.*}}checkpoint 0,
// RUN: grep -c "^HeapProf profile:" %t.dir/*.txt | FileCheck %s --check-prefix=TEXT
// TEXT: 3
// The object of 64 bytes: counted once (dump 1), continued twice; 2 + 3 + 4
// stores in the three windows.
// RUN: llvm-profdata show --memory %t.dir/*.profraw --profiled-binary %t | FileCheck %s --check-prefix=PROFDATA
// PROFDATA: SymbolName: main
// PROFDATA: AllocCount: 1
// PROFDATA-NEXT: TotalAccessCount: 9
// PROFDATA: TotalSize: 64
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>

int main(void) {
  char *volatile p = malloc(64);
  p[0] = 1; p[1] = 2;
  __heapprof_dump();
  p[0] = 1; p[1] = 2; p[2] = 3;
  __heapprof_dump();
  p[0] = 1; p[1] = 2; p[2] = 3; p[3] = 4;
  free(p);
  return 0;
}
