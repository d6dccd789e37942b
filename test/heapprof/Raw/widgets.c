// mprof's producer/consumer example, made deterministic: the data behind
// its tables (size bins, live and per-class bytes per context, the main
// program's module), checked from the program's numbers, and a checkpoint
// run whose two dumps add up to the run without the checkpoint.
//
// 10000 widgets: even ones red (204 bytes, mprof's medium class 33-256),
// odd ones blue (24 bytes, small 0-32), and 6 big ones of 1500 (large
// 257-2048) and 3000 bytes (extra large), alternating.  First the red
// widgets 0..4998 are freed (2500); [checkpoint]; then the other 2500 red,
// [second checkpoint, in merge.test], every blue but the last 100, and the
// three 3000-byte big ones.  Kept at
// exit: 100 blue (2400 bytes) and three 1500-byte big ones (4500 bytes).
//
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.one %t.two && mkdir -p %t.two/out
// RUN: %env_heapprof_opts=print_raw=1:print_text=0:profile_dir=%t.one %run %t
// RUN: heapprof show %t.one/*.profraw > %t.one.show
// RUN: FileCheck %s --check-prefix=MODULE < %t.one.show
// RUN: FileCheck %s --check-prefix=BINS < %t.one.show
// RUN: %python %S/Inputs/sum_show.py %t.one.show | FileCheck %s --check-prefix=TOTAL
// RUN: llvm-profdata show --memory %t.one/*.profraw --profiled-binary %t | FileCheck %s --check-prefix=PROFDATA
// RUN: rm -rf %t.txt && %env_heapprof_opts=print_raw=0:print_text=1:profile_dir=%t.txt %run %t
// RUN: FileCheck %s --check-prefix=TEXT < %t.txt/*.txt
//
// RUN: %env_heapprof_opts=print_raw=1:print_text=0:profile_dir=%t.two %run %t checkpoint
// RUN: mv %t.two/heapprof.*.1.profraw %t.two/out/1.profraw
// RUN: mv %t.two/heapprof.*.profraw %t.two/out/exit.profraw
// RUN: heapprof show %t.two/out/1.profraw > %t.two.1.show
// RUN: heapprof show %t.two/out/exit.profraw > %t.two.exit.show
// RUN: heapprof show %t.two/out/1.profraw %t.two/out/exit.profraw > %t.two.both.show
// RUN: %python %S/Inputs/sum_show.py %t.two.1.show | FileCheck %s --check-prefix=DUMP1
// RUN: %python %S/Inputs/sum_show.py %t.two.exit.show | FileCheck %s --check-prefix=DUMP2
// The two dumps added up are the run without the checkpoint: same lines.
// RUN: %python %S/Inputs/sum_show.py %t.two.both.show | FileCheck %s --check-prefix=TOTAL
// RUN: llvm-profdata show --memory %t.two/out/1.profraw --profiled-binary %t | FileCheck %s --check-prefix=PROFDATA
// RUN: llvm-profdata show --memory %t.two/out/exit.profraw --profiled-binary %t | FileCheck %s --check-prefix=PROFDATA
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>
#include <string.h>

#define NWIDGETS 10000
#define NBIG 6
#define KEPT_BLUE 100

static void *volatile widgets[NWIDGETS];
static void *volatile big[NBIG];

__attribute__((noinline)) void *make_widget(size_t size) {
  return malloc(size);
}
__attribute__((noinline)) void *make_red_widget(void) {
  return make_widget(204);
}
__attribute__((noinline)) void *make_blue_widget(void) {
  return make_widget(24);
}
__attribute__((noinline)) void *make_big_widget(int i) {
  return make_widget(i % 2 ? 3000 : 1500);
}
__attribute__((noinline)) void consume_widget(void *w) { free(w); }

int main(int argc, char **argv) {
  for (int i = 0; i < NWIDGETS; i++)
    widgets[i] = i % 2 ? make_blue_widget() : make_red_widget();
  for (int i = 0; i < NBIG; i++)
    big[i] = make_big_widget(i);
  for (int i = 0; i < NWIDGETS / 2; i += 2)
    consume_widget(widgets[i]);
  if (argc > 1 && !strcmp(argv[1], "checkpoint") && __heapprof_dump() != 0)
    return 1;
  for (int i = NWIDGETS / 2; i < NWIDGETS; i += 2)
    consume_widget(widgets[i]);
  // "checkpoint twice" (merge.test): a second checkpoint after all red.
  if (argc > 2 && __heapprof_dump() != 0)
    return 1;
  for (int i = 1; i < NWIDGETS - 2 * KEPT_BLUE; i += 2)
    consume_widget(widgets[i]);
  for (int i = 1; i < NBIG; i += 2)
    consume_widget(big[i]);
  return 0;
}

// The main program is module 0, under its absolute path.
// MODULE: module 0: /{{.*}}/widgets.c.tmp bias 0x{{[0-9a-f]+}} build id {{[0-9a-f]+}}
// MODULE-NOT: module 0:

// mprof's allocation bin table: 5000 blue, 4900 freed; 5000 red, all
// freed; the >1024 bin holds 3 x 1500 + 3 x 3000 bytes, the 3000s freed.
// BINS: bin 24: allocs=5000 bytes=120000 frees=4900 freed_bytes=117600{{$}}
// BINS-NEXT: bin 204: allocs=5000 bytes=1020000 frees=5000 freed_bytes=1020000{{$}}
// BINS-NEXT: bin >1024: allocs=6 bytes=13500 frees=3 freed_bytes=9000{{$}}
// BINS-NOT: bin

