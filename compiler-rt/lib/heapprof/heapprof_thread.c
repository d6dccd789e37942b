/*===- heapprof_thread.c - per-thread state -----------------------------===
 *
 * Part of heapprof.
 *
 * Stack bounds make frame-pointer unwinding safe: the main thread's top is
 * __libc_stack_end; a thread started through heapprof's pthread_create
 * wrapper has the wrapper's frame as its top, so the wrapper never shows up
 * in stacks; any other thread asks pthread_getattr_np once.  The bound
 * below (stack_lo) tells the walks a frame on the thread's own stack from
 * one on a stack of the program's making (a coroutine's).
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <threads.h>
#include <unistd.h>

extern void *__libc_stack_end;

#define TLS_NONE ((hp_thread_t *)0)
#define TLS_BUSY ((hp_thread_t *)1) /* being created: use the fallback */
#define TLS_DEAD ((hp_thread_t *)2) /* torn down: use the fallback */

HP_TLS hp_thread_t *hp_tls_thread;
HP_TLS uptr hp_last_alloc;

/* Registry of live threads; exited threads' stats fold into dead_stats and
 * their structs go on the free list.  All under registry_lock. */
static hp_spinlock_t registry_lock;
static hp_thread_t *threads;
static hp_thread_t *free_threads;
static u32 nfree_threads; /* states on free_threads */
static hp_stats_t dead_stats;
u32 hp_live_threads;

/* Shared state for threads without their own; under fallback_lock. */
static hp_spinlock_t fallback_lock;
hp_thread_t hp_fallback_thread;

static pthread_key_t exit_key;
static bool key_ready;

static void thread_exit(void *arg);

/* The main thread's stack_lo: its stack grows down to RLIMIT_STACK below
 * the top of its mapping, and the kernel maps nothing there (mmap_base is
 * at least the limit and the 1 MiB stack guard gap below).  __libc_stack_end
 * is below that top by the arguments, environment and auxiliary vector,
 * at most a quarter of the limit: three quarters of it below
 * __libc_stack_end is still inside.  An unlimited stack (the legacy
 * layout, mappings from the bottom up) counts as 1 GiB. */
static uptr main_lo;

/* The main thread's thread pointer, set by init when it runs there and
 * by a fork child (0: unknown): which thread is the main one (tid = pid),
 * asked without gettid and getpid, which the program's seccomp filter may
 * kill for. */
static uptr main_tp;

static uptr main_stack_lo(void) {
  if (!main_lo) {
    uptr top = (uptr)__libc_stack_end, size = (uptr)1 << 30;
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur < size)
      size = rl.rlim_cur;
    size -= size / 4;
    main_lo = top > size ? top - size : 1;
  }
  return main_lo;
}

void hp_thread_init(void) {
  hp_primary_init_caches(hp_fallback_thread.caches);
  hp_fallback_thread.stack_top = (uptr)__libc_stack_end;
  /* Threads without a state of their own share it: their frames lie
   * below main's stack_lo, and are walked as a coroutine's. */
  hp_fallback_thread.stack_lo = main_stack_lo();
  if (!key_ready && pthread_key_create(&exit_key, thread_exit) == 0)
    key_ready = true;
  if ((pid_t)syscall(SYS_gettid) == getpid())
    main_tp = hp_thread_pointer();
}

/* The frame of heapprof_start.c's wrapper of main, once main runs. */
static uptr main_top;

void hp_thread_main_frame(uptr top) {
  main_top = top;
  hp_thread_t *t = hp_thread_own();
  if (t)
    t->stack_top = top;
}

/* A stack glibc mapped, of at least stack_size bytes (the attribute's;
 * a cached one reused may be larger), has its struct pthread (2304 bytes,
 * where the thread pointer points) at the top, so its mapping starts at
 * most stack_size - 4 KiB below tp: a page less than that is inside (at
 * worst in the guard page, where no frame is). */
static uptr glibc_stack_lo(uptr tp, uptr stack_size) {
  return tp > stack_size ? tp - stack_size + 2 * HP_PAGE_SIZE : 1;
}

static bool on_main_thread(void) {
  if (main_tp)
    return hp_thread_pointer() == main_tp;
  return (pid_t)syscall(SYS_gettid) == getpid();
}

