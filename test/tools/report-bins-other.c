// The allocation bin table of a program that asks for many sizes: 1000
// objects of 64 bytes, and one object of each size from 100 to 129.  Of
// the 1030 allocations each of the 30 sizes holds 1 (0.097%), and of the
// 64000 + (100 + ... + 129) = 64000 + 3435 = 67435 bytes at most 129
// (0.19%): all under the 0.5% a size needs for a row of its own, so the
// report sums them into one "other" row of 30 allocations, 3435 bytes and
// 30 frees (the 64-byte objects stay live), and says how to list them.
// --top 0 lists every size; the JSON has the same rows and the sum.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: heapprof report %t.dir | FileCheck %s
// CHECK: == Allocation bins: by requested size
// CHECK-NEXT: size {{ *}}allocs {{ *}}bytes {{ *}}frees {{ *}}kept {{ *}}%allocs {{ *}}%bytes
// CHECK-NEXT: 64 {{ *}}1000 {{ *}}62.5 KiB {{ *}}0 {{ *}}62.5 KiB {{ *}}97.1% {{ *}}94.9%
// CHECK-NEXT: other {{ *}}30 {{ *}}3435 B {{ *}}30 {{ *}}0 B {{ *}}2.9% {{ *}}5.1%
// CHECK-NEXT: (other: 30 more sizes, each under 0.5% of the allocations and of the bytes; --top 0 shows them)
// RUN: heapprof report --top 0 %t.dir | FileCheck %s --check-prefix=ALL
// ALL: == Allocation bins: by requested size
// ALL-NEXT: size
// ALL-NEXT: {{^ *}}64 {{ *}}1000
// ALL-NEXT: {{^ *}}100 {{ *}}1 {{ *}}100 B {{ *}}1 {{ *}}0 B
// ALL: {{^ *}}129 {{ *}}1 {{ *}}129 B {{ *}}1 {{ *}}0 B
// ALL-NOT: other
// ALL: == Direct allocation
// RUN: heapprof report --top 0 %t.dir | grep -c -E '^ +1[0-2][0-9] +1 ' | FileCheck %s --check-prefix=COUNT
// COUNT: {{^}}30{{$}}
// RUN: heapprof report --format json %t.dir > %t.json
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); o=r['bins_omitted']; print([b['label'] for b in r['bins']], o['sizes'], o['allocs'], o['bytes'], o['frees'], o['kept'])" %t.json | FileCheck %s --check-prefix=JSON
// JSON: ['64'] 30 30 3435 30 0
// The page, in headless Chromium, says the same under its bin table.
// RUN: rm -rf %t.chrome && heapprof html -o %t.html %t.dir
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html' > %t.dom 2>/dev/null
// RUN: grep -o '<p class="note">[^<]*more sizes[^<]*</p>' %t.dom | FileCheck %s --check-prefix=HTML
// HTML: 30 more sizes, each under 0.5% of the allocations and of the bytes, not listed: 30 allocations, 3.4 KiB (--top 0 lists them)
#include <stdlib.h>

static void *volatile keep[1000];

int main(void) {
  for (int i = 0; i < 1000; i++)
    keep[i] = malloc(64);
  for (int size = 100; size < 130; size++)
    free(malloc(size));
  return 0;
}
