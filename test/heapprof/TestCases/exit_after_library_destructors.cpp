// The exit profile is written after every exit handler and destructor,
// the libraries' too: a library's destructor function, a C++ static
// object's destructor in it, and an atexit handler its constructor
// registered.  Before, it was written from the executable's .fini_array,
// which runs before its libraries' destructors, and those handlers
// registered before main's start ran after it: none of their allocations
// was in the profile.
// RUN: rm -rf %t.dir %t.run && %clangxx_heapprof -O1 -g -fPIC -shared -DLIB %s -o %t.lib.so
// RUN: %clangxx_heapprof -O1 -g %s %t.lib.so -o %t
// RUN: %env_heapprof_opts=print_raw=0:print_text=1:profile_dir=%t.dir %run %t 2>&1 | FileCheck %s --check-prefix=OUT
// OUT-DAG: library destructor ran
// OUT-DAG: static object destroyed
// OUT-DAG: library atexit handler ran
// Each allocates one block of its own size, writes 2, 3 and 4 bytes of it,
// and frees it: objects 1, freed, accesses exact.
// RUN: cat %t.dir/*.txt | grep -A1 "alloc_count 1, size (ave/min/max) 111.00" | FileCheck %s --check-prefix=DTOR
// DTOR: access_count (ave/min/max): 2.00 / 2 / 2
// RUN: cat %t.dir/*.txt | grep -A1 "alloc_count 1, size (ave/min/max) 222.00" | FileCheck %s --check-prefix=STATIC
// STATIC: access_count (ave/min/max): 3.00 / 3 / 3
// RUN: cat %t.dir/*.txt | grep -A1 "alloc_count 1, size (ave/min/max) 333.00" | FileCheck %s --check-prefix=ATEXIT
// ATEXIT: access_count (ave/min/max): 4.00 / 4 / 4
// The same three under heapprof run (the preloaded runtime registers its
// exit profile from its constructor, before the library's).
// RUN: heapprof run -o %t.run -- %t > /dev/null 2>&1
// RUN: heapprof report --format json %t.run | %python -c "import json, sys; r = json.load(sys.stdin); print(sorted(b['size'] for b in r['bins'] if b['size'] in (111, 222, 333) and b['allocs'] == 1 and b['frees'] == 1))" | FileCheck %s --check-prefix=RUNBINS
// RUNBINS: [111, 222, 333]
#include <stdio.h>
#include <stdlib.h>

#ifdef LIB
static void touch_and_free(size_t size, int writes) {
  char *volatile p = (char *)malloc(size);
  for (int i = 0; i < writes; i++)
    p[i] = (char)i;
  free(p);
}

__attribute__((destructor)) static void lib_fini(void) {
  touch_and_free(111, 2);
  fprintf(stderr, "library destructor ran\n");
}

struct Static {
  ~Static() {
    touch_and_free(222, 3);
    fprintf(stderr, "static object destroyed\n");
  }
} static_object;

static void lib_atexit(void) {
  touch_and_free(333, 4);
  fprintf(stderr, "library atexit handler ran\n");
}

__attribute__((constructor)) static void lib_init(void) { atexit(lib_atexit); }
#else
int main() { return 0; }
#endif
