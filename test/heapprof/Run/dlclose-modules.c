// Allocation stacks through a library that dlclose unloaded before the
// dump keep their frames: the runtime remembers the module (section 11)
// and keeps its code addresses from going to a library loaded later.
//
// libA (a_site, 72-byte blocks) is loaded, allocates 3 blocks and frees
// them, and is unloaded; libB (b_site, 56-byte blocks) is loaded, allocates
// 4 and frees them, and stays; libA is loaded again (a second place in
// memory), allocates 3 more and is unloaded again.  So a_site has 6 blocks,
// 432 bytes, b_site 4 blocks, 224 bytes, whichever library now holds the
// addresses libA's code had -- without the reservation libB is mapped
// where libA was, and libA's frames read as libB's.  The section lists
// libA's two places, latest first.
// REQUIRES: heapprof-driver
// RUN: %clang_heapprof -O0 -g -shared -fPIC -DLIB_A %s -o %t-a.so
// RUN: %clang_heapprof -O0 -g -shared -fPIC -DLIB_B %s -o %t-b.so
// RUN: %clang_heapprof -O0 -g %s -o %t -ldl
// RUN: rm -rf %t.dir && mkdir -p %t.dir && %env_heapprof_opts=profile_dir=%t.dir:print_text=1 %run %t %t-a.so %t-b.so | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 --format json %t.dir > %t.json
// RUN: %python %S/Inputs/site-accesses.py %t.json a_site b_site | FileCheck %s
// RUN: heapprof report %t.dir | FileCheck %s --check-prefix=REPORT
// RUN: heapprof show %t.dir/*.profraw | FileCheck %s --check-prefix=SHOW
// RUN: FileCheck %s --check-prefix=TEXT < %t.dir/*.txt
// llvm-profdata 19 reads the profile (section 11 is inside the extension,
// where it does not look):
// RUN: llvm-profdata show --memory %t.dir/*.profraw --profiled-binary %t | FileCheck %s --check-prefix=PROFDATA
// RUN: rm -f %t.merged && heapprof merge -o %t.merged %t.dir && heapprof report --top 0 --format json %t.merged > %t.mjson
// RUN: %python %S/Inputs/site-accesses.py %t.mjson a_site b_site | FileCheck %s
//
// The same program not rebuilt, under heapprof run, on heapprof's
// allocator and on glibc's:
// RUN: %clang_plain -O0 -g -shared -fPIC -DLIB_A %s -o %t-pa.so
// RUN: %clang_plain -O0 -g -shared -fPIC -DLIB_B %s -o %t-pb.so
// RUN: %clang_plain -O0 -g %s -o %t-plain -ldl
// RUN: rm -rf %t.run && env -u LD_PRELOAD heapprof run -o %t.run -- %t-plain %t-pa.so %t-pb.so | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 --format json %t.run > %t.rjson
// RUN: %python %S/Inputs/site-accesses.py %t.rjson a_site b_site | FileCheck %s --check-prefix=PLAIN
// RUN: rm -rf %t.sys && env -u LD_PRELOAD heapprof run -o %t.sys --allocator=system -- %t-plain %t-pa.so %t-pb.so | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 --format json %t.sys > %t.sjson
// RUN: %python %S/Inputs/site-accesses.py %t.sjson a_site b_site | FileCheck %s --check-prefix=PLAIN
//
// OUT: done
// CHECK: a_site allocs=6 bytes=432 frees=6 accesses=6
// CHECK: b_site allocs=4 bytes=224 frees=4 accesses=4
// Not rebuilt: no access counts.
// PLAIN: a_site allocs=6 bytes=432 frees=6 accesses=0
// PLAIN: b_site allocs=4 bytes=224 frees=4 accesses=0
// The summary counts the libraries (the program's, libc's and libA and
// libB), libA's two places as one, unloaded; the last section lists them.
// REPORT: modules{{ +}}{{[0-9]+}} libraries (1 unloaded before the end), listed in Modules (the last section)
// REPORT: a_site {{.*}}dlclose-modules.c
// REPORT: == Modules: the libraries the program mapped
// REPORT: {{.*}}-b.so (build id {{[0-9a-f]+}}){{$}}
// REPORT-NEXT: {{.*}}-a.so (build id {{[0-9a-f]+}}), unloaded at {{[0-9]+}} ms
// SHOW: unloaded modules: 2, dropped=0
// SHOW-NEXT: unloaded at {{[0-9]+}} ms: {{.*}}-a.so bias 0x[[BIAS2:[0-9a-f]+]] build id [[ID:[0-9a-f]+]] 0x
// SHOW-NEXT: unloaded at {{[0-9]+}} ms: {{.*}}-a.so bias 0x{{[0-9a-f]+}} build id [[ID]] 0x
// PROFDATA: MemprofProfile:
// PROFDATA: NumMibInfo:
// TEXT: -a.so (BuildId: {{[0-9a-f]+}}) (unloaded at {{[0-9]+}} ms)
// TEXT: in a_site {{.*}}dlclose-modules.c
#include <stdlib.h>

#if defined(LIB_A)
/* 64 KiB of code before libA's functions: the space libA leaves is larger
 * than what the runtime maps after the unload, so libB fits in it. */
__asm__(".text\n.skip 65536, 0xcc\n");
__attribute__((noinline)) void *a_site(void) { return malloc(72); }
void work(void) {
  void *p[3];
  for (int i = 0; i < 3; i++) {
    p[i] = a_site();
    *(volatile char *)p[i] = 1;
  }
  for (int i = 0; i < 3; i++)
    free(p[i]);
}
#elif defined(LIB_B)
__attribute__((noinline)) void *b_site(void) { return malloc(56); }
void work(void) {
  void *p[4];
  for (int i = 0; i < 4; i++) {
    p[i] = b_site();
    *(volatile char *)p[i] = 1;
  }
  for (int i = 0; i < 4; i++)
    free(p[i]);
}
#else
#include <dlfcn.h>
#include <stdio.h>

static void *load_and_work(const char *path) {
  void *h = dlopen(path, RTLD_NOW);
  if (!h) {
    fprintf(stderr, "%s\n", dlerror());
    exit(1);
  }
  ((void (*)(void))dlsym(h, "work"))();
  return h;
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  if (dlclose(load_and_work(argv[1])))
    return 3;
  load_and_work(argv[2]);
  if (dlclose(load_and_work(argv[1])))
    return 3;
  puts("done");
  return 0;
}
#endif
