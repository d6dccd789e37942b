// heapprof diff between an exact run and a sampled one: sampled mode
// records no temporary objects, so the change in them is unknown ("?"),
// but the exact side's own count is still shown in the summary (it was
// "?" too).  The program allocates 300 objects of 100 bytes, each freed
// at once (300 temporary), and keeps none.  With sample_bytes=1 every
// allocation is sampled with weight 1: the same 300 objects, 30000 bytes.
// RUN: rm -rf %t.base %t.new && %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.base %run %t
// RUN: %env_heapprof_opts=profile_dir=%t.new:sample_bytes=1 %run %t
// RUN: heapprof diff %t.base %t.new | FileCheck %s
// CHECK: == Summary (NEW minus BASE)
// CHECK: allocations 300 300 0
// CHECK-NEXT: bytes 29.3 KiB 29.3 KiB 0 B
// CHECK: temporary 300 ? ?
// The one context is the same on both sides in every measure both record:
// unchanged, no row (temporary, which only BASE records, is not compared;
// compared as 300 against 0, it made the context "changed otherwise").
// CHECK: changed contexts: 0 new, 0 gone, 0 grew, 0 shrank, 0 changed otherwise; 1 unchanged
// CHECK: == Contexts by growth of bytes
// CHECK-NEXT: (no change)
// RUN: heapprof diff %t.new %t.base | FileCheck %s --check-prefix=REVERSED
// REVERSED: temporary ? 300 ?
// Ranking by a measure a side lacks would rank by nothing: an error.
// RUN: not heapprof diff --by temporary %t.base %t.new 2>&1 | FileCheck %s --check-prefix=BYTEMP
// BYTEMP: heapprof: error: --by temporary: NEW's profile does not record temporary allocations
// RUN: not heapprof diff --by temporary %t.new %t.new 2>&1 | FileCheck %s --check-prefix=BYTEMP2
// BYTEMP2: heapprof: error: --by temporary: neither profile records temporary allocations
// The same program built without -fheapprof under heapprof run counts no
// accesses (0, not unknown); make() stores 10 ints into each object when
// STORE is defined: 3000 accesses on the instrumented side.  The summary
// says which side counted none.
// RUN: rm -rf %t.acc %t.run && %clang_heapprof -DSTORE -O0 -g %s -o %t.store
// RUN: %env_heapprof_opts=profile_dir=%t.acc %run %t.store
// RUN: %clang_plain -DSTORE -O0 -g %s -o %t.plain
// RUN: heapprof run -o %t.run -- %t.plain
// RUN: heapprof diff %t.acc %t.run | FileCheck %s --check-prefix=RUNSIDE
// RUNSIDE: accesses 3000 0 -3000
// RUNSIDE: (NEW counted no accesses: its program was not compiled with -fheapprof, as under heapprof run, so the change in accesses is not the program's)
// RUN: heapprof diff %t.run %t.acc | FileCheck %s --check-prefix=RUNBASE
// RUNBASE: (BASE counted no accesses
// RUN: heapprof diff %t.base %t.new | FileCheck %s --check-prefix=NONOTE
// NONOTE-NOT: counted no accesses
// RUN: heapprof diff --format json %t.base %t.new | %python -c "import json,sys; d=json.load(sys.stdin); t=d['summary']['temporary']; print('temporary', t['base'], t['new'], t['delta']); print('missing', d['missing'])" | FileCheck %s --check-prefix=JSON
// JSON: temporary 300 None None
// JSON: missing ['temporary']
#include <stdlib.h>

__attribute__((noinline)) void *make(void) {
  int *p = malloc(100);
#ifdef STORE
  for (int i = 0; i < 10; i++)
    p[i] = i;
#endif
  return p;
}

int main(void) {
  for (int i = 0; i < 300; i++)
    free(make());
  return 0;
}
