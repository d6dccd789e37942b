// A library preloaded after heapprof's runtime that wraps the exec calls
// and _exit/_Exit (an exec logger, a counter, a sandbox) sees every call
// the program makes, as it would without heapprof: the runtime writes its
// profile, then calls the next definition instead of making the system call
// itself.  The program forks; the child replaces itself with this program
// again through execve, execveat or fexecve (argv[1]); the new image (followed:
// --follow-exec) ends with _Exit(4), and the parent, after printing the
// child's status, with _exit(3).  Expected on stderr, from the wrapper: the
// exec, "_Exit 4", "_exit 3"; the exit status 3; two profiles (the parent's
// and the new image's; the fork child wrote none, it exec'd).
// REQUIRES: heapprof-driver
// RUN: %clang_plain -O2 -shared -fPIC %S/Inputs/exec-exit-wrapper.c -o %t.wrap.so -ldl
// RUN: %clang_plain -O0 -g %s -o %t.plain
// With print_text=1 each profile's text is symbolized by llvm-symbolizer,
// which the runtime starts from two vfork children of its own: their exits
// are heapprof's, not the program's, and the wrapper sees none of them
// (exactly three wrapped calls).
// RUN: sh -c 'rm -rf %t.e; LD_PRELOAD=%t.wrap.so HEAPPROF_OPTIONS=print_text=1 heapprof run --follow-exec -o %t.e -- %t.plain execve 2>%t.e.err; echo "status $?"' | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefixes=WRAP,EXECVE < %t.e.err
// RUN: grep -c wrapped %t.e.err | FileCheck %s --check-prefix=THREE
// RUN: ls %t.e | grep -c profraw | FileCheck %s --check-prefix=TWO
// RUN: cat %t.e/*.txt | FileCheck %s --check-prefix=SYM
// RUN: sh -c 'rm -rf %t.a; LD_PRELOAD=%t.wrap.so heapprof run --follow-exec -o %t.a -- %t.plain execveat 2>%t.a.err; echo "status $?"' | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefixes=WRAP,EXECVEAT < %t.a.err
// RUN: ls %t.a | count 2
// RUN: sh -c 'rm -rf %t.f; LD_PRELOAD=%t.wrap.so heapprof run --follow-exec -o %t.f -- %t.plain fexecve 2>%t.f.err; echo "status $?"' | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefixes=WRAP,FEXECVE < %t.f.err
// RUN: ls %t.f | count 2
// The static runtime (built with -fheapprof), the wrapper preloaded: the
// same calls reach it.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: sh -c 'rm -rf %t.i; LD_PRELOAD=%t.wrap.so %env_heapprof_opts=profile_dir=%t.i %run %t execve 2>%t.i.err; echo "status $?"' | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefixes=WRAP,EXECVE < %t.i.err
// RUN: ls %t.i | count 2
// The static runtime under heapprof run: the executable's next definition
// is the preloaded runtime's idle copy, and the wrapper after it is still
// called (passed over before: no "wrapped" line at all).  execve, and
// fexecve (its own path to the next definition).
// RUN: sh -c 'rm -rf %t.r; LD_PRELOAD=%t.wrap.so heapprof run --follow-exec -o %t.r -- %t execve 2>%t.r.err; echo "status $?"' | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefixes=WRAP,EXECVE < %t.r.err
// RUN: ls %t.r | count 2
// RUN: sh -c 'rm -rf %t.rf; LD_PRELOAD=%t.wrap.so heapprof run --follow-exec -o %t.rf -- %t fexecve 2>%t.rf.err; echo "status $?"' | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefixes=WRAP,FEXECVE < %t.rf.err
// RUN: ls %t.rf | count 2
// THREE: {{^}}3{{$}}
// TWO: {{^}}2{{$}}
// SYM: #0 0x{{[0-9a-f]+}} in main {{.*}}preload-after-wrappers.c:
// OUT: second image
// OUT-NEXT: child status 4
// OUT-NEXT: status 3
// EXECVE: wrapped execve
// EXECVEAT: wrapped execveat
// FEXECVE: wrapped fexecve
// WRAP: wrapped _Exit 4
// WRAP: wrapped _exit 3
// WRAP-NOT: wrapped
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static char *volatile keep;

int main(int argc, char **argv) {
  keep = malloc(100);
  if (argc > 1 && !strcmp(argv[1], "again")) {
    write(1, "second image\n", 13);
    _Exit(4);
  }
  char *args[] = {argv[0], "again", NULL};
  pid_t pid = fork();
  if (pid == 0) {
    if (!strcmp(argv[1], "execveat"))
      execveat(AT_FDCWD, argv[0], args, environ, 0);
    else if (!strcmp(argv[1], "fexecve"))
      fexecve(open(argv[0], O_RDONLY | O_CLOEXEC), args, environ);
    else
      execve(argv[0], args, environ);
    _exit(127);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  char line[32];
  int n = snprintf(line, sizeof(line), "child status %d\n", WEXITSTATUS(st));
  write(1, line, (size_t)n);
  _exit(3);
}
