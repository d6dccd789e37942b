// The flame graph's #zoom= address state with frame names that are
// Object.prototype's members or hold a '/': main calls V::operator/ (64
// bytes), constructor (32), hasOwnProperty (16) and __proto__ (8), 120
// bytes in all.  The page kept a frame's children in a plain object, so a
// path naming "constructor" where no such frame is found Object's
// constructor and the script died (no flame graph, no data-ready); and it
// decoded the whole path before splitting it on '/', so no encoding of
// "V::operator/" could name that frame.  Each element is now encoded on
// its own.
// REQUIRES: chromium
// RUN: rm -rf %t.d %t.chrome && mkdir -p %t.d
// RUN: %clangxx_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof html -o %t.html %t.d
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html#zoom=main' > %t.main 2>/dev/null
// RUN: %python %S/Inputs/html-dom.py %t.main | FileCheck %s --check-prefix=MAIN
// No frame "constructor" under the root, none "toString" under main: the
// view stays at the longest prefix that names frames.
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html#zoom=constructor' > %t.ctor 2>/dev/null
// RUN: %python %S/Inputs/html-dom.py %t.ctor | FileCheck %s --check-prefix=ROOT
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html#zoom=__proto__' > %t.proto 2>/dev/null
// RUN: %python %S/Inputs/html-dom.py %t.proto | FileCheck %s --check-prefix=ROOT
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html#zoom=main/toString' > %t.tostring 2>/dev/null
// RUN: %python %S/Inputs/html-dom.py %t.tostring | FileCheck %s --check-prefix=MAIN
// The frames those names do name:
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html#zoom=main/hasOwnProperty' > %t.own 2>/dev/null
// RUN: %python %S/Inputs/html-dom.py %t.own | FileCheck %s --check-prefix=OWN
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html#zoom=main/__proto__' > %t.mproto 2>/dev/null
// RUN: %python %S/Inputs/html-dom.py %t.mproto | FileCheck %s --check-prefix=PROTO
// "V::operator/" as encodeURIComponent writes it, and with only its '/'
// escaped:
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html#zoom=main/V%%3A%%3Aoperator%%2F' > %t.div 2>/dev/null
// RUN: %python %S/Inputs/html-dom.py %t.div | FileCheck %s --check-prefix=DIV
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html#zoom=main/V::operator%%2F' > %t.div2 2>/dev/null
// RUN: %python %S/Inputs/html-dom.py %t.div2 | FileCheck %s --check-prefix=DIV
// A table named __proto__ sorts nothing, and a malformed escape is a name
// like any other: the page still finishes.
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html#sort=__proto__:x&zoom=100%%' > %t.bad 2>/dev/null
// RUN: %python %S/Inputs/html-dom.py %t.bad | FileCheck %s --check-prefix=ROOT
#include <stdlib.h>

struct V {
  int *d;
  __attribute__((noinline)) V operator/(const V &) const {
    V r;
    r.d = (int *)malloc(64);
    return r;
  }
};

__attribute__((noinline)) void *constructor() { return malloc(32); }
__attribute__((noinline)) void *hasOwnProperty() { return malloc(16); }
__attribute__((noinline)) void *__proto__() { return malloc(8); }

void *volatile sink, *early_block;

// Not under main (the loader calls it): the root view is not main's
// alone, with or without libstdc++'s emergency pool.
__attribute__((constructor)) static void early() { early_block = malloc(880); }

int main() {
  V a, b;
  V c = a / b;
  free(c.d);
  sink = constructor();
  free(sink);
  sink = hasOwnProperty();
  free(sink);
  sink = __proto__();
  free(sink);
  return 0;
}

// Zoomed into main (120 bytes): each callee's width is its share.
// MAIN: flame bytes
// MAIN-NEXT: zoomed main depth=1
// MAIN-NOT: WRONG
// MAIN-DAG: frame main value=120 depth=1 width=100.00 share=100.00 ok
// MAIN-DAG: frame V::operator/ value=64 depth=2 width=53.33 share=53.33 ok
// MAIN-DAG: frame constructor value=32 depth=2 width=26.67 share=26.67 ok
// MAIN-DAG: frame hasOwnProperty value=16 depth=2 width=13.33 share=13.33 ok
// MAIN-DAG: frame __proto__ value=8 depth=2 width=6.67 share=6.67 ok

// ROOT: flame bytes
// ROOT-NEXT: zoomed all depth=0
// ROOT-NOT: WRONG
// ROOT: frame main value=120 depth=1

// OWN: zoomed hasOwnProperty depth=2
// OWN-NOT: WRONG
// OWN: frame hasOwnProperty value=16 depth=2 width=100.00 share=100.00 ok
// PROTO: zoomed __proto__ depth=2
// PROTO-NOT: WRONG
// PROTO: frame __proto__ value=8 depth=2 width=100.00 share=100.00 ok
// DIV: zoomed V::operator/ depth=2
// DIV-NOT: WRONG
// DIV: frame V::operator/ value=64 depth=2 width=100.00 share=100.00 ok
