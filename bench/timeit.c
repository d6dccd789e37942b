/*===- timeit.c - run one command, report wall, CPU and peak RSS ---------===
 *
 *   timeit [-t SECONDS] [-o STDOUT_FILE] [-e STDERR_FILE] -- CMD [ARGS...]
 *
 * Forks CMD in its own process group, waits for it with wait4() and prints
 * one line on stdout:
 *
 *   <wall_s> <cpu_s> <maxrss_kb> <status>
 *
 * wall from CLOCK_MONOTONIC around fork..reap, cpu = user + sys of the child
 * (its threads included), maxrss from the child's rusage (ru_maxrss, KiB).
 * status is "ok", "exit:N", "signal:N" or "timeout" (the whole process group
 * is killed with SIGKILL after SECONDS). The child's stdout and stderr go to
 * the given files (default /dev/null), so the runner can compare outputs.
 * Exit status: 0 if the line was printed, 2 on a usage or fork error.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t timed_out;
static void on_alarm(int sig) {
  (void)sig;
  timed_out = 1;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int open_out(const char *path) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    fprintf(stderr, "timeit: %s: %s\n", path, strerror(errno));
    exit(2);
  }
  return fd;
}

int main(int argc, char **argv) {
  double limit = 0;
  const char *out = "/dev/null", *err = "/dev/null";
  int i = 1;
  for (; i < argc; i++) {
    if (!strcmp(argv[i], "--")) {
      i++;
      break;
    }
    if (i + 1 >= argc)
      break;
    if (!strcmp(argv[i], "-t"))
      limit = atof(argv[++i]);
    else if (!strcmp(argv[i], "-o"))
      out = argv[++i];
    else if (!strcmp(argv[i], "-e"))
      err = argv[++i];
    else
      break;
  }
  if (i >= argc) {
    fprintf(stderr, "usage: timeit [-t SECONDS] [-o OUT] [-e ERR] -- CMD [ARGS...]\n");
    return 2;
  }
  int ofd = open_out(out), efd = open_out(err);

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm; /* no SA_RESTART: wait4 must return EINTR */
  sigaction(SIGALRM, &sa, NULL);

  double t0 = now();
  pid_t pid = fork();
  if (pid < 0) {
    perror("timeit: fork");
    return 2;
  }
  if (pid == 0) {
    setpgid(0, 0);
    dup2(ofd, 1);
    dup2(efd, 2);
    execvp(argv[i], &argv[i]);
    dprintf(efd, "timeit: exec %s: %s\n", argv[i], strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid); /* also here, so a kill before the child's own call works */
  if (limit > 0) {
    struct itimerval it = {{0, 0}, {(time_t)limit,
                                    (suseconds_t)((limit - (time_t)limit) * 1e6)}};
    setitimer(ITIMER_REAL, &it, NULL);
  }
  int status;
  struct rusage ru;
  for (;;) {
    pid_t r = wait4(pid, &status, 0, &ru);
    if (r == pid)
      break;
    if (r < 0 && errno == EINTR) {
      if (timed_out)
        kill(-pid, SIGKILL);
      continue;
    }
    perror("timeit: wait4");
    return 2;
  }
  double wall = now() - t0;
  kill(-pid, SIGKILL); /* stray grandchildren of a shell wrapper */
  double cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
               (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
  char st[32];
  if (timed_out)
    snprintf(st, sizeof st, "timeout");
  else if (WIFEXITED(status))
    snprintf(st, sizeof st, WEXITSTATUS(status) ? "exit:%d" : "ok",
             WEXITSTATUS(status));
  else
    snprintf(st, sizeof st, "signal:%d", WTERMSIG(status));
  printf("%.4f %.4f %ld %s\n", wall, cpu, ru.ru_maxrss, st);
  return 0;
}
