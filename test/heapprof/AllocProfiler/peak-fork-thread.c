// A fork child's heap holds what the parent's other threads had allocated,
// though those threads are gone in the child; their live tables
// (heapprof_peak.h) keep counting those chunks.  Thread T allocates
// 3 x 1 MiB at site T and waits; main forks; the child allocates 2 x 1 MiB
// at site C and frees them.  The child's peak, at its first free: T's
// 3 MiB and C's 2 MiB, 5 objects in 2 contexts.  The parent's, when T
// frees: T's 3 MiB.  glibc may allocate a few hundred bytes per thread for
// itself (its TLS vector).
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof show %t.d/*.profraw | grep ' peak: peak_bytes=' > %t.peaks
// RUN: %python -c "import re,sys; got = sorted(tuple(int(re.search(k + '=([0-9]+)', l).group(1)) for k in ('peak_bytes', 'peak_objects', 'peak_contexts')) for l in open(sys.argv[1])); MiB = 1 << 20; assert len(got) == 2 and 3 * MiB <= got[0][0] < 3 * MiB + 4096 and 3 <= got[0][1] <= 5 and 5 * MiB <= got[1][0] < 5 * MiB + 4096 and 5 <= got[1][1] <= 7 and got[1][2] >= 2, got" %t.peaks
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define MiB (1 << 20)
__attribute__((noinline)) static char *site_t(void) { return malloc(MiB); }
__attribute__((noinline)) static char *site_c(void) { return malloc(MiB); }
static pthread_barrier_t made, forked;

static void *thread_t(void *arg) {
  char *volatile t[3];
  for (int i = 0; i < 3; i++)
    t[i] = site_t();
  pthread_barrier_wait(&made);
  pthread_barrier_wait(&forked);
  for (int i = 0; i < 3; i++)
    free(t[i]);
  return arg;
}

int main(void) {
  pthread_barrier_init(&made, NULL, 2);
  pthread_barrier_init(&forked, NULL, 2);
  pthread_t th;
  pthread_create(&th, NULL, thread_t, NULL);
  pthread_barrier_wait(&made);
  pid_t k = fork();
  if (k == 0) {
    char *volatile c[2];
    for (int i = 0; i < 2; i++)
      c[i] = site_c();
    for (int i = 0; i < 2; i++)
      free(c[i]);
    exit(0);
  }
  int status;
  waitpid(k, &status, 0);
  pthread_barrier_wait(&forked);
  pthread_join(th, NULL);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