// Per context (make_widget < make_{red,blue,big}_widget < main): allocated
// bytes by class; live bytes at exit.
// TOTAL: contexts 3
// TOTAL-DAG: context AllocCount=5000 TotalSize=1020000 bytes_small=0 bytes_medium=1020000 bytes_large=0 bytes_xlarge=0 live_at_dump=0 live_bytes=0 live_bytes_small=0 live_bytes_medium=0 live_bytes_large=0 live_bytes_xlarge=0{{$}}
// TOTAL-DAG: context AllocCount=5000 TotalSize=120000 bytes_small=120000 bytes_medium=0 bytes_large=0 bytes_xlarge=0 live_at_dump=100 live_bytes=2400 live_bytes_small=2400 live_bytes_medium=0 live_bytes_large=0 live_bytes_xlarge=0{{$}}
// TOTAL-DAG: context AllocCount=6 TotalSize=13500 bytes_small=0 bytes_medium=0 bytes_large=4500 bytes_xlarge=9000 live_at_dump=3 live_bytes=4500 live_bytes_small=0 live_bytes_medium=0 live_bytes_large=4500 live_bytes_xlarge=0{{$}}
// TOTAL: bin 24: allocs=5000 bytes=120000 frees=4900 freed_bytes=117600{{$}}
// TOTAL-NEXT: bin 204: allocs=5000 bytes=1020000 frees=5000 freed_bytes=1020000{{$}}
// TOTAL-NEXT: bin >1024: allocs=6 bytes=13500 frees=3 freed_bytes=9000{{$}}
// 100 blue + 3 big objects, 2400 + 4500 bytes: the live bytes at exit.
// TOTAL-NEXT: kept: objects=103 bytes=6900{{$}}

// The checkpoint: every widget allocated; 2500 red freed, the rest live.
// DUMP1: contexts 3
// DUMP1-DAG: context AllocCount=5000 TotalSize=1020000 bytes_small=0 bytes_medium=1020000 bytes_large=0 bytes_xlarge=0 live_at_dump=2500 live_bytes=510000 live_bytes_small=0 live_bytes_medium=510000 live_bytes_large=0 live_bytes_xlarge=0{{$}}
// DUMP1-DAG: context AllocCount=5000 TotalSize=120000 bytes_small=120000 bytes_medium=0 bytes_large=0 bytes_xlarge=0 live_at_dump=5000 live_bytes=120000 live_bytes_small=120000 live_bytes_medium=0 live_bytes_large=0 live_bytes_xlarge=0{{$}}
// DUMP1-DAG: context AllocCount=6 TotalSize=13500 bytes_small=0 bytes_medium=0 bytes_large=4500 bytes_xlarge=9000 live_at_dump=6 live_bytes=13500 live_bytes_small=0 live_bytes_medium=0 live_bytes_large=4500 live_bytes_xlarge=9000{{$}}
// DUMP1: bin 24: allocs=5000 bytes=120000 frees=0 freed_bytes=0{{$}}
// DUMP1-NEXT: bin 204: allocs=5000 bytes=1020000 frees=2500 freed_bytes=510000{{$}}
// DUMP1-NEXT: bin >1024: allocs=6 bytes=13500 frees=0 freed_bytes=0{{$}}
// DUMP1-NEXT: kept: objects=7506 bytes=643500{{$}}

// The exit dump: only continuations (the checkpoint counted every object):
// no allocations, no allocated bytes; the frees after the checkpoint.
// DUMP2: contexts 3
// DUMP2-DAG: context AllocCount=0 TotalSize=0 bytes_small=0 bytes_medium=0 bytes_large=0 bytes_xlarge=0 live_at_dump=0 live_bytes=0 live_bytes_small=0 live_bytes_medium=0 live_bytes_large=0 live_bytes_xlarge=0{{$}}
// DUMP2-DAG: context AllocCount=0 TotalSize=0 bytes_small=0 bytes_medium=0 bytes_large=0 bytes_xlarge=0 live_at_dump=100 live_bytes=2400 live_bytes_small=2400 live_bytes_medium=0 live_bytes_large=0 live_bytes_xlarge=0{{$}}
// DUMP2-DAG: context AllocCount=0 TotalSize=0 bytes_small=0 bytes_medium=0 bytes_large=0 bytes_xlarge=0 live_at_dump=3 live_bytes=4500 live_bytes_small=0 live_bytes_medium=0 live_bytes_large=4500 live_bytes_xlarge=0{{$}}
// DUMP2: bin 24: allocs=0 bytes=0 frees=4900 freed_bytes=117600{{$}}
// DUMP2-NEXT: bin 204: allocs=0 bytes=0 frees=2500 freed_bytes=510000{{$}}
// DUMP2-NEXT: bin >1024: allocs=0 bytes=0 frees=3 freed_bytes=9000{{$}}

// The text profile shows the live bytes too, and the temporary allocations:
// one, big[5], the last allocated, freed with nothing allocated after it.
// TEXT-DAG: live at dump: 0, continued from earlier dumps: 0, live bytes: 0, temporary: 0{{$}}
// TEXT-DAG: live at dump: 100, continued from earlier dumps: 0, live bytes: 2400, temporary: 0{{$}}
// TEXT-DAG: live at dump: 3, continued from earlier dumps: 0, live bytes: 4500, temporary: 1{{$}}

// llvm-profdata 19 still reads every file.
// PROFDATA: MemprofProfile:
// PROFDATA: SymbolName: make_widget
