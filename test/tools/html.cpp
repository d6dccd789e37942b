// heapprof html: the page, opened by headless Chromium, builds the report's
// tables and the flame graph; the DOM it dumps after its scripts ran shows
// the program's numbers.  The source sits in a directory named "</script>"
// so the embedded JSON carries that path (and the template name carries
// '<' and '>'): the page must still parse.
// REQUIRES: chromium
// RUN: rm -rf %t.d %t.prof %t.chrome && mkdir -p '%t.d/</script>' %t.prof
// RUN: cp %s '%t.d/</script>/html.cpp'
// RUN: %clangxx_heapprof -O0 -g '%t.d/</script>/html.cpp' -o %t
// The leak table of everything live (detect_leaks=0; kept[] reaches the
// three gadgets; html-leaks.test has the leak check's table).
// RUN: %env_heapprof_opts=profile_dir=%t.prof:detect_leaks=0 %run %t
// RUN: heapprof html -o %t.html %t.prof
// heapprof report writes the same page with --html or --format html:
// RUN: heapprof report --html %t.prof > %t.report.html
// RUN: cmp %t.html %t.report.html
// RUN: heapprof report --format html -o %t.report2.html %t.prof
// RUN: cmp %t.html %t.report2.html
// and with an --output name ending in .html; .json gives the JSON, and
// --format wins over the name:
// RUN: heapprof report -o %t.report3.html %t.prof
// RUN: cmp %t.html %t.report3.html
// RUN: heapprof report --format json %t.prof > %t.expected.json
// RUN: heapprof report -o %t.report.json %t.prof
// RUN: cmp %t.expected.json %t.report.json
// RUN: heapprof report --format text -o %t.text.json %t.prof
// RUN: head -1 %t.text.json | FileCheck %s --check-prefix=TEXTFIRST
// TEXTFIRST: heapprof report: 1 process, 1 file
// Exactly the page's own three </script> tags: the path is escaped.
// RUN: grep -o '</script>' %t.html | wc -l | FileCheck %s --check-prefix=TAGS
// RUN: grep -c 'u003c/script>/html.cpp' %t.html | FileCheck %s --check-prefix=PATH
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html' > %t.dom 2>/dev/null
// RUN: %python %S/Inputs/html-dom.py %t.dom top leaks | FileCheck %s
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html#sort=top:allocs' > %t.sorted 2>/dev/null
// RUN: %python %S/Inputs/html-dom.py %t.sorted top | FileCheck %s --check-prefix=SORTED
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html#weight=allocs&zoom=main' > %t.zoom 2>/dev/null
// RUN: %python %S/Inputs/html-dom.py %t.zoom | FileCheck %s --check-prefix=ZOOM
// Bad usage and unwritable output: one error line, no file.
// RUN: not heapprof html %t.prof 2>&1 | FileCheck %s --check-prefix=NOOUT
// RUN: not heapprof html -o %t.nodir/x.html %t.prof 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: test ! -e %t.nodir
// RUN: not heapprof html -o %t.bad.html %s 2>&1 | FileCheck %s --check-prefix=BADINPUT
// RUN: test ! -e %t.bad.html && test ! -e %t.bad.html.tmp
#include <stdlib.h>

struct Gadget {
  char data[48];
};

namespace shop {
template <typename T> struct Factory {
  __attribute__((noinline)) static T *make() { return new T; }
};
} // namespace shop

Gadget *volatile kept[3];

__attribute__((noinline)) void many_small() {
  for (int i = 0; i < 20; i++) {
    char *volatile p = (char *)malloc(8);
    free(p);
  }
}

int main() {
  for (int i = 0; i < 10; i++) {
    Gadget *volatile g = shop::Factory<Gadget>::make();
    if (i < 3)
      kept[i] = g;
    else
      delete g;
  }
  many_small();
  return 0;
}

// TAGS: {{^ *}}3{{$}}
// PATH: {{^[1-9]}}

// Top by bytes (the default): 10 gadgets of 48 B, 3 kept, rank before the
// 20 freed 8-byte blocks.  (libstdc++'s emergency pool is one more context.)
// CHECK-NOT: sorted top
// CHECK: row top {{[0-9]+}}: shop::Factory::make html.cpp:{{[0-9]+}} rank={{[0-9]+}} bytes=480 allocs=10 frees=7 live_objects=3 live_bytes=144
// CHECK: row top {{[0-9]+}}: many_small html.cpp:{{[0-9]+}} rank={{[0-9]+}} bytes=160 allocs=20 frees=20 live_objects=0 live_bytes=0
// CHECK: row leaks {{[0-9]+}}: shop::Factory::make html.cpp:{{[0-9]+}} bytes=144 objects=3
// The flame graph by bytes: main = 480 + 160; every width is its share.
// CHECK: flame bytes
// CHECK-NOT: WRONG
// CHECK-DAG: frame main value=640 depth=1 {{.*}} ok
// CHECK-DAG: frame many_small value=160 depth=2 {{.*}} ok
// CHECK-DAG: frame shop::Factory::make value=480 depth=2 {{.*}} ok

// Clicking "allocs" (the #sort hook): the 20 small blocks come first.
// SORTED: sorted top allocs:desc
// SORTED: row top 1: many_small {{.*}} allocs=20
// SORTED: row top 2: shop::Factory::make {{.*}} allocs=10

// By allocations, zoomed into main: main is the whole width (30 calls),
// many_small 20/30, make 10/30.
// ZOOM: flame allocs
// ZOOM-NOT: WRONG
// ZOOM-DAG: frame main value=30 depth=1 width=100.00 share=100.00 ok
// ZOOM-DAG: frame many_small value=20 depth=2 width=66.67 share=66.67 ok
// ZOOM-DAG: frame shop::Factory::make value=10 depth=2 width=33.33 share=33.33 ok

// NOOUT: heapprof: error: no output file given (-o OUT.html)
// BADINPUT: heapprof: error: {{.*}}html.cpp: not a MemProf raw profile
// UNWRITABLE: heapprof: error: {{.*}}.nodir/x.html: cannot write: No such file or directory
