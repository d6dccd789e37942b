// heapprof html: the page never scrolls sideways.  Long names (--full-names
// of templates over std::map) on a chain of 21 calls made the top table's
// stack cells and the call graph's function, callers and callees cells
// thousands of pixels wide, and the whole page scrolled sideways in a
// 1400-pixel window.  Now names and stacks wrap in their cells (a frame a
// line still) and a table still too wide scrolls in its own box: headless
// Chromium lays the page out at 1400 and 1000 pixels and
// Inputs/page-width.html, appended to it, says whether the document is
// wider than the window and which tables scroll in their boxes.
// REQUIRES: chromium
// RUN: rm -rf %t.prof %t.chrome && mkdir -p %t.prof
// RUN: %clangxx_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.prof %run %t
// RUN: heapprof html --full-names -o %t.html %t.prof
// RUN: cat %t.html %S/Inputs/page-width.html > %t.measure.html
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome --window-size=1400,900 --virtual-time-budget=5000 --dump-dom file://%t.measure.html > %t.1400.dom 2>/dev/null
// RUN: FileCheck %s --check-prefix=W1400 < %t.1400.dom
// The one context: 10 objects of 100 to 109 bytes, 1045 bytes, its stack
// in one cell from the allocation site (Wide<...>::make) up to main.
// W1400: <td data-col="bytes" class="" data-v="1045">1,045</td>
// W1400-SAME: <td data-col="stack" class="stack"{{[^>]*}}>Wide&lt;std::map&lt;
// W1400: {{^}}main html-width.cpp:[[@LINE+32]]</td>
// At 1400 pixels every table fits the window, its long cells wrapped:
// W1400: id="measure">page fits (scrollWidth {{[0-9]+}}, innerWidth 1400); tables scrolling in their box: none<
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome --window-size=1000,900 --virtual-time-budget=5000 --dump-dom file://%t.measure.html > %t.1000.dom 2>/dev/null
// RUN: FileCheck %s --check-prefix=W1000 < %t.1000.dom
// At 1000 pixels the page still fits; a table may scroll in its own box.
// W1000: id="measure">page fits (scrollWidth {{[0-9]+}}, innerWidth 1000);
#include <map>
#include <stdlib.h>
#include <string>

typedef std::map<std::string, std::string> Dict;

template <class A, class B, class C> struct Wide {
  __attribute__((noinline)) static void *make(int i) { return malloc(100 + i); }
};
typedef Wide<Dict, std::map<int, Dict>, int> Long;

template <int N, class T> struct Chain {
  __attribute__((noinline)) static void *call(int i) {
    return Chain<N - 1, T>::call(i);
  }
};
template <class T> struct Chain<0, T> {
  __attribute__((noinline)) static void *call(int i) { return T::make(i); }
};

static void *volatile keep[10];

int main() {
  // 10 objects of 100 to 109 bytes: 1045 bytes, from one context.
  for (int i = 0; i < 10; i++)
    keep[i] = Chain<20, Long>::call(i);
  for (int i = 0; i < 10; i++)
    free(keep[i]);
  return 0;
}
