// heapprof html shows what the text report ends with: the peak, its memory
// overhead, the allocator's operation classes and system calls, and heap
// utilization.  The program: site_a allocates 10 x 1 MiB and site_b 3 x 1
// MiB, all live together, then frees all 13.  The peak is 13 MiB in 13
// objects (10 MiB of site_a's, 76.92 %); each 1 MiB chunk is mapped with one
// more page for its header, so the allocator's blocks are 13 x (1 MiB + 4
// KiB) = 13684736 bytes, 53248 of them headers.  Thirteen mallocs of large
// new blocks, thirteen frees, each free unmapping its chunk's 1 MiB + 4 KiB.
// Nothing is live at the end: the heap utilization covers no line or page.
// REQUIRES: chromium
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.prof %t.nopeak %t.chrome && mkdir -p %t.prof %t.nopeak
// RUN: %env_heapprof_opts=profile_dir=%t.prof %run %t
// RUN: heapprof html -o %t.html %t.prof
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html' > %t.dom 2>/dev/null
// RUN: %python %S/Inputs/html-dom.py %t.dom summary-table peak overhead opclasses syscalls utilization | FileCheck %s
// CHECK: row peak 1: site_a html-allocprof.c:{{[0-9]+}} peak_bytes=10485760 peak_objects=10 percent=76.92 contexts=1
// CHECK-NEXT: row peak 2: site_b html-allocprof.c:{{[0-9]+}} peak_bytes=3145728 peak_objects=3 percent=23.08 contexts=1
// CHECK-NEXT: row overhead 1: part=requested bytes=13631488 share=99.61
// CHECK-NEXT: row overhead 2: part=internal fragmentation bytes=53248 share=0.39
// CHECK-NEXT: row overhead 3: part=  headers bytes=53248
// CHECK-NEXT: row overhead 4: part=  rounding and pages bytes=0
// CHECK-NEXT: row overhead 5: part=memory blowup (one thread: none) bytes=0
// CHECK-NEXT: row overhead 6: part=external fragmentation bytes=0 share=0
// CHECK-NEXT: row overhead 7: part=heap mapped bytes=13684736
// CHECK: row opclasses 1: name=malloc large new serial count=13 percent_calls=50
// CHECK-NEXT: row opclasses 2: name=free large - serial count=13 percent_calls=50
// CHECK: syscall=mmap cause=malloc large new serial
// CHECK: row syscalls {{[0-9]+}}: count=13 bytes=13684736 cycles={{[0-9]+}} syscall=munmap cause=free large - serial
// CHECK: syscall=mmap cause=outside any call
// CHECK: row utilization 1: unit=64-byte lines count=0 touched=0 live_bytes_on_touched=0
// CHECK-NEXT: row utilization 2: unit=4 KiB pages count=0 touched=0 live_bytes_on_touched=0
// The heap over time: each 1 MiB request is noted as it comes, so the
// chart's top is the peak, 13 MiB.
// RUN: grep -o '<svg id="timeline"[^>]*>' %t.dom | FileCheck %s --check-prefix=TIMELINE
// TIMELINE: data-max="13631488"
// The summary names the peak too.
// RUN: grep -o '<tr data-key="peak bytes">.*</tr>' %t.dom | grep -o 'data-v="[0-9]*"' | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: data-v="13631488"
// One temporary allocation: site_b's last chunk, the last allocated, is
// freed last, with nothing allocated in between.
// RUN: grep -o '<tr data-key="temporary">.*</tr>' %t.dom | grep -o 'data-v="[0-9]*"' | FileCheck %s --check-prefix=TEMPORARY
// TEMPORARY: data-v="1"
// Without a peak (peak=0) the page says why there is none, and shows no
// overhead table.
// RUN: env HEAPPROF_OPTIONS=profile_dir=%t.nopeak:peak=0 %run %t
// RUN: heapprof html -o %t.nopeak.html %t.nopeak
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.nopeak.html' > %t.nopeak.dom 2>/dev/null
// RUN: grep -o '<p class="note" id="peak">[^<]*' %t.nopeak.dom | FileCheck %s --check-prefix=NOPEAK
// NOPEAK: not in this profile: written with peak=0 or by an older runtime
// RUN: not grep -q 'id="overhead"' %t.nopeak.dom
// RUN: grep -o '<p class="note" id="timeline-none">[^<]*' %t.nopeak.dom | FileCheck %s --check-prefix=NOTIMELINE
// NOTIMELINE: not in this profile: written with peak=0 or by an older runtime
// RUN: grep -q 'id="opclasses"' %t.nopeak.dom
// A sampled profile: each missing section says it is sampled mode's doing.
// RUN: rm -rf %t.sampled && mkdir -p %t.sampled
// RUN: env HEAPPROF_OPTIONS=profile_dir=%t.sampled:sample_bytes=65536 %run %t
// RUN: heapprof html -o %t.sampled.html %t.sampled
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.sampled.html' > %t.sampled.dom 2>/dev/null
// RUN: grep -o '<p class="note" id="[a-z-]*">[^<]*' %t.sampled.dom | FileCheck %s --check-prefix=SAMPLED
// SAMPLED: id="timeline-none">not in this profile: sampled mode does not keep one
// SAMPLED: id="utilization">not in this profile: sampled mode does not see the whole heap
// SAMPLED: id="sharing">not in this profile: sampled mode does not see the whole heap
// SAMPLED: id="opclasses">not in this profile: sampled mode calls glibc's allocator directly
// SAMPLED: id="peak">not in this profile: sampled mode does not track it
#include <stdlib.h>

#define MiB (1 << 20)
__attribute__((noinline)) static char *site_a(void) { return malloc(MiB); }
__attribute__((noinline)) static char *site_b(void) { return malloc(MiB); }
static char *volatile a[10], *volatile b[3];

int main(void) {
  for (int i = 0; i < 10; i++)
    a[i] = site_a();
  for (int i = 0; i < 3; i++)
    b[i] = site_b();
  for (int i = 0; i < 10; i++)
    free(a[i]);
  for (int i = 0; i < 3; i++)
    free(b[i]);
  return 0;
}
