// An allocation in a signal handler has the interrupted code's stack above
// the handler's: the walk steps through the signal trampoline with the
// registers the kernel saved in its ucontext_t, as gdb and libgcc's
// unwinder do.  It took the frame-pointer step there, with the interrupted
// rbp as a frame:
//
// 1. raise() from raiser: the 111-byte object in the handler had the
//    context in_handler <- handler <- (trampoline) <- outer <- main, with
//    raiser (and libc's raise) missing.  Expected: raiser between the
//    trampoline's libc frames and outer.
// 2. On a sigaltstack mapped below the stack, signals that land where rbp
//    holds an address in the gap between the two (signal_self: a
//    CFI-described function that keeps another value in rbp, as code
//    without frame pointers may, and signals itself by a bare syscall):
//    the walk read rbp's target, unmapped, and the program died of SIGSEGV
//    in malloc.  The handler allocates 222 bytes from the same frame each
//    time, through three callers in turn (a b c 10 times, then a a b), so
//    the stack-id cache's set for that frame fails three times in a row
//    and goes deep; its hash then followed the same rbp into the gap
//    (SIGSEGV again).  Expected: the program runs to the end, with
//    contexts in_handler <- handler <- (trampoline) <- signal_self (where
//    the signal landed) <- raiser_alt <- outer_X <- main, 12 objects
//    (2664 B) through outer_a, 11 (2442 B) through outer_b, 10 (2220 B)
//    through outer_c.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=profile_dir=%t.d %run %t | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.d | FileCheck %s
// Under heapprof run, built without heapprof:
// RUN: %clang_plain -O0 -g %s -o %t-plain
// RUN: rm -rf %t.p && env -u LD_PRELOAD heapprof run -o %t.p -- %t-plain | FileCheck %s --check-prefix=OUT
// RUN: heapprof report %t.p | FileCheck %s
// OUT: done
// CHECK: == Top contexts by bytes
// CHECK: 2664 B in 12 objects
// CHECK-NEXT: in_handler {{.*}}handler_stack.c:[[#HANDLER_LINE:]]
// CHECK-NEXT: handler {{.*}}handler_stack.c:[[#HANDLER_LINE+1]]
// CHECK-NEXT: libc.so.6+0x
// CHECK-NEXT: signal_self
// CHECK-NEXT: raiser_alt {{.*}}handler_stack.c:[[#RAISE_LINE:]]
// CHECK-NEXT: outer_a {{.*}}handler_stack.c:[[#RAISE_LINE+1]]
// CHECK-NEXT: main
// CHECK: 2442 B in 11 objects
// CHECK-NEXT: in_handler {{.*}}handler_stack.c:[[#HANDLER_LINE]]
// CHECK-NEXT: handler {{.*}}handler_stack.c:[[#HANDLER_LINE+1]]
// CHECK-NEXT: libc.so.6+0x
// CHECK-NEXT: signal_self
// CHECK-NEXT: raiser_alt {{.*}}handler_stack.c:[[#RAISE_LINE]]
// CHECK-NEXT: outer_b {{.*}}handler_stack.c:[[#RAISE_LINE+2]]
// CHECK-NEXT: main
// CHECK: 2220 B in 10 objects
// CHECK-NEXT: in_handler {{.*}}handler_stack.c:[[#HANDLER_LINE]]
// CHECK-NEXT: handler {{.*}}handler_stack.c:[[#HANDLER_LINE+1]]
// CHECK-NEXT: libc.so.6+0x
// CHECK-NEXT: signal_self
// CHECK-NEXT: raiser_alt {{.*}}handler_stack.c:[[#RAISE_LINE]]
// CHECK-NEXT: outer_c {{.*}}handler_stack.c:[[#RAISE_LINE+3]]
// CHECK-NEXT: main
// CHECK: 111 B in 1 object
// CHECK-NEXT: in_handler {{.*}}handler_stack.c:[[#HANDLER_LINE]]
// CHECK-NEXT: handler {{.*}}handler_stack.c:[[#HANDLER_LINE+1]]
// CHECK-NEXT: libc.so.6+0x
// CHECK-NOT: {{^ *(#|==)}}
// CHECK: {{^ *}}raiser {{.*}}handler_stack.c:[[#RAISE_LINE+4]]
// CHECK-NEXT: outer {{.*}}handler_stack.c:[[#RAISE_LINE+5]]
// CHECK-NEXT: main
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static void *volatile keep;
static volatile size_t size = 111;
// clang-format off
__attribute__((noinline)) static void in_handler(void) { keep = malloc(size); }
static void handler(int s) { (void)s; in_handler(); }
// clang-format on

// signal_self(rbp, pid, tid): tgkill(pid, tid, SIGUSR1) with rbp set to the
// first argument; its CFI says where the caller's rbp is saved.
void signal_self(uintptr_t rbp, long pid, long tid);
__asm__(".text\n.globl signal_self\n.type signal_self,@function\n"
        "signal_self:\n.cfi_startproc\n"
        "push %rbp\n.cfi_def_cfa_offset 16\n.cfi_offset %rbp, -16\n"
        "mov %rdi, %rbp\nmov %rsi, %rdi\nmov %rdx, %rsi\n"
        "mov $10, %edx\nmov $234, %eax\nsyscall\n"
        "pop %rbp\n.cfi_def_cfa_offset 8\nret\n"
        ".cfi_endproc\n.size signal_self, .-signal_self\n");

static uintptr_t hole;
// clang-format off
__attribute__((noinline)) void raiser_alt(void) { signal_self(hole, getpid(), syscall(SYS_gettid)); __asm__ volatile(""); }
__attribute__((noinline)) void outer_a(void) { raiser_alt(); __asm__ volatile(""); }
__attribute__((noinline)) void outer_b(void) { raiser_alt(); __asm__ volatile(""); }
__attribute__((noinline)) void outer_c(void) { raiser_alt(); __asm__ volatile(""); }
__attribute__((noinline)) void raiser(void) { raise(SIGUSR1); __asm__ volatile(""); }
__attribute__((noinline)) void outer(void) { raiser(); __asm__ volatile(""); }
// clang-format on

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigaction(SIGUSR1, &sa, 0);
  outer();

  // The alternate stack, with an unmapped page right above it.
  size_t sz = 1 << 16;
  char *alt = mmap(0, sz + 4096, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (alt == MAP_FAILED || munmap(alt + sz, 4096))
    return 1;
  hole = (uintptr_t)(alt + sz);
  stack_t ss = {.ss_sp = alt, .ss_size = sz, .ss_flags = 0};
  if (sigaltstack(&ss, 0))
    return 1;
  sa.sa_flags = SA_ONSTACK;
  sigaction(SIGUSR1, &sa, 0);
  size = 222;
  // One call site for all 33 signals: a b c ten times, then a a b.
  void (*const abc[])(void) = {outer_a, outer_b, outer_c};
  void (*const aab[])(void) = {outer_a, outer_a, outer_b};
  for (int i = 0; i < 33; i++)
    (i < 30 ? abc[i % 3] : aab[i - 30])();
  printf("done\n");
  return 0;
}
