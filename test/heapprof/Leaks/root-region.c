// Regions the program registers as roots (__heapprof_register_root_region,
// as LeakSanitizer's __lsan_register_root_region): memory that is no
// thread's stack, no global and no live object, holding the only pointers
// to objects.  Each mode makes 100 objects of 204 bytes (20400 bytes) whose
// only pointers are in such memory, then exits:
//   arena       in an mmap'd arena of 64 KiB, registered: no leak.
//   none        the same, not registered: 100 direct leaks of 20400 bytes.
//   unregister  registered, then unregistered: 100, 20400.
//   twice       registered twice, unregistered once: still a root, none.
//   guard       three pages, the middle one PROT_NONE, 50 pointers in the
//               first page and 50 in the third, the three registered as
//               one region: its readable parts are read, none.
//   hand        a coroutine on an mmap'd stack of 64 KiB that the program
//               switches to by hand (assembly, as Boost.Context's; no
//               makecontext for heapprof to note) keeps the 100 in a local
//               array and switches back; main registers the stack: none.
//   hand-none   the same, not registered: 100, 20400.
//   bad         unregisters a region never registered: a warning naming
//               the call, and the program goes on (exit 0) with its
//               arena registered: none.
// Each object is made by a function of its own and nothing keeps its
// address elsewhere: main's frames that held them are cleared (scrub).
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.arena && %env_heapprof_opts=profile_dir=%t.arena %run %t arena
// RUN: heapprof show %t.arena | FileCheck %s --check-prefix=NONE
// RUN: rm -rf %t.twice && %env_heapprof_opts=profile_dir=%t.twice %run %t twice
// RUN: heapprof show %t.twice | FileCheck %s --check-prefix=NONE
// RUN: rm -rf %t.guard && %env_heapprof_opts=profile_dir=%t.guard %run %t guard
// RUN: heapprof show %t.guard | FileCheck %s --check-prefix=NONE
// RUN: rm -rf %t.hand && %env_heapprof_opts=profile_dir=%t.hand %run %t hand
// RUN: heapprof show %t.hand | FileCheck %s --check-prefix=NONE
// RUN: rm -rf %t.none && %env_heapprof_opts=profile_dir=%t.none %run %t none
// RUN: heapprof show %t.none | FileCheck %s --check-prefix=LEAKED
// RUN: rm -rf %t.unregister && %env_heapprof_opts=profile_dir=%t.unregister %run %t unregister
// RUN: heapprof show %t.unregister | FileCheck %s --check-prefix=LEAKED
// RUN: rm -rf %t.hand-none && %env_heapprof_opts=profile_dir=%t.hand-none %run %t hand-none
// RUN: heapprof show %t.hand-none | FileCheck %s --check-prefix=LEAKED
// RUN: rm -rf %t.bad && %env_heapprof_opts=profile_dir=%t.bad %run %t bad 2> %t.bad.err
// RUN: FileCheck %s --check-prefix=BAD < %t.bad.err
// RUN: heapprof show %t.bad | FileCheck %s --check-prefix=NONE
// The same program not rebuilt, under heapprof run (it declares the two
// functions weak and calls them when they are there), on heapprof's
// allocator and on glibc's:
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: rm -rf %t.heapprof.arena && env -u LD_PRELOAD heapprof run -o %t.heapprof.arena --allocator=heapprof -- %t.plain arena
// RUN: heapprof show %t.heapprof.arena | FileCheck %s --check-prefix=NONE
// RUN: rm -rf %t.heapprof.hand && env -u LD_PRELOAD heapprof run -o %t.heapprof.hand --allocator=heapprof -- %t.plain hand
// RUN: heapprof show %t.heapprof.hand | FileCheck %s --check-prefix=NONE
// RUN: rm -rf %t.system.arena && env -u LD_PRELOAD heapprof run -o %t.system.arena --allocator=system -- %t.plain arena
// RUN: heapprof show %t.system.arena | FileCheck %s --check-prefix=NONE
// RUN: rm -rf %t.system.hand && env -u LD_PRELOAD heapprof run -o %t.system.hand --allocator=system -- %t.plain hand
// RUN: heapprof show %t.system.hand | FileCheck %s --check-prefix=NONE
// RUN: rm -rf %t.heapprof.hn && env -u LD_PRELOAD heapprof run -o %t.heapprof.hn --allocator=heapprof -- %t.plain hand-none
// RUN: heapprof show %t.heapprof.hn | FileCheck %s --check-prefix=LEAKED
// RUN: rm -rf %t.system.hn && env -u LD_PRELOAD heapprof run -o %t.system.hn --allocator=system -- %t.plain hand-none
// RUN: heapprof show %t.system.hn | FileCheck %s --check-prefix=LEAKED
// Without heapprof the calls are skipped and the program runs as ever:
// RUN: %t.plain hand
// NONE: leaks: head_words=10 objects={{[0-9]+}} root_bytes={{[1-9][0-9]*}} direct_objects=0 direct_bytes=0 indirect_objects=0 indirect_bytes=0 {{.*}} nrows=0{{$}}
// LEAKED: leaks: head_words=10 objects={{[0-9]+}} root_bytes={{[1-9][0-9]*}} direct_objects=100 direct_bytes=20400 indirect_objects=0 indirect_bytes=0 {{.*}} nrows=1{{$}}
// BAD: HeapProf: WARNING: __heapprof_unregister_root_region(0x{{[0-9a-f]+}}, 4096): no such region is registered; nothing done
// BAD-NOT: HeapProf
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void __heapprof_register_root_region(const void *p, size_t size)
    __attribute__((weak));
