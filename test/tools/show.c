// heapprof show reads heapprof's raw profile and its extension section.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=print_raw=1:print_text=0:profile_dir=%t.dir:cycle_sample_every=1 %run %t
// RUN: heapprof show %t.dir/*.profraw | FileCheck %s
// The raw profile is what llvm-profdata reads, extension and all.
// RUN: llvm-profdata show --memory %t.dir/*.profraw --profiled-binary %t | FileCheck %s --check-prefix=PROFDATA
#include <stdlib.h>

__attribute__((noinline)) int *get(void) { return aligned_alloc(64, 64); }

int main(void) {
  int *volatile p = get();
  for (int i = 0; i < 16; i++) // 16 stores, all in the chunk's one granule
    p[i] = i;
  free(p);
  return 0;
}
// CHECK: 1 dump
// CHECK: dump 0 at offset 0x0: raw version 4, {{[0-9]+}} bytes, {{[0-9]+}} segments, 1 MIBs, 1 stacks; heapprof extension v3: checkpoint 0,
// The main program's module comes first, under its real path.
// CHECK: module 0: {{.*}}show.c.tmp bias 0x{{[0-9a-f]+}} build id
// CHECK: MIB stack id [[ID:[0-9]+]]: AllocCount=1 TotalAccessCount=16 MinAccessCount=16 MaxAccessCount=16 TotalSize=64 MinSize=64 MaxSize=64
// One 64-aligned granule, one page, both touched; freed, never live at a
// dump; with cycle_sample_every=1 both calls were measured.  64 bytes are
// mprof's medium class (33-256), nothing is live.  It is freed before
// anything else is allocated: temporary.
// CHECK-NEXT: heapprof: granules=1 touched_granules=1 pages=1 touched_pages=1 malloc_cycles={{[1-9][0-9]*}} free_cycles={{[1-9][0-9]*}} continuations=0 live_at_dump=0 max_size64=64 malloc_samples=1 free_samples=1 live_bytes=0 bytes_small=0 bytes_medium=64 bytes_large=0 bytes_xlarge=0 live_bytes_small=0 live_bytes_medium=0 live_bytes_large=0 live_bytes_xlarge=0 live_lines=0 live_touched_lines=0 live_line_bytes=0 live_pages=0 live_touched_pages=0 live_page_bytes=0 peak_objects=1 peak_bytes=64 temporary=1{{$}}
// CHECK-NEXT: stack: 0x
// The one object, allocated and freed: the only size bin.
// CHECK-NEXT: bin 64: allocs=1 bytes=64 frees=1 freed_bytes=64{{$}}
// CHECK-NOT: bin

// PROFDATA: SymbolName: get
// PROFDATA: AllocCount: 1
// PROFDATA-NEXT: TotalAccessCount: 16