static uptr query_stack_top(uptr *lo) {
  if (on_main_thread()) {
    *lo = main_stack_lo();
    return main_top ? main_top : (uptr)__libc_stack_end;
  }
  /* A thread glibc started past the wrappers (a SIGEV_THREAD timer's,
   * mq_notify's): glibc keeps its struct pthread, where the thread pointer
   * points, at the top of the thread's stack block (a stack the program
   * gave included), above every frame.  pthread_getattr_np, which
   * allocates (three blocks the profile showed as the program's), only
   * when that does not hold: a thread clone() made without a TLS of its
   * own has its creator's thread pointer. */
  uptr sp = (uptr)__builtin_frame_address(0), tp = hp_thread_pointer();
  if (tp > sp && tp - sp < ((uptr)1 << 36)) {
    *lo = glibc_stack_lo(tp, 16384); /* its size unknown: the least */
    return tp;
  }
  pthread_attr_t attr;
  uptr top = 0;
  *lo = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void *addr;
    size_t size;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
      top = (uptr)addr + size;
      *lo = (uptr)addr;
    }
    pthread_attr_destroy(&attr);
  }
  return top;
}

/* stack_top 0: asked; else stack_bottom (a stack the program gave) or
 * stack_size (glibc's mapping, the attribute's size) bound it below. */
static hp_thread_t *create(uptr stack_top, uptr stack_bottom,
                           uptr stack_size) {
  hp_tls_thread = TLS_BUSY;
  hp_thread_t *t;
  hp_spin_lock(&registry_lock);
  t = free_threads;
  if (t)
    free_threads = t->next, nfree_threads--;
  hp_spin_unlock(&registry_lock);
  /* A fresh mapping is zero already: clearing it would make all of its
   * 110 KiB resident, where a thread touches the parts it uses (2000
   * threads alive: 243 MiB resident against glibc's 18).  A recycled one
   * was cleared at its thread's exit (clear_state) but for the free
   * list's link, and keeps its walks' caches, valid as they are. */
  if (t)
    t->next = NULL;
  else
    t = hp_mmap(sizeof(hp_thread_t));
  if (!t) {
    /* No mapping to be had (a process with as many as vm.max_map_count
     * allows: thousands of threads): the thread shares the locked
     * fallback state, slower but the program goes on, as it would
     * without heapprof as long as its own calls succeed. */
    static bool said;
    if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
      hp_printf("HeapProf: WARNING: cannot map a thread's state (0x%zx "
                "bytes; the process may have as many mappings as "
                "vm.max_map_count allows): such threads share one, "
                "slower\n",
                sizeof(hp_thread_t));
    hp_tls_thread = TLS_DEAD;
    return NULL;
  }
  hp_primary_init_caches(t->caches);
  hp_primary_thread_start(t->caches);
  /* In the program's seccomp sandbox gettid is a call its filter may kill
   * for (glibc's malloc makes none, nor glibc's thread start): a thread
   * whose state is made there (started after the filter, or one whose
   * first allocation comes after it) has tid 0, unknown.  Only the leak
   * check at exit and the false-sharing report read it, and nothing after
   * the filter is written. */
  t->tid = hp_in_sandbox() ? 0 : (u32)syscall(SYS_gettid);
  static u32 nseq;
  do
    t->seq = (u16)__atomic_add_fetch(&nseq, 1, __ATOMIC_RELAXED);
  while (!t->seq);
  t->tls_tp = hp_thread_pointer();
  if (!stack_top)
    t->stack_top = query_stack_top(&t->stack_lo);
  else if (stack_bottom)
    t->stack_top = stack_top, t->stack_lo = stack_bottom;
  else
    t->stack_top = stack_top,
    t->stack_lo = glibc_stack_lo(t->tls_tp, stack_size);
  t->stack_bottom = stack_bottom;
  hp_spin_lock(&registry_lock);
  t->next = threads;
  if (threads)
    threads->prev = t;
  threads = t;
  hp_live_threads++;
  hp_spin_unlock(&registry_lock);
  if (key_ready)
    pthread_setspecific(exit_key, t);
  hp_tls_thread = t;
  return t;
}

