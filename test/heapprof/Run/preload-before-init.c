// A library preloaded after heapprof's runtime whose constructor runs
// before the runtime's init (glibc runs the last preloaded object's
// constructors first) and ends or replaces the process: the runtime's
// _exit, _Exit and exec family are the ones bound, before they have looked
// up the next definition.  They look it up then, so a wrapper preloaded
// beside heapprof (Inputs/exec-exit-wrapper.c) still sees the call; before
// they made the system call themselves and the wrapper printed nothing.
// The constructor below acts only in the program called "victim" (heapprof
// run itself, and the shell an exec starts, load it too).  Nothing is
// profiled: the process never reached heapprof's init.
// REQUIRES: heapprof-driver
// RUN: %clang_plain -O2 -shared -fPIC %S/Inputs/exec-exit-wrapper.c -o %t.wrap.so -ldl
// RUN: %clang_plain -O2 -shared -fPIC -DEARLY %s -o %t.early.so
// RUN: rm -rf %t.d && mkdir %t.d && %clang_plain -O0 %s -o %t.d/victim
// RUN: sh -c 'EARLY_ACTION=_exit LD_PRELOAD=%t.wrap.so:%t.early.so heapprof run -o %t.o -- %t.d/victim 2>%t.1.err; echo "status $?"' | FileCheck %s --check-prefix=S5
// RUN: FileCheck %s --check-prefix=EXIT < %t.1.err
// RUN: sh -c 'EARLY_ACTION=_Exit LD_PRELOAD=%t.wrap.so:%t.early.so heapprof run -o %t.o -- %t.d/victim 2>%t.2.err; echo "status $?"' | FileCheck %s --check-prefix=S6
// RUN: FileCheck %s --check-prefix=UEXIT < %t.2.err
// RUN: sh -c 'EARLY_ACTION=execve LD_PRELOAD=%t.wrap.so:%t.early.so heapprof run -o %t.o -- %t.d/victim 2>%t.3.err; echo "status $?"' | FileCheck %s --check-prefix=S7
// RUN: FileCheck %s --check-prefix=EXECVE < %t.3.err
// RUN: sh -c 'EARLY_ACTION=execveat LD_PRELOAD=%t.wrap.so:%t.early.so heapprof run -o %t.o -- %t.d/victim 2>%t.4.err; echo "status $?"' | FileCheck %s --check-prefix=S7
// RUN: FileCheck %s --check-prefix=EXECVEAT < %t.4.err
// RUN: sh -c 'EARLY_ACTION=fexecve LD_PRELOAD=%t.wrap.so:%t.early.so heapprof run -o %t.o -- %t.d/victim 2>%t.5.err; echo "status $?"' | FileCheck %s --check-prefix=S7
// RUN: FileCheck %s --check-prefix=FEXECVE < %t.5.err
// Without the early action the program runs and is profiled as usual.
// RUN: sh -c 'rm -rf %t.p; LD_PRELOAD=%t.wrap.so:%t.early.so heapprof run -o %t.p -- %t.d/victim 2>%t.6.err; echo "status $?"' | FileCheck %s --check-prefix=S0
// RUN: ls %t.p | grep -c 'heapprof[.]victim[.].*profraw' | FileCheck %s --check-prefix=ONE
// S5: status 5
// S6: status 6
// S7: status 7
// S0: status 0
// ONE: {{^}}1{{$}}
// EXIT: wrapped _exit 5
// UEXIT: wrapped _Exit 6
// EXECVE: wrapped execve
// EXECVEAT: wrapped execveat
// FEXECVE: wrapped fexecve
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef EARLY
extern char **environ;

__attribute__((constructor)) static void early(void) {
  const char *a = getenv("EARLY_ACTION");
  if (!a || strcmp(program_invocation_short_name, "victim"))
    return;
  char *sh[] = {"sh", "-c", "exit 7", NULL};
  if (!strcmp(a, "_exit"))
    _exit(5);
  if (!strcmp(a, "_Exit"))
    _Exit(6);
  if (!strcmp(a, "execve"))
    execve("/bin/sh", sh, environ);
  if (!strcmp(a, "execveat"))
    execveat(AT_FDCWD, "/bin/sh", sh, environ, 0);
  if (!strcmp(a, "fexecve"))
    fexecve(open("/bin/sh", O_RDONLY | O_CLOEXEC), sh, environ);
  _exit(99); /* an exec failed */
}
#else
static char *volatile keep;

int main(void) {
  keep = malloc(64);
  return 0;
}
#endif
