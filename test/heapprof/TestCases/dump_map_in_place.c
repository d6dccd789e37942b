// A dump reads the spill log's records where they are: it takes the log
// whole and keeps 16 bytes per context, where it copied every record
// (392 bytes) into its map and copied them all again to sort them.
// A table of one entry (hib_table_sets=1:hib_table_ways=1) and 60,000
// contexts (16 levels of calls, each from one of two call sites, to a
// leaf that allocates and frees 8 bytes: call_chains.h; 60,000 of the
// 2^16 stacks, one object each): all but the table's entry and the thread's 64 cached ones are
// evicted before the dump, at least 60,000 - 65 = 59,935 records in the
// log, 59,935 x 392 bytes = 22.4 MiB.  (Not 2^16 contexts: the log has
// room for 65,536 records, and the 64 the dump's flush of the cache adds
// would make it grow before the dump begins.)
// The program resets its peak resident set (clear_refs 5), takes a
// checkpoint, and reads how far the peak rose above the resident set of
// before: a copy of the log's records alone is 22.4 MiB; without it, the
// dump holds 16 bytes of reference a context (0.9 MiB), an index of 2^17
// u32 (0.5 MiB), the records of the table and the cache (65 of them), the
// profile's 4 MiB write buffer and the checkpoint's first baseline
// shadow: 6 MiB and some.  The test asks for less than 12 MiB.
// The profile has every context once, with its one allocation.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d:hib_table_sets=1:hib_table_ways=1:dump_at_exit=0:print_stats=1 %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// CHECK: hib_evictions {{ *(5993[5-9]|599[4-9][0-9]|6[0-9][0-9][0-9][0-9]) }}HIB table entries evicted
// CHECK: the dump added {{[0-9]+}} KiB to the peak
// CHECK: under 12 MiB: yes
// RUN: heapprof show %t.d/*.profraw > %t.show
// RUN: FileCheck %s --check-prefix=SHOW < %t.show
// RUN: grep -c "AllocCount=1 " %t.show | FileCheck %s --check-prefix=COUNT
// SHOW: : 1 dump
// SHOW: dump 0 at offset 0x0: raw version 4, {{[0-9]+}} bytes, {{[0-9]+}} segments, 60000 MIBs, 60000 stacks; heapprof extension v3: checkpoint 1,
// COUNT: {{^}}60000{{$}}
#include <heapprof/heapprof_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Read with system calls: the profile's contexts are the leaf's alone.
#include "Inputs/resident.h"

#define CALL_CHAIN_BITS 16
#include "../Inputs/call_chains.h"

static void *volatile sink;

static void call_chain_leaf(unsigned bits) {
  (void)bits;
  sink = malloc(8);
  free(sink);
}

int main(void) {
  for (unsigned b = 0; b < 60000; b++)
    call_chain(b);
  // The peak so far is the log's growth; from
  // here it is the dump's.
  reset_peak_resident();
  long before = status_kib("VmRSS:");
  if (__heapprof_dump() != 0)
    return 1;
  long added = status_kib("VmHWM:") - before;
  fprintf(stderr, "the dump added %ld KiB to the peak\n", added);
  fprintf(stderr, "under 12 MiB: %s\n", added < 12 * 1024 ? "yes" : "no");
  return 0;
}
