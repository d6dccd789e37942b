// A deadly signal that lands while a dump is running, on the dumping thread
// or another one, 24 times: every run dies of its signal (the test would hang
// or `timeout` would kill it otherwise), writes its final profile named after
// the signal, and leaves no incomplete profile: every text profile ends with
// its summary line and `heapprof show` reads every raw one.  The signal is deferred until
// the interrupted thread releases heapprof's locks (the checkpoint it was
// writing completes), then the final profile is written as usual.
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %env_heapprof_opts=dump_at_exit=0 timeout 300 %run %t drive %t %t.d 24 | FileCheck %s
// CHECK: 24 runs: 24 died of their signal, 24 final profiles, 0 incomplete profiles, 0 unreadable raw profiles, 0 timer messages
#include <heapprof/heapprof_interface.h>
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int in_dump;
static int sig, mode, delay;
static pthread_t main_thread;

// 2^10 distinct call paths (a/b chosen by the bits of `path`), 4 live
// objects each: every checkpoint writes 1024 contexts and takes a while.
__attribute__((noinline)) static void leaf(unsigned path) {
  for (int i = 0; i < 4; i++) {
    char *volatile p = malloc(16 + path % 64);
    p[0] = 1;
  }
}
__attribute__((noinline)) static void b(int d, unsigned p);
__attribute__((noinline)) static void a(int d, unsigned p) {
  if (!d) leaf(p); else if (p & 1) a(d - 1, p >> 1); else b(d - 1, p >> 1);
}
__attribute__((noinline)) static void b(int d, unsigned p) {
  if (!d) leaf(p); else if (p & 1) a(d - 1, p >> 1); else b(d - 1, p >> 1);
}

static void *dump_loop(void *arg) {
  for (;;) {
    in_dump = 1;
    __heapprof_dump();
    in_dump = 0;
  }
  return arg;
}

// Waits for a dump to start, spins a run-dependent while, then sends.
static void *killer(void *arg) {
  while (!in_dump)
    usleep(100);
  for (volatile int i = 0; i < delay * 50000; i++) {
  }
  if (mode == 'p')
    kill(getpid(), sig);        // to the process: any thread takes it
  else
    pthread_kill(main_thread, sig);
  return arg;
}

// s: main dumps and gets the signal; o: another thread dumps, main
// allocates and gets it; p: another thread dumps, the process gets it.
static int victim(void) {
  for (unsigned p = 0; p < 1024; p++)
    a(10, p);
  main_thread = pthread_self();
  pthread_t d, k;
  pthread_create(&k, 0, killer, 0);
  if (mode == 's')
    dump_loop(0);
  pthread_create(&d, 0, dump_loop, 0);
  for (;;) {
    char *volatile q = malloc(100);
    free(q);
  }
}

static int complete(const char *path, char *header, size_t n) {
  FILE *f = fopen(path, "r");
  char line[4096];
  int summary = 0;
  header[0] = 0;
  if (!f)
    return 0;
  if (fgets(line, sizeof(line), f))
    snprintf(header, n, "%s", line);
  while (fgets(line, sizeof(line), f))
    summary = !strncmp(line, "Summary:", 8);
  fclose(f);
  return summary;
}

int main(int argc, char **argv) {
  if (!strcmp(argv[1], "victim")) {
    sig = atoi(argv[2]);
    mode = argv[3][0];
    delay = atoi(argv[4]);
    return victim();
  }
  int runs = atoi(argv[4]), died = 0, finals = 0, incomplete = 0, timers = 0,
      unreadable = 0;
  for (int i = 0; i < runs; i++) {
    int s = i % 2 ? SIGABRT : SIGSEGV;
    char dir[4096], opts[4200], sigs[8], modes[2] = {"sop"[i % 3], 0},
         delays[8], err[4200];
    snprintf(dir, sizeof(dir), "%s/%d", argv[3], i);
    snprintf(err, sizeof(err), "%s/%d.err", argv[3], i);
    snprintf(opts, sizeof(opts),
             "profile_dir=%s:print_text=1:print_raw=1:symbolize=0:"
             "deadly_signal_timeout_s=120",
             dir);
    snprintf(sigs, sizeof(sigs), "%d", s);
    snprintf(delays, sizeof(delays), "%d", i % 7);
    pid_t c = fork();
    if (c == 0) {
      setenv("HEAPPROF_OPTIONS", opts, 1);
      freopen(err, "w", stderr);
      execl(argv[2], argv[2], "victim", sigs, modes, delays, (char *)0);
      _exit(127);
    }
    int st;
    waitpid(c, &st, 0);
    died += WIFSIGNALED(st) && WTERMSIG(st) == s;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
      size_t len = strlen(e->d_name);
      char path[8300], header[4096], cmd[8400];
      snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
      if (len > 8 && !strcmp(e->d_name + len - 8, ".profraw")) {
        snprintf(cmd, sizeof(cmd), "heapprof show '%s' > /dev/null", path);
        if (system(cmd) != 0) {
          unreadable++;
          printf("unreadable: %s\n", path);
        }
        continue;
      }
      if (len < 4 || strcmp(e->d_name + len - 4, ".txt"))
        continue; // a .tmp left by an interrupted write is no profile
      if (!complete(path, header, sizeof(header))) {
        incomplete++;
        printf("incomplete: %s\n", path);
      }
      if (strstr(header, s == SIGSEGV ? ", SIGSEGV, dump 0" : ", SIGABRT, dump 0"))
        finals++;
    }
    if (d)
      closedir(d);
    char cmd[8400];
    snprintf(cmd, sizeof(cmd), "grep -c 'not written within' %s > /dev/null", err);
    timers += system(cmd) == 0;
  }
  printf("%d runs: %d died of their signal, %d final profiles, %d incomplete "
         "profiles, %d unreadable raw profiles, %d timer messages\n",
         runs, died, finals, incomplete, unreadable, timers);
  return 0;
}