/* Zeroes an exited thread's state up to its walks' caches, as a fresh
 * mapping is.  Stores make it resident whole (110 KiB, where a thread
 * touches the parts it uses), which is what the next thread wants when
 * threads come and go a few at a time: a page given back costs the next
 * thread a fault when it touches it (here 7 us each: thread churn took
 * twice as long).  But every state on the free list resident whole is
 * what a burst of threads leaves: after 1000 threads alive at once had
 * exited, 131 MiB stayed resident (78 MiB after the first 1000, 55 MiB
 * while they ran), against glibc's 8.  So the first KEPT_STATES of the
 * free list are cleared with stores, and the pages of the others go back
 * to the kernel (madvise), which zeroes them.  In the program's sandbox
 * madvise may be a call its filter kills for: stores then. */
#define KEPT_STATES 16

static void clear_state(hp_thread_t *t, bool keep) {
  uptr end = offsetof(hp_thread_t, walks);
  uptr pages = keep ? 0 : HP_ROUND_DOWN(end, HP_PAGE_SIZE);
  int saved = errno;
  if (pages && (hp_in_sandbox() || madvise(t, pages, MADV_DONTNEED) != 0))
    pages = 0;
  errno = saved;
  hp_memset((char *)t + pages, 0, end - pages);
}

static void thread_exit(void *arg) {
  hp_thread_t *t = arg;
  if (!t || t != hp_tls_thread)
    return;
  hp_tls_thread = TLS_DEAD;
  hp_primary_drain(t->caches, &t->stats);
  hp_syscalls_charge_outside(); /* page releases of the drain */
  hp_pmu_thread_exit();
  hp_faults_thread_exit();
  hp_hib_cache_flush(&t->hibs, &hp_hib_table);
  hp_peak_thread_exit(&t->peak);
  hp_stack_thread_exit(&t->walks);
  hp_signals_altstack_off();
  hp_spin_lock(&registry_lock);
#define X(name, desc) dead_stats.name += t->stats.name;
  HP_STATS(X)
#undef X
  hp_opclass_thread_exit(&t->opc);
  if (t->prev)
    t->prev->next = t->next;
  else
    threads = t->next;
  if (t->next)
    t->next->prev = t->prev;
  hp_live_threads--;
  bool keep = nfree_threads < KEPT_STATES;
  hp_spin_unlock(&registry_lock);
  clear_state(t, keep); /* out of every list: nobody else reads it */
  hp_spin_lock(&registry_lock);
  t->next = free_threads;
  free_threads = t;
  nfree_threads++;
  hp_spin_unlock(&registry_lock);
}

hp_thread_t *hp_thread_acquire_slow(void) {
  hp_thread_t *t = hp_tls_thread;
  if (HP_LIKELY((uptr)t > (uptr)TLS_DEAD))
    return t;
  if (t == TLS_NONE && (t = create(0, 0, 0)))
    return t;
  hp_spin_lock(&fallback_lock);
  return &hp_fallback_thread;
}

void hp_thread_release_fallback(void) { hp_spin_unlock(&fallback_lock); }

void hp_thread_sum_stats(hp_stats_t *out) {
  hp_spin_lock(&registry_lock);
  *out = dead_stats;
  for (hp_thread_t *t = threads; t; t = t->next) {
#define X(name, desc) out->name += t->stats.name;
    HP_STATS(X)
#undef X
  }
#define X(name, desc) out->name += hp_fallback_thread.stats.name;
  HP_STATS(X)
#undef X
  hp_spin_unlock(&registry_lock);
}


void hp_thread_for_each(void (*fn)(hp_thread_t *t, void *arg), void *arg) {
  hp_spin_lock(&registry_lock);
  for (hp_thread_t *t = threads; t; t = t->next)
    fn(t, arg);
  fn(&hp_fallback_thread, arg);
  hp_spin_unlock(&registry_lock);
}

u64 hp_thread_cached_bytes(u64 *freed, u64 *nthreads) {
  u64 n = 0, k = 0;
  *freed = 0;
  hp_spin_lock(&registry_lock);
  for (hp_thread_t *t = threads; t; t = t->next, k++)
    n += hp_primary_cache_bytes(t->caches, freed);
  hp_spin_unlock(&registry_lock);
  *nthreads = k;
  return n + hp_primary_cache_bytes(hp_fallback_thread.caches, freed);
}

