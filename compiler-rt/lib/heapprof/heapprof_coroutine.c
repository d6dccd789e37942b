/*===- heapprof_coroutine.c - the stacks coroutines run on --------------===
 *
 * Part of heapprof.  See heapprof_coroutine.h.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"
#include "heapprof_coroutine.h"

#include <dlfcn.h>
#include <errno.h>
#include <sys/mman.h>
#include <ucontext.h>

typedef struct {
  uptr beg, size; /* beg 0: an empty slot */
} costack_t;

/* Open addressing by beg, at most a quarter full (an eighth after it
 * grows). */
static struct {
  hp_spinlock_t lock;
  costack_t *v;
  u64 cap, n;
} set;

/* The lock (counted as every lock of the runtime's is: a deadly signal
 * waits for its release, a fork from a signal handler that interrupted a
 * note runs no handler): one holder keeps it for a few stores.  A
 * makecontext waits for it (hp_spin_lock_unless_nested): a bounded spin
 * gave up under contention and noted nothing, as the root-region calls
 * dropped registrations (heapprof_roots.c).  A signal handler that
 * interrupted its own thread inside the runtime, maybe inside this note,
 * gives up after a bounded spin and notes nothing (that stack's objects
 * may then read as leaked, as before there were notes) rather than wait
 * for ever.  A fork holds it across the copy (hp_coroutine_init): a child
 * made while another thread held it found it held for good, and each
 * makecontext there spun the whole bound (0.12 s here) and noted nothing,
 * nor did its leak check read a noted stack (5 of 6 children of a program
 * whose thread made contexts in a loop read their coroutine's object as
 * leaked).  The fork waits for it without a bound: its holder is another
 * thread (a fork from a handler that interrupted this thread's note runs
 * no handler, hp_fork_prepare), which lets go once it runs again.  With
 * the bounded spin, a holder descheduled for longer than the bound (a
 * loaded machine; or its grow's mincore slow) was given up on, and the
 * child again found the lock held for good. */
static bool set_lock(void) { return hp_spin_lock_unless_nested(&set.lock); }

static void set_unlock(void) { hp_spin_unlock(&set.lock); }

static void fork_prepare(void) { hp_spin_lock(&set.lock); }

static void fork_release(void) { set_unlock(); }

void hp_coroutine_init(void) {
  hp_atfork(fork_prepare, fork_release, fork_release);
}

static u64 slot_of(uptr beg, u64 cap) {
  return ((u64)beg * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1);
}

static void put(costack_t *v, u64 cap, costack_t s, u64 *n) {
  for (u64 i = slot_of(s.beg, cap);; i = (i + 1) & (cap - 1)) {
    if (v[i].beg == s.beg) {
      v[i].size = s.size;
      return;
    }
    if (!v[i].beg) {
      v[i] = s;
      (*n)++;
      return;
    }
  }
}

/* A stack the program has unmapped is dropped when the set grows: a loop
 * of coroutines on fresh mappings keeps the set at the ones still mapped.
 * Not in a sandbox, whose filter may kill a call it did not expect.  The
 * set that is left is at most an eighth full, so as many stacks again as
 * it kept come before the next growth: at a quarter, when the stacks
 * still mapped stayed just under a power of two's quarter (63 of a ring
 * of fresh ones, each made then unmapped 63 later), every makecontext
 * grew the set again, 128 mincore calls each. */
static bool still_mapped(const costack_t *s) {
  if (hp_in_sandbox())
    return true;
  unsigned char in_core;
  uptr page = (s->beg + s->size - 1) & ~(uptr)(HP_PAGE_SIZE - 1);
  return mincore((void *)page, HP_PAGE_SIZE, &in_core) == 0 ||
         errno != ENOMEM;
}

static bool grow(void) {
  u64 keep = 0;
  for (u64 i = 0; i < set.cap; i++)
    keep += set.v[i].beg && still_mapped(&set.v[i]);
  u64 cap = 64;
  while (cap < 8 * (keep + 1))
    cap *= 2;
  costack_t *v = hp_mmap(cap * sizeof(costack_t));
  if (!v)
    return false;
  u64 n = 0;
  for (u64 i = 0; i < set.cap; i++)
    if (set.v[i].beg && still_mapped(&set.v[i]))
      put(v, cap, set.v[i], &n);
  if (set.v)
    hp_munmap(set.v, set.cap * sizeof(costack_t));
  set.v = v;
  set.cap = cap;
  set.n = n;
  return true;
}

