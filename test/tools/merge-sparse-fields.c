// heapprof merge keeps a context's extension fields that are not 0 only
// (heapprof_merge.c, ctx_pack): a field that becomes non-zero in a later
// dump, and one that goes back to 0, move the context's values to a block
// of the new size.  A run with a checkpoint, the contexts in this order:
//  - late: 100 bytes before the checkpoint (freed before it: medium),
//    5000 after it, live at exit: 5100 bytes, 100 medium and 5000 extra
//    large, and the live fields, which only the last dump gives, appear
//    with the second dump: 1 object of 5000 bytes, extra large.  Its
//    block grows: kept in place, it would overwrite early's values.
//  - early: 4 objects of 16 bytes, live at the checkpoint, freed after it.
//    The checkpoint's 4 live objects are 4 continuations in the exit dump:
//    merged, continuations is 0 - 4 + 4 = 0 (non-zero after the first
//    dump, 0 after the second), nothing live, 4 x 16 = 64 bytes small.
//  - steady: 8 objects of 300 bytes (large), freed before the checkpoint.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir:detect_leaks=0 %run %t
// RUN: ls %t.dir | count 2
// RUN: heapprof merge -o %t.merged.profraw %t.dir
// RUN: heapprof show %t.merged.profraw > %t.show
// RUN: FileCheck %s --check-prefix=EARLY < %t.show
// RUN: FileCheck %s --check-prefix=LATE < %t.show
// RUN: FileCheck %s --check-prefix=STEADY < %t.show
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>

static char *volatile early[4], *volatile steady[8], *volatile late;

__attribute__((noinline)) static char *alloc_early(void) { return malloc(16); }
__attribute__((noinline)) static char *alloc_late(size_t n) { return malloc(n); }
__attribute__((noinline)) static char *alloc_steady(void) { return malloc(300); }

int main(void) {
  for (int half = 0; half < 2; half++) {
    late = alloc_late(half ? 5000 : 100); // one call site: one context
    if (half == 1)
      break;
    free(late);
    for (int i = 0; i < 4; i++)
      early[i] = alloc_early();
    for (int i = 0; i < 8; i++)
      steady[i] = alloc_steady();
    for (int i = 0; i < 8; i++)
      free(steady[i]);
    __heapprof_dump();
    for (int i = 0; i < 4; i++)
      free(early[i]);
  }
  return 0;
}

// EARLY: AllocCount=4 {{.*}} TotalSize=64 MinSize=16 MaxSize=16
// EARLY-NEXT: heapprof: {{.*}} continuations=0 live_at_dump=0 max_size64=16 {{.*}} live_bytes=0 bytes_small=64 bytes_medium=0 bytes_large=0 bytes_xlarge=0 live_bytes_small=0 live_bytes_medium=0 live_bytes_large=0 live_bytes_xlarge=0
// LATE: AllocCount=2 {{.*}} TotalSize=5100 MinSize=100 MaxSize=5000
// LATE-NEXT: heapprof: {{.*}} continuations=0 live_at_dump=1 max_size64=5000 {{.*}} live_bytes=5000 bytes_small=0 bytes_medium=100 bytes_large=0 bytes_xlarge=5000 live_bytes_small=0 live_bytes_medium=0 live_bytes_large=0 live_bytes_xlarge=5000
// STEADY: AllocCount=8 {{.*}} TotalSize=2400 MinSize=300 MaxSize=300
// STEADY-NEXT: heapprof: {{.*}} continuations=0 live_at_dump=0 max_size64=300 {{.*}} live_bytes=0 bytes_small=0 bytes_medium=0 bytes_large=2400 bytes_xlarge=0 live_bytes_small=0 live_bytes_medium=0 live_bytes_large=0 live_bytes_xlarge=0