void hp_thread_flush_hibs(void) {
  /* Under the registry lock no thread can exit (and free its struct);
   * each cache's own lock orders us against its owner's frees. */
  hp_spin_lock(&registry_lock);
  for (hp_thread_t *t = threads; t; t = t->next)
    hp_hib_cache_flush(&t->hibs, &hp_hib_table);
  hp_spin_unlock(&registry_lock);
  hp_spin_lock(&fallback_lock);
  hp_hib_cache_flush(&hp_fallback_thread.hibs, &hp_hib_table);
  hp_spin_unlock(&fallback_lock);
}

void hp_thread_flush_hibs_settled(void) {
  hp_thread_flush_hibs();
  /* A free whose section met the flush merges under the lock after it
   * (heapprof_hib_table.h): wait for those, then take them.  Not for the
   * dumping thread's own (an exit from a signal handler that interrupted
   * one of its frees: that free cannot go on before the exit ends), nor
   * for more than a second in all (a thread stopped, or blocked inside
   * the wrapped allocator's free: its one object is lost rather than the
   * process hung at exit). */
  hp_thread_t *self = hp_tls_thread;
  u32 until = hp_now_ms() + 1000;
  hp_spin_lock(&registry_lock);
  for (hp_thread_t *t = threads; t; t = t->next)
    for (unsigned i = 0; t != self &&
                         __atomic_load_n(&t->hibs.merging, __ATOMIC_ACQUIRE);
         i++) {
      if (i < 64) {
        __builtin_ia32_pause();
      } else {
        if ((int32_t)(hp_now_ms() - until) >= 0)
          break;
        sched_yield();
      }
    }
  hp_spin_unlock(&registry_lock);
  hp_thread_flush_hibs();
}

/* --------------------------------------------- pthread_create interceptor */

typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *,
                                 void *(*)(void *), void *);

typedef struct start_args {
  void *(*fn)(void *);
  int (*c11_fn)(void *); /* thrd_create's: fn is c11_start */
  void *arg;
  uptr stack_bottom; /* the attribute's stack, if the program gave one */
  uptr stack_size;   /* else the size of the one glibc maps */
  struct start_args *next_free;
} start_args_t;

/* A tiny free list for start_args (not through malloc, so the wrapper's
 * own bookkeeping never shows in the profile); under args_lock.  An entry
 * is in use while its fn is set; the pages are listed for
 * hp_thread_pending_args (the first 64: a program starting more than 10,000
 * threads at once has the rest's arguments left out). */
static hp_spinlock_t args_lock;
static start_args_t *free_args;
static start_args_t *args_pages[64];
static u32 nargs_pages;

/* The first page of entries: no mapping (a process at vm.max_map_count
 * can still start a thread on a stack of its own). */
static start_args_t first_args[HP_PAGE_SIZE / sizeof(start_args_t)];

static start_args_t *args_get(void) {
  hp_spin_lock(&args_lock);
  if (!free_args) {
    start_args_t *page = nargs_pages ? hp_mmap(HP_PAGE_SIZE) : first_args;
    if (!page) { /* pthread_create fails as for a thread it cannot map */
      hp_spin_unlock(&args_lock);
      return NULL;
    }
    if (nargs_pages < sizeof(args_pages) / sizeof(args_pages[0]))
      args_pages[nargs_pages++] = page;
    for (uptr i = 0; i < HP_PAGE_SIZE / sizeof(*page); i++) {
      page[i].next_free = free_args;
      free_args = &page[i];
    }
  }
  start_args_t *a = free_args;
  free_args = a->next_free;
  hp_spin_unlock(&args_lock);
  return a;
}

static void args_put(start_args_t *a) {
  hp_spin_lock(&args_lock);
  a->fn = NULL;
  a->next_free = free_args;
  free_args = a;
  hp_spin_unlock(&args_lock);
}

/* The start routine left thread_start's frame, whose caller's stack
 * pointer is top: from now on the walks' top (see thread_start). */
static void start_routine_left(void *top) {
  hp_thread_t *t = hp_thread_own();
  if (t)
    t->stack_top = (uptr)top;
}

