// The top table's access density on the HTML page: accesses per 100 bytes,
// labelled so, as the text report's "density" column (and --sort density)
// gives it.  One 4000-byte block (1000 ints) gets 500 stores: 500 * 100 /
// 4000 = 12.5 per 100 bytes, of the context's totals (the runtime's
// per-object integer, 12, averaged read 12.0).  (Per byte it would be
// 0.125: a column labelled "accesses/B" showing 12 was wrong by a factor
// of 100.)
// REQUIRES: chromium
// RUN: rm -rf %t.d %t.chrome && mkdir -p %t.d
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=TEXT
// RUN: heapprof html -o %t.html %t.d
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html' > %t.dom 2>/dev/null
// RUN: grep -o '<t[hd] data-col="density"[^>]*>[^<]*<' %t.dom | FileCheck %s
#include <stdlib.h>

int main(void) {
  int *volatile p = malloc(4000);
  for (int i = 0; i < 500; i++)
    p[i] = i;
  free(p);
  return 0;
}

// The text report's measures of context #1: 500.0 accesses per object,
// density 12.5, "accesses per 100 bytes".
// TEXT: == Access and allocator measures of the top contexts
// TEXT-NEXT: acc/object density
// TEXT-NEXT: #1 500.0 12.5 
// TEXT: (density: accesses per 100 bytes;

// CHECK: <th data-col="density" class="">accesses/100 B<
// CHECK-NEXT: <td data-col="density" class="" data-v="12.5">12.5<
