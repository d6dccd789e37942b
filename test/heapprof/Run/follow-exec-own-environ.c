// --follow-exec follows the exec of a server that has made its environment
// its own, as nginx's master does for a binary upgrade (SIGUSR2: a fork
// child execs the new binary with an environment nginx builds, NGINX=fds).
// Before it execs, nginx has
//  - set its process title (ngx_setproctitle; PostgreSQL's ps_status does
//    the same): the environment's strings copied elsewhere, environ pointed
//    at the copies, and the title written over the area where the kernel
//    had put them (TITLE);
//  - replaced environ by an array of its own, TZ and what `env` directives
//    name (ngx_set_environment; a program's clearenv() too) (OWN).
// The new image must load heapprof's runtime and write its profile, its 3
// blocks of 777 bytes (2,331 bytes), and see heapprof run's LD_PRELOAD
// beside the variable the program gave it.  Before, the runtime read
// heapprof run's values from that area (TITLE: it found the title, gave the
// new image nothing of its own, and no profile came) and asked environ
// whether it ran under --follow-exec at each exec (OWN: no, not followed).
// RUN: %clang_plain -O0 -g %s -o %t
// RUN: rm -rf %t.title && env -u LD_PRELOAD heapprof run --follow-exec -o %t.title -- %t title > %t.title.out
// RUN: FileCheck %s --check-prefix=CHILD < %t.title.out
// RUN: ls %t.title | count 2
// RUN: heapprof show %t.title/*.profraw | FileCheck %s --check-prefix=PROF
// RUN: rm -rf %t.own && env -u LD_PRELOAD heapprof run --follow-exec -o %t.own -- %t own > %t.own.out
// RUN: FileCheck %s --check-prefix=CHILD < %t.own.out
// RUN: ls %t.own | count 2
// RUN: heapprof show %t.own/*.profraw | FileCheck %s --check-prefix=PROF
// Both at once, as nginx does.
// RUN: rm -rf %t.both && env -u LD_PRELOAD heapprof run --follow-exec -o %t.both -- %t title own > %t.both.out
// RUN: FileCheck %s --check-prefix=CHILD < %t.both.out
// RUN: ls %t.both | count 2
// RUN: heapprof show %t.both/*.profraw | FileCheck %s --check-prefix=PROF

// CHILD: new binary: NGINX=3; preload libheapprof_rt.so
// PROF: MIB stack id {{[0-9]+}}: AllocCount=3 {{.*}}TotalSize=2331
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static void *volatile keep[3];

// What ngx_init_setproctitle and ngx_setproctitle do: the environment's
// strings (contiguous after argv's) moved to the heap, then the title
// written over argv[0] and everything after it.
static void set_title(int argc, char **argv) {
  int n = 0;
  while (environ[n])
    n++;
  char **moved = malloc((n + 1) * sizeof(char *));
  char *end = argv[0] + strlen(argv[0]);
  for (int i = 1; i < argc; i++)
    if (argv[i] == end + 1)
      end = argv[i] + strlen(argv[i]);
  for (int i = 0; i < n; i++) {
    if (environ[i] == end + 1)
      end = environ[i] + strlen(environ[i]);
    moved[i] = strdup(environ[i]);
  }
  moved[n] = NULL;
  // Every string of the environment is under the title (heapprof run's
  // variables among them).
  if (n == 0 || end != environ[n - 1] + strlen(environ[n - 1])) {
    fprintf(stderr, "the environment does not follow argv\n");
    exit(1);
  }
  environ = moved;
  memset(argv[0], 0, (size_t)(end - argv[0]));
  strcpy(argv[0], "nginx: master process");
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "new-binary")) {
    for (int i = 0; i < 3; i++)
      keep[i] = malloc(777);
    const char *preload = getenv("LD_PRELOAD");
    const char *base = preload ? strrchr(preload, '/') : NULL;
    printf("new binary: NGINX=%s preload %s\n", getenv("NGINX"),
           base ? base + 1 : "(none)");
    return 0;
  }
  // argv[0] is overwritten by the title: the path to exec, kept first.
  char *self = strdup("/proc/self/exe");
  int title = 0, own = 0;
  for (int i = 1; i < argc; i++) {
    title |= !strcmp(argv[i], "title");
    own |= !strcmp(argv[i], "own");
  }
  if (title)
    set_title(argc, argv);
  if (own) {
    static char *mine[] = {"TZ=UTC", NULL};
    environ = mine;
  }
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    char *args[] = {"nginx", "new-binary", NULL};
    char *envp[] = {"NGINX=3;", NULL};
    execve(self, args, envp);
    _exit(127);
  }
  int st;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