static HP_NOINLINE void *thread_start(void *p) {
  start_args_t *a = p;
  void *(*fn)(void *) = a->fn;
  int (*c11_fn)(void *) = a->c11_fn;
  void *arg = a->arg;
  uptr stack_bottom = a->stack_bottom, stack_size = a->stack_size;
  args_put(a);
  if (hp_tls_thread == TLS_NONE)
    create((uptr)__builtin_frame_address(0), stack_bottom, stack_size);
  hp_signals_altstack_on();
  /* Once the start routine returned, or left by pthread_exit (thrd_exit),
   * glibc's start_thread runs the thread's thread_local destructors
   * (__call_tls_dtors), then its key destructors (__nptl_deallocate_tsd),
   * from its frame, at the stack pointer this frame returns to, just above
   * it.  With this frame still the top, their walks stopped below that
   * libc frame and lost it (a thread_local destructor's allocation had no
   * caller at all); the top is then where this frame ends, as the main
   * thread's is once main returned (heapprof_start.c).  pthread_exit
   * unwinds the thread's frames to start_thread's and runs the cleanup
   * handlers on the way: this frame's moves the top (before, a
   * thread_local destructor after pthread_exit still had no caller:
   * TestCases/stack_after_pthread_exit.cpp).  (The program's key
   * destructors mostly run after heapprof's, which tears this state down:
   * heapprof_stack.c.) */
  void *top = (void *)((uptr)__builtin_frame_address(0) + 2 * sizeof(uptr));
  void *r;
  pthread_cleanup_push(start_routine_left, top);
  /* thrd_join and thrd_exit carry an int in the pointer, as glibc's do. */
  r = c11_fn ? (void *)(intptr_t)c11_fn(arg) : fn(arg);
  pthread_cleanup_pop(0);
  start_routine_left(top);
  return r;
}

void hp_thread_pending_args(void (*fn)(uptr arg, void *ctx), void *ctx) {
  hp_spin_lock(&args_lock);
  for (u32 k = 0; k < nargs_pages; k++)
    for (uptr i = 0; i < HP_PAGE_SIZE / sizeof(start_args_t); i++)
      if (args_pages[k][i].fn)
        fn((uptr)args_pages[k][i].arg, ctx);
  hp_spin_unlock(&args_lock);
}

static pthread_create_fn real_pthread_create(void) {
  static pthread_create_fn real;
  if (!real) {
    real = (pthread_create_fn)dlsym(RTLD_NEXT, "pthread_create");
    HP_CHECK(real && "cannot find the real pthread_create");
  }
  return real;
}

static void *internal_start(void *p) {
  /* No state of its own: not a thread of the program's. */
  hp_tls_thread = TLS_DEAD;
  ((void (*)(void))p)();
  return NULL;
}

/* The thread starts with every signal blocked (it inherits the creator's
 * mask, set so for the call): a signal of the program's is never handled
 * on it, not even before its first instruction. */
bool hp_thread_start_internal(void (*fn)(void), pthread_t *joinable) {
  pthread_t t;
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  /* glibc allocates the thread's vector of TLS blocks with the process's
   * calloc: the runtime's, not the program's (heapprof_ownalloc.h). */
  hp_own_begin();
  int r = real_pthread_create()(&t, NULL, internal_start, (void *)fn);
  hp_own_end();
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (r != 0)
    return false;
  if (joinable)
    *joinable = t;
  else
    pthread_detach(t);
  return true;
}

/* Starts a thread of the program's through thread_start: fn(arg), or the
 * C11 c11_fn(arg) (fn then only marks the entry in use). */
static HP_WRAPPER int start_wrapped(pthread_create_fn real, pthread_t *th,
                                    const pthread_attr_t *attr,
                                    void *(*fn)(void *), int (*c11_fn)(void *),
                                    void *arg) {
  /* The creating thread counts as alive from now on (the serial/parallel
   * axis of heapprof_opclass.h), even if it never allocated. */
  hp_thread_release(hp_thread_acquire());
  start_args_t *a = args_get();
  if (!a)
    return EAGAIN;
  a->fn = fn;
  a->c11_fn = c11_fn;
  a->arg = arg;
  a->stack_bottom = 0;
  /* A stack the program gave (pthread_attr_setstack: a block of its heap,
   * a slice of a mapping of its own) lies in a mapping that goes on below
   * it.  glibc's getstack gives the attribute's stack address less its
   * size, which sum to 0 when no stack was set. */
  void *stack;
  size_t stack_size;
  if (attr && pthread_attr_getstack(attr, &stack, &stack_size) == 0 &&
      (uptr)stack + stack_size != 0)
    a->stack_bottom = (uptr)stack;
  /* Else glibc maps one of the attribute's size (its default if none). */
  pthread_attr_t def;
  a->stack_size = 16384;
  if (!attr && pthread_attr_init(&def) == 0) {
    if (pthread_attr_getstacksize(&def, &stack_size) == 0)
      a->stack_size = stack_size;
    pthread_attr_destroy(&def);
  } else if (attr && pthread_attr_getstacksize(attr, &stack_size) == 0) {
    a->stack_size = stack_size;
  }
  int r = real(th, attr, thread_start, a);
  if (r)
    args_put(a);
  return r;
}

