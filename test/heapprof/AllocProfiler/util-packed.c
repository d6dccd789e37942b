// Heap utilization of 20,000 live 48-byte objects, every byte written.
//
// heapprof's layout: 48 bytes + the 32-byte header need 80, so the block is
// the 96-byte class, carved upward from its region's page-aligned start.
// Block k = [96k, 96k+96) holds its user bytes at [96k+32, 96k+80): an even
// block (96k = 192j) covers lines 3j and 3j+1, an odd one line 3j+2, so the
// objects fill 30,000 lines, each touched, with 960,000 bytes: 50.00%.
// 20,000 blocks = 1,920,000 bytes = pages 0..468 (the last one part-filled):
// 469 pages, 960,000 / (469 * 4096) = 49.97%.  (Summed per object, as the
// "touched per object" line does, 20,000 objects span 20,156 pages: a page
// holding k objects counts k times.)
//
// With the odd blocks' objects freed (argument "free-odd": their user bytes
// start at 192j+128, a multiple of 64, the even ones' at 192j+32), the
// 10,000 even ones hold 480,000 bytes on 20,000 lines (37.50%) and still on 469 pages
// (24.98%).  Heap-wide the freed lines still count as touched: the program
// touched 30,000 lines of which the live objects hold 480,000 bytes, 25.00%.
//
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: %env_heapprof_opts=log_path=stderr %run %t 2>&1 | FileCheck %s --check-prefix=LIVE
// RUN: %env_heapprof_opts=log_path=stderr %run %t free-odd 2>&1 | FileCheck %s --check-prefix=ODD
// RUN: %env_heapprof_opts=log_path=stderr:heap_utilization=0 %run %t 2>&1 | FileCheck %s --check-prefix=OFF
// The raw profile carries the same numbers; report, show and merge read them.
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t free-odd
// RUN: heapprof report %t.dir | FileCheck %s --check-prefix=REPORT
// RUN: heapprof report --format json %t.dir | FileCheck %s --check-prefix=JSON
// RUN: heapprof merge -o %t.merged %t.dir
// RUN: heapprof show %t.merged | FileCheck %s --check-prefix=SHOW
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define N 20000
static char *volatile objs[N]; // not on the heap: only the objects are

int main(int argc, char **argv) {
  for (int i = 0; i < N; i++) {
    objs[i] = malloc(48);
    memset(objs[i], 1, 48);
  }
  if (argc > 1)
    for (int i = 0; i < N; i++)
      if ((uintptr_t)objs[i] % 64 == 0)
        free(objs[i]);
  return 0;
}

// LIVE: alloc_count 20000, size (ave/min/max) 48.00 / 48 / 48
// LIVE: touched per object: lines 100.00% (30000 of 30000), pages 100.00% (20156 of 20156)
// LIVE-NEXT: live utilization: lines 50.00% (960000 live bytes on 30000 touched of 30000 lines), pages 49.97% (960000 live bytes on 469 touched of 469 pages)
// LIVE: Heap utilization: lines 50.00% (960000 live bytes on 30000 touched of 30000 lines), pages 49.97% (960000 live bytes on 469 touched of 469 pages)

// ODD: alloc_count 20000, size (ave/min/max) 48.00 / 48 / 48
// ODD: live utilization: lines 37.50% (480000 live bytes on 20000 touched of 20000 lines), pages 24.98% (480000 live bytes on 469 touched of 469 pages)
// ODD: live at dump: 10000, continued from earlier dumps: 0, live bytes: 480000
// ODD: Heap utilization: lines 25.00% (480000 live bytes on 30000 touched of 30000 lines), pages 24.98% (480000 live bytes on 469 touched of 469 pages)

// OFF: live utilization: lines n/a (0 live bytes on 0 touched of 0 lines)
// OFF-NOT: Heap utilization

// REPORT: == Access and allocator measures of the top contexts
// REPORT-NEXT: # acc/object density lines touched pages touched line util page util
// Every byte of a 48-byte object written with 8-byte stores: 6 accesses,
// density 600 / 48 = 12.5 per 100 bytes (the runtime's per-object integer
// is 12).
// REPORT-NEXT: #1 6.0 12.5 100.0% 100.0% 37.5% 25.0%
// REPORT: == Heap utilization at the last dump
// REPORT-NEXT: utilization touched of live bytes on touched
// REPORT-NEXT: cache lines 25.00% 30000 30000 480000
// REPORT-NEXT: pages 24.99% 469 469 480000
// REPORT-NEXT: (10000 live objects, 480000 bytes;

// JSON: "live_lines": 20000,
// JSON-NEXT: "live_touched_lines": 20000,
// JSON-NEXT: "live_line_bytes": 480000,
// JSON-NEXT: "live_pages": 469,
// JSON-NEXT: "live_touched_pages": 469,
// JSON-NEXT: "live_page_bytes": 480000,
// JSON: "line_utilization": 0.38,
// JSON-NEXT: "page_utilization": 0.25,
// JSON: "heap_utilization": {
// JSON-NEXT: "lines": {
// JSON-NEXT: "count": 30000,
// JSON-NEXT: "touched": 30000,
// JSON-NEXT: "live_bytes_on_touched": 480000,
// JSON-NEXT: "utilization": 0.25

// SHOW: live_lines=20000 live_touched_lines=20000 live_line_bytes=480000 live_pages=469 live_touched_pages=469 live_page_bytes=480000
// SHOW: heap utilization: lines=30000 touched_lines=30000 touched_line_live_bytes=480000 pages=469 touched_pages=469 touched_page_live_bytes=480000 live_bytes=480000 live_chunks=10000
