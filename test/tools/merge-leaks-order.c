// heapprof merge translates the stack ids a process's last dump names in
// its leak check (tag 10) to merged contexts, and keeps only those ids'
// contexts (heapprof_merge.c, named_ids): the last dump in merge order
// (checkpoint number, the exit dump last), whatever order the files come
// in.  A run with a checkpoint, leaking:
//  - 4 objects of 24 bytes before the checkpoint (leak_before): 96 bytes,
//    live at the checkpoint, a record in each dump;
//  - 3 objects of 56 bytes after it (leak_after): 168 bytes, a context only
//    the exit dump has.
// The exit dump's leak check: 7 objects, 264 bytes, all direct; leak_after
// 168 / 264 = 63.6%, leak_before 96 / 264 = 36.4%.  The checkpoint's dump
// has no leak check: given after the exit dump, it must not take its place.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: ls %t.dir | count 2
// The directory: the checkpoint's file first (by name).
// RUN: heapprof merge -o %t.merged.profraw %t.dir
// RUN: heapprof report %t.merged.profraw | FileCheck %s
// The exit dump's file first, then the checkpoint's.
// RUN: sh -c 'heapprof merge -o %t.rev.profraw $(ls %t.dir/*.profraw | grep -v "[.]1[.]profraw$") %t.dir/*.1.profraw'
// RUN: heapprof report %t.rev.profraw | FileCheck %s
// CHECK: == Memory leaks: unreachable at exit, by allocation site and 2 callers
// CHECK-NEXT: bytes % objects direct indirect call chain
// CHECK-NEXT: 168 B 63.6% 3 168 B 0 B leak_after ({{.*}}) <- main ({{.*}}){{$}}
// CHECK-NEXT: 96 B 36.4% 4 96 B 0 B leak_before ({{.*}}) <- main ({{.*}}){{$}}
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>
#include <string.h>

// Their bytes are 0x5a: they hold no pointer.
__attribute__((noinline)) static void leak_before(void) {
  memset(malloc(24), 0x5a, 24);
}
__attribute__((noinline)) static void leak_after(void) {
  memset(malloc(56), 0x5a, 56);
}
// No stale copy of a pointer left on the stack the check reads.
#include "../heapprof/Inputs/clobber.h"

int main(void) {
  for (int i = 0; i < 4; i++)
    leak_before();
  __heapprof_dump();
  for (int i = 0; i < 3; i++)
    leak_after();
  clobber();
  return 0;
}
