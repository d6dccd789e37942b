// A library opened with RTLD_DEEPBIND binds to its own dependencies first:
// its malloc was glibc's, not heapprof's.  The program freeing a block the
// library allocated aborted with "invalid-free ... not allocated by
// heapprof", and the library freeing one of the program's handed heapprof's
// chunk to glibc's free.  Now the references of every object such a load
// brings in (the library, and libstdc++ which it pulls in here: the
// program is C) that name a function heapprof replaces are pointed at
// heapprof, and the blocks the library's constructor took from glibc
// before that go back to glibc's free/realloc/malloc_usable_size.
//
// The library (C++, not instrumented) allocates a 300-byte block in its
// constructor (glibc's: not in the profile).  The program frees 5 blocks
// of 204 bytes from lib_alloc, has the library free 3 of its own 48-byte
// blocks (main_site), reallocates the constructor's block to 600 bytes and
// frees it, has the library grow a 40-byte block of its own (grow_site) to
// 100 bytes with realloc, and the library news and deletes 2 arrays of 64
// bytes (lib_new_array; libstdc++ is loaded by this dlopen).
// Same in the instrumented program, under heapprof run, on glibc's
// allocator, and in sampled mode.  sample_bytes=1 samples an allocation of
// s bytes with p = 1 - e^-s, with weight 1 or (with probability about
// e^-s) 2: every object here is of 40 bytes or more, so every one is
// sampled with weight 1 but once in 10^17 runs.  grow_site's block was of
// 10 bytes: missed (allocs=0) in e^-10, one run in 22000, and counted
// twice in as many.
// REQUIRES: heapprof-driver
// RUN: %clangxx_plain -x c++ -O0 -shared -fPIC -DLIB %s -o %t.so
// RUN: %clang_heapprof -O0 -g %s -o %t -ldl
// RUN: rm -rf %t.d1 && %env_heapprof_opts=profile_dir=%t.d1 %run %t %t.so | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 --format json %t.d1 > %t.j1
// RUN: %python %S/Inputs/site-accesses.py %t.j1 lib_alloc main_site grow_site lib_grow "operator new" lib_init | FileCheck %s --check-prefixes=CHECK,INST
// RUN: %clang_plain -O0 -g %s -o %t.plain -ldl
// RUN: rm -rf %t.d2 && heapprof run -o %t.d2 -- %t.plain %t.so | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 --format json %t.d2 > %t.j2
// RUN: %python %S/Inputs/site-accesses.py %t.j2 lib_alloc main_site grow_site lib_grow lib_new_array lib_init | FileCheck %s --check-prefixes=CHECK,PRELOAD
// RUN: rm -rf %t.d3 && heapprof run --allocator=system -o %t.d3 -- %t.plain %t.so | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 --format json %t.d3 > %t.j3
// RUN: %python %S/Inputs/site-accesses.py %t.j3 lib_alloc main_site grow_site lib_grow lib_new_array lib_init | FileCheck %s --check-prefixes=CHECK,PRELOAD
// RUN: rm -rf %t.d4 && %env_heapprof_opts=sample_bytes=1:sample_seed=1 heapprof run -o %t.d4 -- %t.plain %t.so | FileCheck %s --check-prefix=OUT
// RUN: heapprof report --top 0 --format json %t.d4 > %t.j4
// RUN: %python %S/Inputs/site-accesses.py %t.j4 lib_alloc main_site grow_site lib_grow lib_new_array lib_init | FileCheck %s --check-prefixes=CHECK,PRELOAD
// No heapprof frame in any stack (the dlopen went through heapprof's):
// RUN: heapprof report --top 0 %t.d1 %t.d2 | FileCheck %s --check-prefix=FRAMES
// OUT: usable ok
// OUT-NEXT: done
// CHECK: lib_alloc allocs=5 bytes=1020 frees=5
// CHECK: main_site allocs=3 bytes=144 frees=3
// The realloc: the 40 bytes' life ends, a 100-byte one of lib_grow's begins.
// CHECK: grow_site allocs=1 bytes=40 frees=1
// CHECK: lib_grow allocs=1 bytes=100 frees=1
// The arrays: under heapprof run the library's operator new[] is
// heapprof's; a C program built with -fheapprof has none, and libstdc++'s
// (loaded with the library, redirected too) calls heapprof's malloc.
// PRELOAD-NEXT: lib_new_array allocs=2 bytes=128 frees=2
// INST-NEXT: operator new allocs=2 bytes=128 frees=2
// The constructor's block is glibc's:
// CHECK-NEXT: lib_init allocs=0 bytes=0 frees=0
// FRAMES-NOT: heapprof_deepbind
// FRAMES-NOT: deep_open
#ifdef LIB
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

static void *ctor_buf;
extern "C" __attribute__((constructor, noinline)) void lib_init(void) {
  ctor_buf = malloc(300);
  memset(ctor_buf, 7, 300);
}
extern "C" {
__attribute__((noinline)) void *lib_alloc(size_t n) { return malloc(n); }
void lib_free(void *p) { free(p); }
void *lib_ctor_buf(void) { return ctor_buf; }
__attribute__((noinline)) void *lib_grow(void *p, size_t n) { return realloc(p, n); }
__attribute__((noinline)) char *lib_new_array(int n) { return new char[n]; }
void lib_delete_array(char *p) { delete[] p; }
}
#else
#include <dlfcn.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static void *main_site(void) { return malloc(48); }
__attribute__((noinline)) static void *grow_site(void) { return malloc(40); }

static void *sym(void *h, const char *name) {
  void *f = dlsym(h, name);
  if (!f) {
    fprintf(stderr, "%s\n", dlerror());
    exit(1);
  }
  return f;
}

int main(int argc, char **argv) {
  void *h = dlopen(argv[1], RTLD_NOW | RTLD_DEEPBIND);
  if (!h) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  void *(*lib_alloc)(size_t) = (void *(*)(size_t))sym(h, "lib_alloc");
  void (*lib_free)(void *) = (void (*)(void *))sym(h, "lib_free");
  void *(*lib_ctor_buf)(void) = (void *(*)(void))sym(h, "lib_ctor_buf");
  void *(*lib_grow)(void *, size_t) = (void *(*)(void *, size_t))sym(h, "lib_grow");
  char *(*lib_new_array)(int) = (char *(*)(int))sym(h, "lib_new_array");
  void (*lib_delete_array)(char *) = (void (*)(char *))sym(h, "lib_delete_array");
  for (int i = 0; i < 5; i++)
    free(lib_alloc(204));
  for (int i = 0; i < 3; i++)
    lib_free(main_site());
  char *c = (char *)realloc(lib_ctor_buf(), 600);
  if (c && c[299] == 7 && malloc_usable_size(c) >= 600)
    printf("usable ok\n");
  free(c);
  free(lib_grow(grow_site(), 100));
  for (int i = 0; i < 2; i++)
    lib_delete_array(lib_new_array(64));
  printf("done\n");
  return 0;
}
#endif
