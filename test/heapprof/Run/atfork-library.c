// A library the program is linked with registers fork handlers from its
// constructor, and they allocate.  The loader runs that constructor before
// heapprof's (either runtime's), so glibc's list had the library's
// handlers before heapprof's: fork ran heapprof's prepare handler (every
// runtime lock taken) before the library's, and its child and parent
// handlers after the library's, whose malloc then waited for heapprof's
// locks for ever: in the parent (prepare, parent) or in each child
// (child).  heapprof's handlers are now registered before anyone's, so
// they run innermost, as glibc's malloc takes its own locks.
//
// main keeps 20 objects of 40 bytes and forks 5 times; each child frees 10
// of them and exits.  Mode "all": the library's prepare handler allocates
// 77 bytes (in the parent, before the copy), the parent handler frees
// that, the child handler frees it too (an object the child inherited) and
// allocates 55 bytes.  Parent: 20 * 40 + 5 * 77 = 1185 bytes in 25
// objects, 5 frees, 20 objects (800 bytes) live.  Each child: its one
// allocation of 55 bytes; 11 frees (10 of 40 bytes and the 77); live the
// 10 remaining objects of 40 and the 55: 11 objects, 455 bytes.  Mode
// "child": only the child handler allocates (55 bytes): the parent's 20
// objects, no free; each child's 55 bytes, 10 frees, the same 11 live.
// Before, every run below timed out.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang_plain -O0 -g -shared -fPIC -DLIB %s -o %t.dir/libatforklib.so -Wl,-soname,libatforklib.so
// RUN: %clang_heapprof -O0 -g %s -o %t.dir/hp -L%t.dir -latforklib -Wl,-rpath,'$ORIGIN'
// RUN: %clang_plain -O0 -g %s -o %t.dir/plain -L%t.dir -latforklib -Wl,-rpath,'$ORIGIN'
// RUN: rm -rf %t.a && %env_heapprof_opts=profile_dir=%t.a timeout 60 %t.dir/hp all
// RUN: sh -c 'for f in $0/*; do heapprof report $f | grep -E "^(allocations|frees|live at the end) "; done' %t.a | sort | uniq -c | FileCheck %s --check-prefix=ALL
// RUN: rm -rf %t.c && %env_heapprof_opts=profile_dir=%t.c timeout 60 %t.dir/hp child
// RUN: sh -c 'for f in $0/*; do heapprof report $f | grep -E "^(allocations|frees|live at the end) "; done' %t.c | sort | uniq -c | FileCheck %s --check-prefix=CHILD
// RUN: rm -rf %t.r && env -u LD_PRELOAD timeout 60 heapprof run -o %t.r -- %t.dir/plain all
// RUN: sh -c 'for f in $0/*; do heapprof report $f | grep -E "^(allocations|frees|live at the end) "; done' %t.r | sort | uniq -c | FileCheck %s --check-prefix=ALL
// RUN: rm -rf %t.rc && env -u LD_PRELOAD timeout 60 heapprof run -o %t.rc -- %t.dir/plain child
// RUN: sh -c 'for f in $0/*; do heapprof report $f | grep -E "^(allocations|frees|live at the end) "; done' %t.rc | sort | uniq -c | FileCheck %s --check-prefix=CHILD
// RUN: rm -rf %t.s && env -u LD_PRELOAD timeout 60 heapprof run --allocator=system -o %t.s -- %t.dir/plain all
// RUN: sh -c 'for f in $0/*; do heapprof report $f | grep -E "^(allocations|frees|live at the end) "; done' %t.s | sort | uniq -c | FileCheck %s --check-prefix=ALL
// RUN: heapprof show %t.a %t.c %t.r %t.rc %t.s | grep -o 'leaks: .* direct_objects=[0-9]*' | grep -o 'direct_objects=[0-9]*' | sort | uniq -c | FileCheck %s --check-prefix=LEAKS
// ALL: {{^ *}}5 allocations {{ *}}1 object, 55 bytes (55 B){{ *$}}
// ALL-NEXT: {{^ *}}1 allocations {{ *}}25 objects, 1185 bytes (1185 B){{ *$}}
// ALL-NEXT: {{^ *}}5 frees {{ *}}11 objects{{ *$}}
// ALL-NEXT: {{^ *}}1 frees {{ *}}5 objects{{ *$}}
// ALL-NEXT: {{^ *}}5 live at the end {{ *}}11 objects, 455 bytes (455 B){{ *$}}
// ALL-NEXT: {{^ *}}1 live at the end {{ *}}20 objects, 800 bytes (800 B){{ *$}}
// ALL-NOT: {{[a-z0-9]}}
// CHILD: {{^ *}}5 allocations {{ *}}1 object, 55 bytes (55 B){{ *$}}
// CHILD-NEXT: {{^ *}}1 allocations {{ *}}20 objects, 800 bytes (800 B){{ *$}}
// CHILD-NEXT: {{^ *}}1 frees {{ *}}0 objects{{ *$}}
// CHILD-NEXT: {{^ *}}5 frees {{ *}}10 objects{{ *$}}
// CHILD-NEXT: {{^ *}}5 live at the end {{ *}}11 objects, 455 bytes (455 B){{ *$}}
// CHILD-NEXT: {{^ *}}1 live at the end {{ *}}20 objects, 800 bytes (800 B){{ *$}}
// CHILD-NOT: {{[a-z0-9]}}
// LEAKS: {{^ *}}30 direct_objects=0{{$}}
// LEAKS-NOT: direct_objects
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef LIB
static int mode; /* 1: all three allocate; 2: the child handler only */
static void *volatile prep_obj, *volatile child_obj;

static void prepare(void) {
  if (mode == 1)
    prep_obj = malloc(77);
}
static void parent(void) {
  if (mode == 1)
    free(prep_obj);
}
static void child(void) {
  if (mode == 1)
    free(prep_obj);
  child_obj = malloc(55);
}

__attribute__((constructor)) static void lib_init(void) {
  pthread_atfork(prepare, parent, child);
}

void lib_set_mode(int m) { mode = m; }
#else
void lib_set_mode(int m);

static void *volatile keep[20];

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  lib_set_mode(strcmp(argv[1], "all") == 0 ? 1 : 2);
  for (int i = 0; i < 20; i++)
    keep[i] = malloc(40);
  for (int r = 0; r < 5; r++) {
    pid_t c = fork();
    if (c < 0)
      return 3;
    if (c == 0) {
      for (int i = 0; i < 10; i++)
        free(keep[i]);
      exit(0);
    }
    int st;
    if (waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
      return 4;
  }
  return 0;
}
#endif
