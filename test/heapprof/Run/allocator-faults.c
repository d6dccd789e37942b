// alloc_faults (on by default under --allocator): the page faults the
// program takes outside the wrapped allocator's calls, counted per thread
// and charged at a measured cost per fault (section 3's "fault" rows, the
// report's cost per operation including faults).  One malloc of 1 MiB:
// over glibc's 128 KiB mmap threshold, so glibc maps it fresh and writes
// the chunk header on its first page inside malloc (a fault in the call);
// the program then writes one byte on each of the other 255 pages: 255
// faults outside any allocator call, plus at most a few of its own (stack,
// libc's data at exit).  The dump's own faults are not counted.
// cycle_sample_every=1 times the free; the malloc, the thread's first call,
// is never timed, so the cost per operation is the free's, and leaves the
// malloc out.  A free that loses the CPU (its munmap preempted: 2 runs in
// 40 on a loaded 2-CPU machine) is not a sample (docs/allocator-profiler.md,
// "Calls that lost the CPU"; allocator-descheduled.c), and the report then
// rightly says "cost per operation: unknown (2 calls, none timed)": the
// program is run again, up to 10 times, until its free kept the CPU
// (print_stats=1's "descheduled 0").
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=1:cycle_sample_every=1 sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do rm -rf "$0"; heapprof run -o "$0" --allocator=system -- "$1" > "$2" 2>&1 || exit 1; grep -Eq "^ *descheduled +0 " "$2" && exit 0; done; echo "the free lost the CPU in 10 runs" >&2; exit 1' %t.dir %t %t.stats
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: heapprof report %t.dir | FileCheck %s
// RUN: heapprof report --format json %t.dir > %t.json
// RUN: %python %S/Inputs/faults_json.py %t.json
// Two runs merged: section 3's rows add up, so 2 x (255 to 269) outside.
// RUN: env -u LD_PRELOAD heapprof run -o %t.dir --allocator=system -- %t
// RUN: heapprof merge -o %t.merged.profraw %t.dir/*.profraw
// RUN: heapprof show %t.merged.profraw | FileCheck %s --check-prefix=MERGED
// MERGED: fault by outside any call: count={{5[1-3][0-9]}} bytes=
// alloc_faults=0: no fault rows, and the report has no figure with faults.
// RUN: rm -rf %t.off && env -u LD_PRELOAD HEAPPROF_OPTIONS=alloc_faults=0:cycle_sample_every=1 heapprof run -o %t.off --allocator=system -- %t
// RUN: heapprof report %t.off | FileCheck %s --check-prefix=OFF
// STATS: faults_outside {{25[5-9]|26[0-9]}} page faults outside
// STATS: faults_in_calls {{[1-9][0-9]*}} page faults inside
// STATS: fault_cycles {{[1-9][0-9]*}} measured
// CHECK: cost per operation: {{[0-9]+}} cycles in the allocator's calls (2 calls; left out: 1 call of classes with no timed call); {{[0-9]+}} with the {{25[5-9]|26[0-9]}} page faults taken outside its calls, at {{[1-9][0-9]*}} cycles each ({{[1-9][0-9]*}} more inside its calls are in their cycles)
// CHECK: == Allocator system calls
// CHECK: {{^ *[1-9][0-9]* +.* fault +malloc large - serial}}
// CHECK: {{^ *(25[5-9]|26[0-9]) +.* fault +outside any call}}
// The same under jemalloc, tcmalloc and mimalloc: the block's first page
// is touched inside the call or by the program, so 255 or 256 faults
// outside, plus a few of the program's own.  (The ring that counts faults
// once failed to map under jemalloc and tcmalloc: an int passed to
// syscall() as mmap's offset left its upper half to chance, and both
// counted 0.)
// RUN: %if jemalloc %{ rm -rf %t.je && env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=1 heapprof run -o %t.je --allocator=%libjemalloc -- %t 2>&1 | FileCheck %s --check-prefix=OTHER %}
// RUN: %if tcmalloc %{ rm -rf %t.tc && env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=1 heapprof run -o %t.tc --allocator=%libtcmalloc -- %t 2>&1 | FileCheck %s --check-prefix=OTHER %}
// RUN: %if mimalloc %{ rm -rf %t.mi && env -u LD_PRELOAD HEAPPROF_OPTIONS=print_stats=1 heapprof run -o %t.mi --allocator=%libmimalloc -- %t 2>&1 | FileCheck %s --check-prefix=OTHER %}
// OTHER: faults_outside {{25[5-9]|26[0-9]}} page faults outside
// OFF: cost per operation: {{[0-9]+}} cycles in the allocator's calls (2 calls; left out: 1 call of classes with no timed call){{$}}
// OFF-NOT: {{ fault }}
#include <stdlib.h>

int main(void) {
  char *volatile p = malloc(1 << 20);
  for (int i = 0; i < 256; i++)
    p[i * 4096] = 1;
  free(p);
  return 0;
}
