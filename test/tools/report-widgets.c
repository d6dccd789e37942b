// heapprof report on mprof's widget example: red widgets are made and never
// freed (the leak), blue ones are freed; labels, a 1000-byte and a 5000-byte
// buffer put allocations in known size bins and size classes.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 -g %s -o %t
// The leak table read here is mprof's, of everything live at the end: the
// profile is written without the leak check (test/tools/leaks.c has it).
// RUN: %env_heapprof_opts=profile_dir=%t.dir:detect_leaks=0 %run %t
// RUN: heapprof report %t.dir | FileCheck %s
// RUN: heapprof report --depth 1 --top 1 %t.dir | FileCheck %s --check-prefix=DEPTH1
// RUN: heapprof report --sort allocs --top 2 %t.dir | FileCheck %s --check-prefix=ALLOCS
// RUN: heapprof report --sort live --top 2 %t.dir | FileCheck %s --check-prefix=LIVE
// RUN: heapprof report --sort accesses --top 0 %t.dir | FileCheck %s --check-prefix=ACCESSES
// RUN: heapprof report --full %t.dir | FileCheck %s --check-prefix=FULL
// RUN: heapprof report --format json --top 0 %t.dir/heapprof.*.profraw > %t.json
// RUN: %python %S/Inputs/check-widgets-json.py %t.json
// RUN: heapprof report --format json --output %t.out.json %t.dir
// RUN: %python -m json.tool %t.out.json > /dev/null
#include <stdlib.h>

enum { RED = 1, BLUE = 2, NRED = 5103, NBLUE = 2000, NLABEL = 100 };

struct widget { // 40 bytes: bin 40, class medium (33-256)
  int color;
  char name[36];
};

__attribute__((noinline)) static struct widget *make_widget(int color) {
  struct widget *w = malloc(sizeof *w);
  w->color = color; // one access per widget
  return w;
}
__attribute__((noinline)) static struct widget *make_red(void) {
  return make_widget(RED);
}
__attribute__((noinline)) static struct widget *make_blue(void) {
  return make_widget(BLUE);
}
__attribute__((noinline)) static char *make_label(void) {
  return malloc(24); // bin 24, class small
}
__attribute__((noinline)) static char *make_buffer(size_t n) {
  return malloc(n); // 1000: bin 1000, large; 5000: bin >1024, xlarge
}

struct widget *volatile red[NRED];

int main(void) {
  for (int i = 0; i < NRED; i++)
    red[i] = make_red();
  for (int i = 0; i < NBLUE; i++) {
    struct widget *volatile w = make_blue();
    free(w);
  }
  for (int i = 0; i < NLABEL; i++) {
    char *volatile l = make_label();
    free(l);
  }
  char *volatile small_buf = make_buffer(1000);
  free(small_buf);
  char *volatile big_buf = make_buffer(5000); // leaked
  (void)big_buf;
  return 0;
}

// 5103 + 2000 + 100 + 1 + 1 objects; 40*7103 + 24*100 + 1000 + 5000 bytes.
// Live at exit: the red widgets (5103*40 = 204120) and the 5000-byte buffer.
// CHECK: == Summary
// CHECK-NEXT: allocations 7205 objects, 292520 bytes (285.7 KiB)
// CHECK-NEXT: frees 2101 objects
// CHECK-NEXT: live at the end 5104 objects, 209120 bytes (204.2 KiB)
// CHECK-NEXT: accesses 7103
// Every free is of the object just allocated: 2000 + 100 + 1 temporary,
// 2101 / 7205 = 29.2 %.
// CHECK-NEXT: temporary 2101 objects (29.2% of the allocations): freed before their thread allocated again
// CHECK-NEXT: contexts 5
// CHECK: program {{.*}}report-widgets.c.tmp (build id [[ID:[0-9a-f]+]])

// 204120 / 292520 = 69.8%; 80000 / 292520 = 27.3%.
// CHECK: == Top contexts by bytes
// CHECK-NEXT: #1 69.8% 199.3 KiB in 5103 objects (40 B each), 5103 live (199.3 KiB), 5103 accesses (1.0 per object)
// CHECK-NEXT: make_widget {{.*}}report-widgets.c:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT: make_red {{.*}}report-widgets.c
// CHECK-NEXT: main {{.*}}report-widgets.c
// CHECK-NEXT: #2 27.3% 78.1 KiB in 2000 objects (40 B each), 0 live (0 B), 2000 accesses (1.0 per object)
// CHECK-NEXT: make_widget
// CHECK-NEXT: make_blue
// CHECK-NEXT: {{^ +}}main 
// CHECK-NEXT: #3 1.7% 5000 B in 1 object (5000 B each), 1 live (5000 B), 0 accesses
// CHECK-NEXT: make_buffer
// CHECK-NEXT: {{^ +}}main 
// CHECK-NEXT: #4 0.8% 2400 B in 100 objects (24 B each), 0 live (0 B), 0 accesses
// CHECK-NEXT: make_label
// CHECK-NEXT: {{^ +}}main 
// CHECK-NEXT: #5 0.3% 1000 B in 1 object (1000 B each), 0 live (0 B), 0 accesses
// CHECK-NEXT: make_buffer
// CHECK-NEXT: {{^ +}}main 