void __heapprof_unregister_root_region(const void *p, size_t size)
    __attribute__((weak));

static void reg(const void *p, size_t size) {
  if (__heapprof_register_root_region)
    __heapprof_register_root_region(p, size);
}

static void unreg(const void *p, size_t size) {
  if (__heapprof_unregister_root_region)
    __heapprof_unregister_root_region(p, size);
}

#define OBJECTS 100
#define PAGE 4096
#define STACK_BYTES (64 * 1024)

__attribute__((noinline)) static void *widget(void) { return malloc(204); }

// Clears the stack below main's frame, where the calls above left the
// objects' addresses.
__attribute__((noinline)) static void scrub(void) {
  volatile char junk[16384];
  memset((char *)junk, 0, sizeof(junk));
}

static void *map(size_t bytes) {
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    _exit(2);
  return p;
}

__attribute__((noinline)) static void fill(void **slots, int n) {
  for (int k = 0; k < n; k++)
    slots[k] = widget();
}

// co_switch(save, to): pushes the callee-saved registers, saves the stack
// pointer in *save, takes `to` as the stack pointer, pops them and returns
// on the other stack.
void co_switch(void **save, void *to);
__asm__(".text\n"
        ".globl co_switch\n"
        ".type co_switch, @function\n"
        "co_switch:\n"
        "  push %rbp\n  push %rbx\n  push %r12\n"
        "  push %r13\n  push %r14\n  push %r15\n"
        "  mov %rsp, (%rdi)\n"
        "  mov %rsi, %rsp\n"
        "  pop %r15\n  pop %r14\n  pop %r13\n"
        "  pop %r12\n  pop %rbx\n  pop %rbp\n"
        "  ret\n"
        ".size co_switch, .-co_switch\n");

static void *main_sp, *co_sp;

// Runs on the coroutine's stack; never resumed.
static void co_body(void) {
  void *volatile objs[OBJECTS];
  fill((void **)objs, OBJECTS);
  co_switch(&co_sp, main_sp);
  _exit(4);
}

// A stack whose first switch enters co_body: six zero registers, then
// co_body's address for co_switch's ret, then a zero return address for
// co_body (entered with the stack pointer 8 below a 16-byte boundary, as
// after a call).
static void *co_start(char *stack) {
  uintptr_t *top = (uintptr_t *)(stack + STACK_BYTES);
  top[-1] = 0;
  top[-2] = (uintptr_t)co_body;
  for (int k = 3; k <= 8; k++)
    top[-k] = 0;
  return &top[-8];
}

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "";
  if (!strcmp(m, "hand") || !strcmp(m, "hand-none")) {
    char *stack = map(STACK_BYTES);
    co_switch(&main_sp, co_start(stack));
    if (!strcmp(m, "hand"))
      reg(stack, STACK_BYTES);
  } else if (!strcmp(m, "guard")) {
    char *r = map(3 * PAGE);
    if (mprotect(r + PAGE, PAGE, PROT_NONE))
      return 2;
    fill((void **)r, OBJECTS / 2);
    fill((void **)(r + 2 * PAGE), OBJECTS / 2);
    reg(r, 3 * PAGE);
  } else {
    void **arena = map(STACK_BYTES);
    fill(arena, OBJECTS);
    if (strcmp(m, "none"))
      reg(arena, STACK_BYTES);
    if (!strcmp(m, "twice"))
      reg(arena, STACK_BYTES);
    if (!strcmp(m, "unregister") || !strcmp(m, "twice"))
      unreg(arena, STACK_BYTES);
    if (!strcmp(m, "bad"))
      unreg(arena + 8, PAGE);
  }
  scrub();
  return 0;
}
