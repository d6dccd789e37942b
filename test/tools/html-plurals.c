// Counts of one in the sentences of the HTML page (and of the text
// report's heap utilization and cost per operation): "1 object", not
// "1 objects".  The program keeps
// one 204-byte object, reachable from a global at exit, and allocates
// nothing else: the leak check finds it still reachable, the peak is that
// one object, the heap holds one live object at the last dump, and a rule
// that takes main's contexts out of the live table takes one object in one
// context.  Its one malloc is the allocator's one call, the thread's first,
// which is never timed: the cost per operation is unknown.
// REQUIRES: chromium
// RUN: rm -rf %t.d %t.chrome && mkdir -p %t.d
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=TEXT
// RUN: heapprof html -o %t.html %t.d
// RUN: printf 'leak:main\n' > %t.supp
// RUN: heapprof html --leaks=live --suppressions %t.supp -o %t.supp.html %t.d
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html' > %t.dom 2>/dev/null
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.supp.html' > %t.supp.dom 2>/dev/null
// RUN: grep -o '<p class="note">[^<]*</p>' %t.dom | FileCheck %s
// RUN: grep -o '<p class="note">[^<]*</p>' %t.supp.dom | FileCheck %s --check-prefix=SUPP
// RUN: cat %t.dom %t.supp.dom | FileCheck %s --check-prefix=NONE
#include <stdlib.h>

char *volatile kept;

int main(void) {
  kept = malloc(204);
  return 0;
}

// TEXT: (still reachable at exit, not listed: 204 bytes (204 B) in 1 object;
// TEXT: (1 live object, 204 bytes;
// TEXT: cost per operation: unknown (1 call, not timed)
// TEXT: 204 bytes (204 B) requested in 1 object at

// CHECK: no object was unreachable at exit; still reachable at exit, not listed: 204 B in 1 object (--leaks=live lists all live memory)
// CHECK: 1 live object, 204 B;
// CHECK: cost per operation: unknown (1 call, not timed)
// CHECK: 204 B requested in 1 object at {{[0-9]+}} ms;
// SUPP: suppressed (--suppressions): leak:main 1 object, 204 B in 1 context</p>
// NONE-NOT: {{[^0-9,]}}1 objects
// NONE-NOT: {{[^0-9,]}}1 contexts
// NONE-NOT: {{[^0-9,]}}1 live objects
// NONE-NOT: (1 calls)
