// heapprof flamegraph --svg in a real browser: headless chromium loads the
// SVG, its script runs, and a click on b zooms b to the full width.
//
//   main -> a: malloc(300)   main -> b: malloc(100)      (400 bytes)
//
// Before the click: a is 1180 * 300/400 = 885 wide at x 10, b 295 at 895.
// After clicking b: b spans 10..1190, a is hidden, main and all (below b)
// span the full width, and the details line shows b's title.
// REQUIRES: chromium
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: heapprof flamegraph --svg -o %t.svg %t.dir
// RUN: chromium --headless --no-sandbox --disable-gpu --dump-dom file://%t.svg 2>/dev/null | FileCheck %s --check-prefix=LOADED
// RUN: %python %S/Inputs/flamegraph-click.py %t.svg %t.click.svg b
// RUN: chromium --headless --no-sandbox --disable-gpu --dump-dom file://%t.click.svg 2>/dev/null | FileCheck %s --check-prefix=ZOOMED
// Nothing is read or written in a and b's memory: by accesses every stack
// weighs 0, the collapsed output is empty and the SVG has no frame.
// RUN: heapprof flamegraph --weight accesses %t.dir | FileCheck %s --allow-empty --check-prefix=EMPTY
// RUN: heapprof flamegraph --weight accesses --svg %t.dir > %t.empty.svg
// RUN: %python -c "import sys, xml.etree.ElementTree as E; t = E.parse(sys.argv[1]); assert not [g for g in t.iter('{http://www.w3.org/2000/svg}g')]" %t.empty.svg
// EMPTY-NOT: {{.}}
#include <stdlib.h>

void *volatile keep[2];
__attribute__((noinline)) static void *a(void) { return malloc(300); }
__attribute__((noinline)) static void *b(void) { return malloc(100); }

int main(void) {
  keep[0] = a();
  keep[1] = b();
  return 0;
}

// LOADED: id="reset" {{.*}}display:{{ ?}}none
// LOADED: <title>a (300 bytes, 75.00%)</title><rect x="10" {{.*}} width="885"
// LOADED: <title>b (100 bytes, 25.00%)</title><rect x="895" {{.*}} width="295"

// ZOOMED: <text id="reset" {{.*}}style="">Reset zoom
// ZOOMED: id="details"{{.*}}>b (100 bytes, 25.00%)</text>
// ZOOMED: <g class="f parent" {{.*}}><title>all (400 bytes, 100.00%)</title><rect x="10" {{.*}} width="1180"
// ZOOMED: <g class="f parent" {{.*}}><title>main (400 bytes, 100.00%)</title><rect x="10" {{.*}} width="1180"
// ZOOMED: style="display: none;"><title>a (300 bytes
// ZOOMED: <title>b (100 bytes, 25.00%)</title><rect x="10" {{.*}} width="1180"
