// The raw profile is written to its file as it is made (drained every
// 4 MiB), its header and the extension's size written in the file at the
// end.  65,536 contexts: 16 levels of calls, each from one of two call
// sites (bits of the loop's counter), to a leaf that allocates and frees
// 8 bytes (call_chains.h): 2^16 distinct stacks, one allocation each, a profile of about
// 36 MB.
//   (none)   the profile reads whole: 65536 records and stacks, each
//            AllocCount=1; llvm-profdata 19 reads as many.
//   dump     append_dumps=1, a checkpoint after the first round and the
//            exit profile after a second: one file of two dumps, the
//            second at the first's end, each of 65536 records.
//   limit    the program sets its file size limit to 5 MiB before exit,
//            stderr a file: the write fails past 5 MiB, after the first
//            drains, in the profile directory and in TMPDIR; neither
//            keeps a partial file, and stderr gets the profile's first
//            bytes up to the limit, as for a profile made whole first
//            (Run/file-size-limit.c).
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof show %t.d/*.profraw > %t.show
// RUN: FileCheck %s --check-prefix=WHOLE < %t.show
// RUN: grep -c "AllocCount=1 " %t.show | FileCheck %s --check-prefix=COUNT
// RUN: llvm-profdata show --memory %t.d/*.profraw --profiled-binary %t | FileCheck %s --check-prefix=PROFDATA
// WHOLE: : 1 dump
// WHOLE: dump 0 at offset 0x0: raw version 4, {{[0-9]+}} bytes, {{[0-9]+}} segments, 65536 MIBs, 65536 stacks; heapprof extension v3: checkpoint 0,
// COUNT: {{^}}65536{{$}}
// PROFDATA: NumMibInfo: 65536
//
// RUN: rm -rf %t.a && %env_heapprof_opts=profile_dir=%t.a:append_dumps=1 %run %t dump
// RUN: heapprof show %t.a/*.profraw | FileCheck %s --check-prefix=APPEND
// APPEND: : 2 dumps
// APPEND: dump 0 at offset 0x0: raw version 4, [[#%d,FIRST:]] bytes, {{[0-9]+}} segments, 65536 MIBs, 65536 stacks; heapprof extension v3: checkpoint 1,
// APPEND: dump 1 at offset 0x[[#%x,FIRST]]: raw version 4, {{[0-9]+}} bytes, {{[0-9]+}} segments, 65536 MIBs, 65536 stacks; heapprof extension v3: checkpoint 0,
//
// RUN: rm -rf %t.l %t.tmp && mkdir %t.tmp
// RUN: env TMPDIR=%t.tmp %env_heapprof_opts=profile_dir=%t.l %run %t none 5242880 2> %t.err
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// ERR: HeapProf: WARNING: cannot write profile '{{.*}}': file too large (the file size limit, ulimit -f), nor '{{.*}}': file too large (the file size limit, ulimit -f); writing it to stderr instead
// RUN: wc -c < %t.err | FileCheck %s --check-prefix=SIZE
// SIZE: {{^}}5242880{{$}}
// RUN: ls -A %t.l %t.tmp | FileCheck %s --check-prefix=NOFILE
// NOFILE-NOT: heapprof.
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define CALL_CHAIN_BITS 16
#include "../Inputs/call_chains.h"

static void *volatile sink;

static void call_chain_leaf(unsigned bits) {
  (void)bits;
  sink = malloc(8);
  free(sink);
}

static void round_of_all(void) {
  for (unsigned b = 0; b < (1u << 16); b++)
    call_chain(b);
}

int main(int argc, char **argv) {
  round_of_all();
  if (argc > 1 && !strcmp(argv[1], "dump")) {
    __heapprof_dump();
    round_of_all();
  }
  if (argc > 2) {
    rlim_t limit = strtoul(argv[2], NULL, 10);
    struct rlimit r = {limit, limit};
    if (setrlimit(RLIMIT_FSIZE, &r))
      return 2;
  }
  return 0;
}