HP_INTERFACE HP_WRAPPER int pthread_create(pthread_t *th,
                                           const pthread_attr_t *attr,
                                           void *(*fn)(void *), void *arg) {
  pthread_create_fn real = real_pthread_create();
  hp_rtl_init();
#ifdef HEAPPROF_SHARED_RUNTIME
  /* A program built with -fheapprof has a runtime of its own, whose
   * __heapprof_init preempts this library's: this copy never initialises
   * (its allocator has no size classes) and only passes the call on, the
   * program's runtime having wrapped fn already. */
  if (!hp_rtl.inited)
    return real(th, attr, fn, arg);
#endif
  return start_wrapped(real, th, attr, fn, NULL, arg);
}

/* C11's thrd_create: glibc's calls its pthread_create inside libc, past
 * the wrapper above, and the thread's state was then made on its first
 * allocation, with pthread_getattr_np's own allocations profiled as the
 * program's.  Started through the wrapper instead, with glibc's mapping
 * of errors to thrd_* codes (thrd_busy and thrd_timedout cannot come from
 * a create). */
static void *c11_in_use(void *arg) { return arg; } /* never called */

HP_INTERFACE HP_WRAPPER int thrd_create(thrd_t *th, thrd_start_t fn,
                                        void *arg) {
  pthread_create_fn real = real_pthread_create();
  hp_rtl_init();
#ifdef HEAPPROF_SHARED_RUNTIME
  if (!hp_rtl.inited) {
    /* As in pthread_create: only the program's own runtime wraps. */
    typedef int (*thrd_create_fn)(thrd_t *, thrd_start_t, void *);
    static thrd_create_fn next;
    if (!next)
      next = (thrd_create_fn)dlsym(RTLD_NEXT, "thrd_create");
    return next(th, fn, arg);
  }
#endif
  /* fn set: the entry is in use (hp_thread_pending_args). */
  int r = start_wrapped(real, (pthread_t *)th, NULL, c11_in_use, fn, arg);
  return r == 0 ? thrd_success : r == ENOMEM ? thrd_nomem : thrd_error;
}

/* ------------------------------------------------------------------ fork */

void hp_thread_fork_prepare(void) {
  hp_spin_lock(&args_lock);
  hp_spin_lock(&fallback_lock);
  hp_spin_lock(&registry_lock);
}

void hp_thread_fork_parent(void) {
  hp_spin_unlock(&registry_lock);
  hp_spin_unlock(&fallback_lock);
  hp_spin_unlock(&args_lock);
}

void hp_thread_fork_child(void) {
  /* Only the forking thread exists now.  The others' structs (and the
   * blocks in their caches) stay out of use; their statistics were the
   * parent's. */
  hp_thread_t *self = hp_tls_thread;
  hp_primary_fork_child((uptr)self > (uptr)TLS_DEAD ? self->caches : NULL);
  hp_pmu_fork_child(); /* the parent's counters */
  hp_faults_fork_child();
  threads = NULL;
  hp_live_threads = 0;
  main_tp = hp_thread_pointer(); /* the forking thread's tid is the pid */
  /* The cached HIBs are the parent's, like its table. */
  hp_hib_cache_clear(&hp_fallback_thread.hibs);
  if ((uptr)self > (uptr)TLS_DEAD) {
    hp_hib_cache_clear(&self->hibs);
    self->next = self->prev = NULL;
    self->tid = (u32)syscall(SYS_gettid);
    threads = self;
    hp_live_threads = 1;
  }
  hp_spin_unlock(&registry_lock);
  hp_spin_unlock(&fallback_lock);
  hp_spin_unlock(&args_lock);
}
