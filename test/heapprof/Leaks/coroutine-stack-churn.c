// The set of noted coroutine stacks drops the unmapped ones when it grows,
// asking mincore of each stack's top page.  A ring of coroutine stacks at
// fresh addresses: page i of a mapping is made a stack (makecontext, not
// run) and page i - 63 unmapped, 10000 times, so 63 stacks are mapped
// whenever the set grows.  Right answer: a growth reads each of its
// entries twice and leaves room for as many again as it kept (the table
// of 512 slots it makes for 63 stacks takes 128 before the next growth),
// so fewer than 4 mincore calls per makecontext (256 for 65).  Before, a
// table of 256 slots was made for the 63, room for one more: every
// makecontext grew the set again, 128 calls each.
// The runtime's mincore is the program's own here (linked in):
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=detect_leaks=0:profile_dir=%t.d %run %t | FileCheck %s
// CHECK: mincore calls per makecontext: {{[0-3]$}}
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#define STACKS 10000
#define RING 63
#define PAGE 4096

static long calls;

int mincore(void *addr, size_t length, unsigned char *vec) {
  calls++;
  return (int)syscall(SYS_mincore, addr, length, vec);
}

static void nothing(void) {}

int main(void) {
  char *pages = mmap(NULL, (size_t)(STACKS + RING) * PAGE,
                     PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ucontext_t uc;
  getcontext(&uc);
  for (int i = 0; i < STACKS; i++) {
    uc.uc_stack.ss_sp = pages + (size_t)i * PAGE;
    uc.uc_stack.ss_size = PAGE;
    makecontext(&uc, nothing, 0);
    if (i >= RING)
      munmap(pages + (size_t)(i - RING) * PAGE, PAGE);
  }
  printf("mincore calls per makecontext: %ld\n", calls / STACKS);
  return 0;
}