static void note(uptr beg, uptr size) {
  if (!beg || !size || beg + size < beg || !set_lock())
    return;
  if (4 * (set.n + 1) <= set.cap || grow())
    put(set.v, set.cap, (costack_t){beg, size}, &set.n);
  set_unlock();
}

bool hp_coroutine_stacks_for_each(void (*fn)(uptr beg, uptr end, void *arg),
                                  void *arg) {
  if (!hp_spin_lock_patient(&set.lock))
    return false;
  for (u64 i = 0; i < set.cap; i++)
    if (set.v[i].beg)
      fn(set.v[i].beg, set.v[i].beg + set.v[i].size, arg);
  set_unlock();
  return true;
}

typedef void (*makecontext_fn)(void);
static void nothing(void) {}

/* libc's makecontext (nothing when there is none: makecontext was no
 * function to call). */
static makecontext_fn real_makecontext(void) {
  static makecontext_fn real;
  makecontext_fn f = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
  if (!f) {
    f = (makecontext_fn)dlsym(RTLD_NEXT, "makecontext");
    if (!f)
      f = nothing;
    __atomic_store_n(&real, f, __ATOMIC_RELEASE);
  }
  return f;
}

/* Called by the entry below with makecontext's first argument: notes the
 * stack, and returns libc's makecontext for the entry to jump to. */
__attribute__((used)) makecontext_fn hp_coroutine_note(ucontext_t *uc) {
  int saved = errno;
  if (uc)
    note((uptr)uc->uc_stack.ss_sp, uc->uc_stack.ss_size);
  makecontext_fn f = real_makecontext();
  errno = saved;
  return f;
}

uptr hp_coroutine_start_return(void) {
  static uptr ret;
  uptr r = __atomic_load_n(&ret, __ATOMIC_RELAXED);
  makecontext_fn f = real_makecontext();
  if (r || f == nothing)
    return r;
  /* A context made on a scrap stack by libc's own makecontext (not the
   * entry below: the scrap stack is no coroutine's to note), which writes
   * the context and that stack, nothing else. */
  ucontext_t uc;
  uptr scrap[32];
  hp_memset(&uc, 0, sizeof(uc));
  hp_memset(scrap, 0, sizeof(scrap));
  uc.uc_stack.ss_sp = scrap;
  uc.uc_stack.ss_size = sizeof(scrap);
  ((void (*)(ucontext_t *, void (*)(void), int, ...))f)(&uc, nothing, 0);
  uptr sp = (uptr)uc.uc_mcontext.gregs[REG_RSP];
  if (sp >= (uptr)scrap && sp + sizeof(uptr) <= (uptr)(scrap + 32))
    r = *(const uptr *)sp;
  __atomic_store_n(&ret, r, __ATOMIC_RELAXED);
  return r;
}

/* makecontext(ucp, func, argc, ...): saves the argument registers (and
 * al, the count of vector registers a variadic call passes), calls
 * hp_coroutine_note with ucp, restores them and jumps to libc's
 * makecontext, which sees the call as the program made it.  Seven pushes
 * over the return address leave the stack 16-byte aligned for the call. */
__asm__(".text\n"
        ".globl makecontext\n"
        ".type makecontext, @function\n"
        "makecontext:\n"
        "  .cfi_startproc\n"
        "  push %rdi\n"
        "  .cfi_adjust_cfa_offset 8\n"
        "  push %rsi\n"
        "  .cfi_adjust_cfa_offset 8\n"
        "  push %rdx\n"
        "  .cfi_adjust_cfa_offset 8\n"
        "  push %rcx\n"
        "  .cfi_adjust_cfa_offset 8\n"
        "  push %r8\n"
        "  .cfi_adjust_cfa_offset 8\n"
        "  push %r9\n"
        "  .cfi_adjust_cfa_offset 8\n"
        "  push %rax\n"
        "  .cfi_adjust_cfa_offset 8\n"
        "  call hp_coroutine_note\n"
        "  mov %rax, %r11\n"
        "  pop %rax\n"
        "  .cfi_adjust_cfa_offset -8\n"
        "  pop %r9\n"
        "  .cfi_adjust_cfa_offset -8\n"
        "  pop %r8\n"
        "  .cfi_adjust_cfa_offset -8\n"
        "  pop %rcx\n"
        "  .cfi_adjust_cfa_offset -8\n"
        "  pop %rdx\n"
        "  .cfi_adjust_cfa_offset -8\n"
        "  pop %rsi\n"
        "  .cfi_adjust_cfa_offset -8\n"
        "  pop %rdi\n"
        "  .cfi_adjust_cfa_offset -8\n"
        "  jmp *%r11\n"
        "  .cfi_endproc\n"
        ".size makecontext, .-makecontext\n");
