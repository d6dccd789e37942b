// The check at exit reads the registered root regions under their set's
// lock, and waits for it while another thread holds it.  Here the holder
// never lets go: a thread registers and takes back a region in a loop, and
// main sends it SIGUSR1 until the handler finds it interrupted its thread
// inside the lock (the handler's own registration, which cannot wait for
// its own thread, says so on stderr, which the handler sees grow); that
// handler then stays in pause() for good, the lock held.  main then exits
// with 100 objects of 204 bytes whose only pointers are in a registered
// arena.  The check waits a second, reads no region, and says so; the 100
// are listed as leaked (100 direct, 20,400 bytes).  It had given up after a
// bounded spin without a word.
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: heapprof show %t.d | FileCheck %s --check-prefix=LEAKED
// CHECK: HeapProf: WARNING: __heapprof_register_root_region(0x{{[0-9a-f]+}}, 8): called by a signal handler that interrupted heapprof on this thread; not registered
// CHECK-NEXT: HeapProf: WARNING: leak check at exit: the registered root regions were not read (their list stayed locked for 1 s); objects only they point to are listed as leaked
// LEAKED: leaks: {{.*}} direct_objects=100 direct_bytes=20400 indirect_objects=0 indirect_bytes=0 {{.*}} nrows=1{{$}}
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <heapprof/heapprof_interface.h>

#define OBJECTS 100

static void *loop_slot, *handler_slot;
static volatile sig_atomic_t answered, stuck;

__attribute__((noinline)) static void *widget(void) { return malloc(204); }

__attribute__((noinline)) static void scrub(void) {
  volatile char junk[16384];
  memset((char *)junk, 0, sizeof(junk));
}

static off_t stderr_size(void) {
  struct stat st;
  return fstat(2, &st) ? -1 : st.st_size;
}

static void on_usr1(int sig) {
  (void)sig;
  off_t before = stderr_size();
  __heapprof_register_root_region(&handler_slot, 8);
  if (stderr_size() > before) {
    stuck = 1;
    for (;;)
      pause();
  }
  __heapprof_unregister_root_region(&handler_slot, 8);
  answered = 1;
}

static void *looper(void *arg) {
  (void)arg;
  for (;;) {
    __heapprof_register_root_region(&loop_slot, 8);
    __heapprof_unregister_root_region(&loop_slot, 8);
  }
  return NULL;
}

int main(void) {
  void **arena = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (arena == MAP_FAILED)
    return 2;
  for (int k = 0; k < OBJECTS; k++)
    arena[k] = widget();
  __heapprof_register_root_region(arena, 4096);
  signal(SIGUSR1, on_usr1);
  pthread_t t;
  pthread_create(&t, NULL, looper, NULL);
  for (int tries = 0; !stuck; tries++) {
    if (tries == 100000) {
      fprintf(stderr, "never interrupted inside the lock\n");
      return 3;
    }
    answered = 0;
    pthread_kill(t, SIGUSR1);
    while (!answered && !stuck)
      ;
  }
  scrub();
  return 0;
}
