// A library preloaded before heapprof's runtime that wraps a libc call the
// runtime's init makes (stat) and allocates in it, as fakeroot's
// libfakeroot does: its stat looks up its next definitions with dlsym,
// and a failed lookup mallocs its dlerror message.  `fakeroot CMD` puts
// its library first in LD_PRELOAD, before heapprof run's, so that malloc
// came while init ran and entered init again: "HeapProf: CHECK failed:
// ... heapprof init calls itself" and SIGABRT (status 134) for every
// program run under fakeroot, on every allocator.  What init's thread
// allocates is the runtime's own now (blocks of glibc's, freed to glibc
// whichever allocator serves the program), so the program runs and is
// profiled.  The wrapper keeps a 1000-byte block from each call and frees
// the one before: the block of init's call is freed at the program's own
// call, on the wrapped allocator's path too (jemalloc's free of a glibc
// block would corrupt its heap).  The program: 100 objects of 204 bytes
// (20,400 bytes) kept, then one stat, whose wrapper copies the path "/"
// (2 bytes, freed) and keeps a new 1000-byte block: its profile has
// exactly those, and nothing of init's.  A status other than 0 fails the
// RUN line.
// RUN: %clang_plain -O2 -shared -fPIC -DWRAPPER %s -o %t.wrap.so -ldl
// RUN: %clang_plain -O0 %s -o %t
// RUN: rm -rf %t.h && heapprof run --follow-exec -o %t.h -- sh -c 'LD_PRELOAD=%t.wrap.so:$LD_PRELOAD exec %t' > %t.h.out 2>&1
// RUN: FileCheck %s --check-prefix=OUT < %t.h.out
// RUN: heapprof report %t.h/heapprof.preload-before-wraps-libc.c.tmp.*.profraw | FileCheck %s --check-prefix=BINS
// RUN: rm -rf %t.s && heapprof run --allocator=system --follow-exec -o %t.s -- sh -c 'LD_PRELOAD=%t.wrap.so:$LD_PRELOAD exec %t' > %t.s.out 2>&1
// RUN: FileCheck %s --check-prefix=OUT < %t.s.out
// RUN: heapprof report %t.s/heapprof.preload-before-wraps-libc.c.tmp.*.profraw | FileCheck %s --check-prefix=BINS
// RUN: %if jemalloc %{ rm -rf %t.j && heapprof run --allocator=jemalloc --follow-exec -o %t.j -- sh -c 'LD_PRELOAD=%t.wrap.so:$LD_PRELOAD exec %t' > %t.j.out 2>&1 %}
// RUN: %if jemalloc %{ FileCheck %s --check-prefix=OUT < %t.j.out %}
// RUN: %if jemalloc %{ heapprof report %t.j/heapprof.preload-before-wraps-libc.c.tmp.*.profraw | FileCheck %s --check-prefix=BINS %}
// OUT-NOT: HeapProf
// OUT: stat 0
// BINS: == Allocation bins
// BINS: {{^ *}}2{{ +}}1{{ +}}2 B{{ +}}1{{ +}}0 B
// BINS-NEXT: {{^ *}}204{{ +}}100{{ +}}19.9 KiB{{ +}}0{{ +}}19.9 KiB
// BINS-NEXT: {{^ *}}1000{{ +}}1{{ +}}1000 B{{ +}}0{{ +}}1000 B
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef WRAPPER
static char *kept;

int stat(const char *path, struct stat *st) {
  static int (*next)(const char *, struct stat *);
  if (!next) {
    next = (int (*)(const char *, struct stat *))dlsym(RTLD_NEXT, "stat");
    dlsym(RTLD_NEXT, "no_such_function_anywhere"); /* dlerror's malloc */
  }
  char *copy = strdup(path);
  int r = next(copy, st);
  free(copy);
  free(kept);
  kept = malloc(1000);
  return r;
}
#else
static void *volatile keep[100];

int main(void) {
  for (int i = 0; i < 100; i++)
    keep[i] = malloc(204);
  struct stat st;
  int r = stat("/", &st);
  /* Unbuffered: stdout's buffer would be a 4 KiB object more. */
  setvbuf(stdout, NULL, _IONBF, 0);
  printf("stat %d\n", r);
  return 0;
}
#endif
