// heapprof merge keeps an extension value as one u32 word when it is below
// 0xffffffff and as an escape word and two words otherwise (heapprof_merge.c,
// ctx_pack): values that only the merge's sums make wider than 32 bits must
// come out whole, and a sum of exactly 0xffffffff, the escape's own value,
// too.  A run with a checkpoint, every object freed before the dump after
// it (the objects are never touched: address space, not memory):
//  - big: 2 objects of 1 GiB before the checkpoint, 3 after: 5 objects,
//    5 x 1073741824 = 5368709120 bytes (each dump's 2 GiB and 3 GiB fit 32
//    bits, the sum does not), all extra large.
//  - edge: one object of 2147483648 bytes before the checkpoint, one of
//    2147483647 after: 4294967295 bytes = 0xffffffff, extra large.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir:detect_leaks=0 %run %t
// RUN: ls %t.dir | count 2
// RUN: heapprof merge -o %t.merged.profraw %t.dir
// RUN: heapprof show %t.merged.profraw > %t.show
// RUN: FileCheck %s --check-prefix=BIG < %t.show
// RUN: FileCheck %s --check-prefix=EDGE < %t.show
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>

static char *volatile p;

__attribute__((noinline)) static void big(int n) {
  for (int i = 0; i < n; i++) {
    p = malloc((size_t)1 << 30);
    free(p);
  }
}
__attribute__((noinline)) static void edge(size_t size) {
  p = malloc(size);
  free(p);
}

int main(void) {
  for (int half = 0; half < 2; half++) { // one call site each: one context
    big(half ? 3 : 2);
    edge(((size_t)1 << 31) - half);
    if (half == 0)
      __heapprof_dump();
  }
  return 0;
}

// BIG: AllocCount=5 {{.*}} TotalSize=5368709120 MinSize=1073741824 MaxSize=1073741824
// BIG-NEXT: heapprof: {{.*}} continuations=0 live_at_dump=0 max_size64=1073741824 {{.*}} live_bytes=0 bytes_small=0 bytes_medium=0 bytes_large=0 bytes_xlarge=5368709120 live_bytes_small=0
// EDGE: AllocCount=2 {{.*}} TotalSize=4294967295 MinSize=2147483647 MaxSize=2147483648
// EDGE-NEXT: heapprof: {{.*}} continuations=0 live_at_dump=0 max_size64=2147483648 {{.*}} live_bytes=0 bytes_small=0 bytes_medium=0 bytes_large=0 bytes_xlarge=4294967295 live_bytes_small=0