// The leak: 204120 of 209120 live bytes (97.6%) through one chain.
// CHECK: == Memory leaks: live at the end, by allocation site and 2 callers
// CHECK-NEXT: bytes % objects call chain
// CHECK-NEXT: 199.3 KiB 97.6% 5103 make_widget ({{.*}}report-widgets.c:{{[0-9:]+}}) <- make_red ({{.*}}) <- main ({{.*}})
// CHECK-NEXT: 5000 B 2.4% 1 make_buffer ({{.*}}) <- main ({{.*}})
// CHECK-EMPTY:

// One row per requested size; kept = bytes never freed.
// CHECK: == Allocation bins: by requested size
// CHECK-NEXT: size allocs bytes frees kept %allocs %bytes
// CHECK-NEXT: 24 100 2400 B 100 0 B 1.4% 0.8%
// CHECK-NEXT: 40 7103 277.5 KiB 2000 199.3 KiB 98.6% 97.1%
// CHECK-NEXT: 1000 1 1000 B 1 0 B 0.0% 0.3%
// CHECK-NEXT: >1024 1 5000 B 0 5000 B 0.0% 1.7%
// CHECK-NEXT: (sizes nothing asked for are left out

// make_buffer: 6000 bytes, 1000 large (17%) and 5000 xlarge (83%).
// CHECK: == Direct allocation: functions that called the allocator
// CHECK-NEXT: %bytes bytes kept calls small medium large xlarge function
// CHECK-NEXT: 97.1% 277.5 KiB 199.3 KiB 7103 0% 100% 0% 0% make_widget
// CHECK-NEXT: 2.1% 6000 B 5000 B 2 0% 0% 17% 83% make_buffer
// CHECK-NEXT: 0.8% 2400 B 0 B 100 100% 0% 0% 0% make_label

// main is above everything; make_widget is called by make_red and make_blue.
// CHECK: == Allocation call graph
// CHECK-NEXT: index %bytes self total calls name
// CHECK-NEXT: [1] 100.0% 0 B 285.7 KiB 7205 main [1]
// CHECK-NEXT: 199.3 KiB 5103 make_red [3]
// CHECK-NEXT: 78.1 KiB 2000 make_blue [4]
// CHECK-NEXT: 6000 B 2 make_buffer [5]
// CHECK-NEXT: 2400 B 100 make_label [6]
// CHECK-NEXT: -----
// CHECK-NEXT: 199.3 KiB 5103 make_red [3]
// CHECK-NEXT: 78.1 KiB 2000 make_blue [4]
// CHECK-NEXT: [2] 97.1% 277.5 KiB 277.5 KiB 7103 make_widget [2]
// CHECK-NEXT: -----
// CHECK-NEXT: 199.3 KiB 5103 main [1]
// CHECK-NEXT: [3] 69.8% 0 B 199.3 KiB 5103 make_red [3]
// CHECK-NEXT: 199.3 KiB 5103 make_widget [2]

// A widget is 40 bytes and gets one store: 1 access per object, density
// 100/40 = 2.5 per 100 bytes (of the context's totals; the runtime's
// integer per object, 2, averaged read 2.0), one of its granules touched.
// CHECK: == Access and allocator measures of the top contexts
// CHECK-NEXT: # acc/object density lines touched pages touched line util page util
// CHECK-NEXT: #1 1.0 2.5
// The cold candidates name each context by its site and callers (--depth),
// as the leak and peak tables do: the red and the blue widgets are two
// contexts of one site, whose rows both read "make_widget (...:29:22)".
// CHECK: == Cold candidates
// CHECK-NEXT: bytes objects acc/object density lifetime ms call chain
// CHECK-NEXT: 199.3 KiB 5103 1.0 2.5 {{[0-9.]+}} make_widget ({{.*}}) <- make_red ({{.*}}) <- main (
// CHECK-NEXT: 78.1 KiB 2000 1.0 2.5 {{[0-9.]+}} make_widget ({{.*}}) <- make_blue ({{.*}}) <- main (

// DEPTH1: == Top contexts by bytes
// DEPTH1-NEXT: #1 69.8%
// DEPTH1: (4 more contexts; --top 0 shows all)
// DEPTH1: by allocation site and 0 callers
// DEPTH1-NEXT: bytes % objects call chain
// DEPTH1-NEXT: 199.3 KiB 97.6% 5103 make_widget ({{.*}}){{$}}
// DEPTH1-NEXT: (1 more call chain; --top 0 shows all)

// ALLOCS: == Top contexts by allocs
// ALLOCS-NEXT: #1 70.8% 199.3 KiB in 5103 objects
// ALLOCS: #2 27.8% 78.1 KiB in 2000 objects
// ALLOCS: (3 more contexts

// Live bytes: the red widgets (204120 of 209120) and the 5000-byte buffer;
// the contexts with nothing live are not listed.
// LIVE: == Top contexts by live
// LIVE-NEXT: #1 97.6% 199.3 KiB in 5103 objects
// LIVE: #2 2.4% 5000 B in 1 object
// LIVE-NOT: more context

// Only widgets are touched, once each: 5103 and 2000 of 7103 accesses; the
// contexts without accesses are not listed.
// ACCESSES: == Top contexts by accesses
// ACCESSES-NEXT: #1 71.8% 199.3 KiB in 5103 objects
// ACCESSES: #2 28.2% 78.1 KiB in 2000 objects
// ACCESSES-NOT: #3
// ACCESSES: == Memory leaks

// FULL: == Allocation bins
// FULL-NEXT: size allocs
// FULL-NEXT: 0 0 0 B 0 0 B 0.0% 0.0%
// FULL-NEXT: 1 0 0 B
// FULL: 1024 0 0 B
// FULL-NEXT: >1024 1 5000 B
