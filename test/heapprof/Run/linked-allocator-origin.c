// A program that links an allocator library found through $ORIGIN (an
// RPATH of $ORIGIN/../lib, as an application installed in a directory of
// its own is linked: Debian's java finds its libjli.so so), run by the name
// of a symbolic link in another directory (as /usr/bin/java is a link to
// /usr/lib/jvm/.../bin/java). The kernel and the loader take $ORIGIN from
// the executable's real path (/proc/self/exe), so the program runs on its
// allocator; heapprof run must find that allocator the same way. It asked
// `ld.so --list` about the link's path instead, where $ORIGIN/../lib holds
// no such library: the loader failed, heapprof run took the program for one
// without an allocator of its own, ran it on heapprof's, and the program's
// malloc(100) came from heapprof's allocator, not from the library the
// program links (bump_owns said no). The same for an allocator the caller
// preloads (LD_PRELOAD=count.so heapprof run -- java ...: the counter was
// passed over, and counted nothing).
// RUN: rm -rf %t.app %t.bin %t.d %t.p && mkdir -p %t.app/bin %t.app/lib %t.bin
// RUN: %clang_plain -O2 -shared -fPIC -Wl,-soname,libbump.so %S/Inputs/bump-alloc.c -o %t.app/lib/libbump.so
// RUN: %clang_plain -O0 %s -o %t.app/bin/prog -L%t.app/lib -lbump '-Wl,-rpath,$ORIGIN/../lib'
// RUN: ln -s %t.app/bin/prog %t.bin/prog
// The program alone, through the link: its allocator serves it.
// RUN: %t.bin/prog | FileCheck %s --check-prefix=OUT
// RUN: env -u LD_PRELOAD heapprof run -o %t.d -- %t.bin/prog > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.out
// RUN: FileCheck %s --check-prefix=NOTE --input-file=%t.err -DPROG=%t.bin/prog
// RUN: heapprof report --top 0 %t.d | FileCheck %s --check-prefix=REPORT
// The same program by its own path, for comparison: the same note.
// RUN: env -u LD_PRELOAD heapprof run -o %t.d -- %t.app/bin/prog 2>&1 | FileCheck %s --check-prefix=NOTE -DPROG=%t.app/bin/prog
// An allocator the caller preloads, for a program that links no allocator
// but a library of its own through $ORIGIN (java's libjli.so).
// RUN: %clang_plain -O2 -shared -fPIC -DHELPER -Wl,-soname,libhelper.so %s -o %t.app/lib/libhelper.so
// RUN: %clang_plain -O0 -DNONE %s -o %t.app/bin/none -L%t.app/lib -lhelper '-Wl,-rpath,$ORIGIN/../lib' -ldl
// RUN: ln -s %t.app/bin/none %t.bin/none
// RUN: env LD_PRELOAD=%t.app/lib/libbump.so heapprof run -o %t.p -- %t.bin/none > %t.pout 2> %t.perr
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.pout
// RUN: FileCheck %s --check-prefix=NOTE --input-file=%t.perr -DPROG=%t.bin/none
// RUN: heapprof report --top 0 %t.p | FileCheck %s --check-prefix=REPORT
// OUT: malloc(100): the linked allocator's
// NOTE: heapprof: note: '[[PROG]]' runs on an allocator of its own, {{.*}}/libbump.so: profiled on it (--allocator=heapprof runs it on heapprof's)
// REPORT: allocator{{ +}}{{.*}}/libbump.so, profiled as it ran (allocator=PATH)
// REPORT: == Allocation bins: by requested size
// REPORT: {{^ +}}100{{ +}}1{{ +}}100 B
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef HELPER
const char *helper(void) { return "malloc(100)"; }
#else
#ifdef NONE
const char *helper(void);
#else
static const char *helper(void) { return "malloc(100)"; }
#endif

int main(void) {
  int (*owns)(const void *) =
      (int (*)(const void *))dlsym(RTLD_DEFAULT, "bump_owns");
  void *volatile p = malloc(100);
  printf("%s: %s\n", helper(),
         owns && owns(p) ? "the linked allocator's" : "heapprof's or glibc's");
  free(p);
  return 0;
}
#endif
