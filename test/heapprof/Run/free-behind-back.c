// An object freed past heapprof's interposed free (glibc's __libc_free;
// jemalloc's sdallocx in a program linked with it) is found freed when the
// allocator hands its address out again: its free is recorded then, so no
// allocation is lost (before, the new object replaced it in the side
// table unseen: 3 allocations out of 1,000). 1,000 blocks of 100 bytes,
// each freed behind heapprof's back before the next is allocated: the
// allocator gives the same address back each time, so 999 frees are
// found; the last one is not, and reads as live at exit.
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.sys && heapprof run --allocator=system -o %t.sys -- %t
// RUN: heapprof report --top 0 %t.sys | FileCheck %s
// RUN: %if jemalloc %{ %clang_plain -O0 -g -DJEMALLOC %s -o %t.je %libjemalloc %}
// RUN: %if jemalloc %{ rm -rf %t.jed && heapprof run --allocator=%libjemalloc -o %t.jed -- %t.je %}
// RUN: %if jemalloc %{ heapprof report --top 0 %t.jed | FileCheck %s %}
// CHECK: == Allocation bins: by requested size
// CHECK: {{^ +}}100{{ +}}1000{{ +}}97.7 KiB{{ +}}999{{ +}}100 B
#include <stdlib.h>
#include <string.h>
#ifdef JEMALLOC
void sdallocx(void *ptr, size_t size, int flags);
#define FREE_PAST(p) sdallocx(p, 100, 0)
#else
void __libc_free(void *);
#define FREE_PAST(p) __libc_free(p)
#endif

__attribute__((noinline)) void *block(void) { return malloc(100); }

int main(void) {
  for (int i = 0; i < 1000; i++) {
    char *p = block();
    memset(p, 1, 100);
    FREE_PAST(p);
  }
  return 0;
}
