// drop_privileges_worker(): the worker of a server that drops privileges
// (nginx's, run as nobody), as Run/privilege-drop.c and
// privilege-drop-own-environ.c fork one.  The worker, a fork child, is
// given the environment env (NULL: the parent's), becomes nobody (uid and
// gid 65534, no supplementary groups) and keeps 3 blocks of 1234 bytes
// (3,702 bytes) from worker_buffer(); then it exits, 1 if it could not drop
// them.  The parent waits for it, writes "<done>\n" to stderr (the
// program's own log: the runtime's warning about the worker's profile
// comes before it) and returns the worker's exit status.
#ifndef HEAPPROF_TEST_PRIVILEGE_DROP_H
#define HEAPPROF_TEST_PRIVILEGE_DROP_H
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static void *volatile worker_blocks[3];

__attribute__((noinline)) void *worker_buffer(void) { return malloc(1234); }

static int drop_privileges_worker(char **env, const char *done) {
  pid_t pid = fork();
  if (pid == 0) {
    if (env)
      environ = env;
    if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) {
      perror("dropping privileges");
      exit(1);
    }
    for (int i = 0; i < 3; i++)
      worker_blocks[i] = worker_buffer();
    exit(0);
  }
  int status;
  waitpid(pid, &status, 0);
  fprintf(stderr, "%s\n", done);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

#endif
