// An object that a library built without -fheapprof allocates and uses
// itself gets no counted access: 0 is unknown there, not cold.  The C
// library's fopen allocates its FILE, and the first fgets its buffer
// (_IO_file_doallocate); fgets copies out of the buffer inside the library,
// where nothing counts: 2 contexts of one object each, in libc.so.6, left
// out of the cold table with a line that says so.  libxml2's runtest had
// glibc's iconv state, opendir's and stdio's buffers as 4 of its first 5
// cold rows.  The program's own 1024-byte buffer with one store (1 access
// to 128 words) stays a cold row, and so does its 64-byte buffer that
// fgets filled through the library: it is the program's allocation.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t %s
// RUN: heapprof report %t.d | FileCheck %s
// CHECK: == Cold candidates
// CHECK-NOT: == Heap
// CHECK-NOT: fopen
// CHECK-NOT: _IO_file_doallocate
// CHECK: 1024 B {{.*}} own_buffer
// CHECK-NOT: fopen
// CHECK-NOT: _IO_file_doallocate
// CHECK: (left out: 2 contexts, {{[0-9.]+ (B|KiB)}} in 2 objects, allocated in libraries not compiled with -fheapprof (libc.so.6) and touched by no code that was: their own accesses are not counted)
// CHECK-EMPTY:
//
// RUN: heapprof report --format json %t.d > %t.json
// RUN: %python -c 'import json,sys; r=json.load(open(sys.argv[1])); u=r["cold_uncounted"]; print("uncounted", u["contexts"], u["objects"], u["modules"]); print("cold", sorted(x["chain"][0]["function"] for x in r["cold"]))' %t.json | FileCheck %s --check-prefix=JSON
// JSON: uncounted 2 2 ['libc.so.6']
// JSON: cold ['line_buffer', 'own_buffer']
//
// The page says it above its table.
// RUN: heapprof html -o %t.html %t.d
// RUN: %if chromium %{ rm -rf %t.chrome && chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome --virtual-time-budget=5000 --dump-dom 'file://%t.html' > %t.dom 2>/dev/null %}
// RUN: %if chromium %{ grep -o 'left out: 2 contexts, [^<]*' %t.dom | FileCheck %s --check-prefix=HTML %}
// HTML: left out: 2 contexts, {{.*}} in 2 objects, allocated in libraries not compiled with -fheapprof (libc.so.6) and touched by no code that was: their own accesses are not counted
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void own_buffer(void) {
  char *volatile p = malloc(1024);
  p[0] = 1;
  free(p);
}

__attribute__((noinline)) static char *line_buffer(void) {
  return malloc(64);
}

int main(int argc, char **argv) {
  own_buffer();
  FILE *f = fopen(argv[1], "r");
  if (!f)
    return 1;
  char *line = line_buffer();
  if (!fgets(line, 64, f))
    return 1;
  fclose(f);
  free(line);
  return 0;
}
