// sandboxed_heap: the heap seccomp_mlock.c and seccomp_mlock_dump.c grow in
// a program's sandbox.  heap_before_filter() makes one block of 480 bytes
// (the 512-byte class's first span, before any filter or mlockall);
// malloc_sandbox(extra) installs a filter of what glibc's malloc and these
// programs need (brk, mmap, munmap; read, pread, write; exits, futex,
// signals, getpid, getrandom, close, clock_gettime) plus one system call
// (extra; -1 for none: no call has that number) and kills for any other,
// as a program's sandbox does; grow_heap() allocates and writes
// HEAP_BLOCKS blocks of 480 bytes (the 512-byte class: 8 MiB, 128 spans),
// kept in heap_blocks.  Each test's subject is the system call it allows or
// not: madvise (seccomp_mlock.c allows it, seccomp_mlock_dump.c checks
// that heapprof makes none).
#ifndef HEAPPROF_TEST_SANDBOXED_HEAP_H
#define HEAPPROF_TEST_SANDBOXED_HEAP_H
#include "seccomp_filter.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEAP_BLOCKS 16384
static char *volatile heap_blocks[HEAP_BLOCKS];

static void say(const char *s) { write(1, s, strlen(s)); }

static void heap_before_filter(void) { free(malloc(480)); }

static int malloc_sandbox(long extra) {
  struct sock_filter f[] = {
      SECCOMP_LOAD_NR,
      ALLOW(__NR_read), ALLOW(__NR_pread64), ALLOW(__NR_write),
      ALLOW(__NR_exit_group), ALLOW(__NR_exit), ALLOW(__NR_brk),
      ALLOW(__NR_mmap), ALLOW(__NR_munmap), ALLOW((unsigned)extra),
      ALLOW(__NR_futex), ALLOW(__NR_rt_sigprocmask), ALLOW(__NR_getpid),
      ALLOW(__NR_getrandom), ALLOW(__NR_close), ALLOW(__NR_clock_gettime),
      ALLOW(__NR_rt_sigaction), ALLOW(__NR_rt_sigreturn),
      SECCOMP_KILL_REST,
  };
  return seccomp_install(f, sizeof(f) / sizeof(f[0]));
}

static void grow_heap(void) {
  for (int i = 0; i < HEAP_BLOCKS; i++) {
    heap_blocks[i] = malloc(480);
    memset(heap_blocks[i], 1, 480);
  }
}

#endif
