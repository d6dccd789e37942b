// heapprof pprof: the export read by the real `go tool pprof`.  Red widgets
// (64 bytes, one store each) are made and never freed; blue ones (32 bytes,
// three stores each) are freed.  The first run makes 100 red and 50 blue,
// the second (argument 300) 300 red and 50 blue.
// REQUIRES: go-pprof
// RUN: rm -rf %t.dir %t.dir2 && mkdir -p %t.dir %t.dir2
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir %run %t
// RUN: %env_heapprof_opts=profile_dir=%t.dir2 %run %t 300
// RUN: heapprof pprof -o %t.pb.gz %t.dir
// RUN: heapprof pprof --output=%t.2.pb.gz %t.dir2/heapprof.*.profraw
// RUN: gzip -t %t.pb.gz
// The mapping ends just after the highest address in it (its limit is
// exclusive): the highest location's address + 1, so every location of the
// module lies inside its mapping.
// RUN: go tool pprof -raw %t.pb.gz | %python -c "import re,sys; t=sys.stdin.read(); a=[int(x,16) for x in re.findall(r'^ *[0-9]+: 0x([0-9a-f]+) M=1 ', t, re.M)]; l=int(re.search(r'^1: 0x0/0x([0-9a-f]+)/', t, re.M).group(1),16); print('limit', 'past the highest' if a and l == max(a) + 1 else (hex(l), hex(max(a))))" | FileCheck %s --check-prefix=LIMIT
// LIMIT: limit past the highest
//
// Allocated: red 100 x 64 = 6400 B, blue 50 x 32 = 1600 B, 8000 B in all.
// RUN: go tool pprof -top -unit=B -sample_index=alloc_space %t.pb.gz | FileCheck %s --check-prefix=ALLOC
// ALLOC: Type: alloc_space
// ALLOC: Showing nodes accounting for 8000B, 100% of 8000B total
// ALLOC: 6400B 80.00% 80.00% 6400B 80.00% make_red
// ALLOC-NEXT: 1600B 20.00% 100% 1600B 20.00% make_blue
// ALLOC-NEXT: 0 0% 100% 8000B 100% main
// The default sample type is alloc_space.
// RUN: go tool pprof -top -unit=B %t.pb.gz | FileCheck %s --check-prefix=ALLOC
//
// In use at exit: the red ones only.
// RUN: go tool pprof -top -unit=B -sample_index=inuse_space %t.pb.gz | FileCheck %s --check-prefix=INUSE
// INUSE: Type: inuse_space
// INUSE: Showing nodes accounting for 6400B, 100% of 6400B total
// INUSE: 6400B 100% 100% 6400B 100% make_red
// INUSE-NEXT: 0 0% 100% 6400B 100% main
// INUSE-NOT: make_blue
//
// Objects: 100 red + 50 blue allocated, 100 red in use.
// RUN: go tool pprof -top -sample_index=alloc_objects %t.pb.gz | FileCheck %s --check-prefix=OBJECTS
// OBJECTS: Showing nodes accounting for 150, 100% of 150 total
// OBJECTS: 100 66.67% 66.67% 100 66.67% make_red
// OBJECTS-NEXT: 50 33.33% 100% 50 33.33% make_blue
// RUN: go tool pprof -top -sample_index=inuse_objects %t.pb.gz | FileCheck %s --check-prefix=INUSEOBJ
// INUSEOBJ: Showing nodes accounting for 100, 100% of 100 total
// INUSEOBJ: 100 100% 100% 100 100% make_red
//
// Accesses: 100 x 1 red stores, 50 x 3 blue stores.
// RUN: go tool pprof -top -sample_index=accesses %t.pb.gz | FileCheck %s --check-prefix=ACCESSES
// ACCESSES: Type: accesses
// ACCESSES: Showing nodes accounting for 250, 100% of 250 total
// ACCESSES: 150 60.00% 60.00% 150 60.00% make_blue
// ACCESSES-NEXT: 100 40.00% 100% 100 40.00% make_red
//
// Temporary: each blue widget is freed before anything else is allocated.
// RUN: go tool pprof -top -sample_index=temporary_objects %t.pb.gz | FileCheck %s --check-prefix=TEMPORARY
// TEMPORARY: Showing nodes accounting for 50, 100% of 50 total
// TEMPORARY: 50 100% 100% 50 100% make_blue
//
// -list: the malloc line of make_red carries its 6400 bytes.  (-source_path:
// pprof would trim the path after a "/tools/" named like the working
// directory and then look for pprof.c there.)
// RUN: go tool pprof -list=make_red -unit=B -source_path=%S %t.pb.gz | FileCheck %s --check-prefix=LIST
// LIST: ROUTINE ======================== make_red in {{.*}}pprof.c
// LIST-NEXT: 6400B 6400B (flat, cum) 80.00% of Total
// LIST: 6400B 6400B [[#@LINE+33]]: struct red *w = malloc(sizeof *w);
//
// -base: the second run made 200 more red widgets (12800 B) and as many blue.
// RUN: go tool pprof -top -unit=B -sample_index=alloc_space -base %t.pb.gz %t.2.pb.gz | FileCheck %s --check-prefix=BASE
// BASE: Showing nodes accounting for 12800B, 100% of 12800B total
// BASE: 12800B 100% 100% 12800B 100% make_red
// BASE-NEXT: 0 0% 100% 12800B 100% main
// BASE-NOT: make_blue
//
// -raw: the sample types (none leaked: red[] holds the red widgets), the
// stacks leaf first, the mapping with its build id, symbolized (pprof won't).
// RUN: go tool pprof -raw %t.pb.gz | FileCheck %s --check-prefix=RAW
// RAW: PeriodType: space bytes
// RAW-NEXT: Period: 1
// RAW: alloc_objects/count alloc_space/bytes[dflt] inuse_objects/count inuse_space/bytes accesses/count temporary_objects/count leaked_objects/count leaked_bytes/bytes
// RAW-NEXT: 100 6400 100 6400 100 0 0 0: [[RED:[0-9]+]] [[MAIN1:[0-9]+]] {{$}}
// RAW-NEXT: 50 1600 0 0 150 50 0 0: [[BLUE:[0-9]+]] [[MAIN2:[0-9]+]] {{$}}
// RAW: [[RED]]: 0x{{[0-9a-f]+}} M=1 make_red {{.*}}pprof.c:[[#@LINE+16]] s=0
// RAW: [[BLUE]]: 0x{{[0-9a-f]+}} M=1 make_blue {{.*}}pprof.c:[[#@LINE+20]] s=0
// RAW: Mappings
// RAW-NEXT: 1: 0x0/0x{{[0-9a-f]+}}/0x0 {{.*}}pprof.c.tmp {{[0-9a-f]{40} }}[FN][FL][LN][IN]
#include <stdlib.h>

struct red { // 64 bytes
  int color;
  char name[60];
};
struct blue { // 32 bytes
  int a, b, c;
  char pad[20];
};

__attribute__((noinline)) static struct red *make_red(void) {
  struct red *w = malloc(sizeof *w);
  w->color = 1; // one access per red widget
  return w;
}
__attribute__((noinline)) static struct blue *make_blue(void) {
  struct blue *w = malloc(sizeof *w);
  w->a = 1; // three accesses per blue widget
  w->b = 2;
  w->c = 3;
  return w;
}

struct red *volatile red[300];

int main(int argc, char **argv) {
  int nred = argc > 1 ? atoi(argv[1]) : 100;
  for (int i = 0; i < nred; i++)
    red[i] = make_red();
  for (int i = 0; i < 50; i++) {
    struct blue *volatile b = make_blue();
    free(b);
  }
  return 0;
}
