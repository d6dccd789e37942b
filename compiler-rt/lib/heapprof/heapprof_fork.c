/*===- heapprof_fork.c - heapprof's fork handlers, for every kind of fork -===
 *
 * Part of heapprof.  fork() runs the pthread_atfork handlers, and
 * heapprof's (heapprof_signals.c and the others registered through
 * hp_atfork) hold its locks across the copy and give the child a profile
 * of its own: the parent's records are the parent's to write.  Three other
 * ways to copy a process run no handler, and a child made by one of them
 * wrote a profile that repeated everything its parent had recorded up to
 * the copy (the parent's 10 objects counted again beside the child's 7):
 *
 *  - _Fork (glibc 2.34), the async-signal-safe fork, which runs none of
 *    the program's handlers: interposed here, it runs heapprof's, and
 *    still none of the program's;
 *  - glibc's clone() without CLONE_VM (a function run on a stack of its
 *    own in a copy of the process: container runtimes, sandboxes):
 *    interposed here, it runs heapprof's handlers, the child's first
 *    thing in the copy.  Before, such a child also died of SIGSEGV on
 *    another allocator (--allocator=system): the page-fault counter's
 *    page is not copied into a child (the kernel maps perf events
 *    VM_DONTCOPY) and only the child's handler lets go of it;
 *  - syscall(SYS_fork), syscall(SYS_clone) without CLONE_VM and without
 *    a new stack (the only way such a child can return through
 *    syscall()), and the same through SYS_clone3: heapprof_sandbox.c's
 *    syscall() runs heapprof's handlers around them (hp_fork_prepare,
 *    hp_fork_after);
 *  - what heapprof does not see: the instruction itself, and any of these
 *    called by a signal handler that interrupted heapprof on its thread
 *    (which holds heapprof's locks: the handlers would wait for them).
 *    Such a child is told from a vfork child, which runs in its parent's
 *    memory and has no handlers either, by a page marked at start and by
 *    the handlers' child, and wiped in every copy of the process
 *    (MADV_WIPEONFORK, Linux 4.14) but not in a vfork child, which shares
 *    it.  It writes no profile, and says so (heapprof_rtl.c).
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <sys/mman.h>

/* heapprof's handlers, in the order registered: fork runs the prepare
 * handlers in the reverse order, the others in this one (POSIX). */
enum { MAX_HANDLERS = 8 };
static struct {
  void (*prepare)(void), (*parent)(void), (*child)(void);
} handlers[MAX_HANDLERS];
static int nhandlers;

static volatile u8 *mark; /* 1 in a process whose state is its own */

typedef pid_t (*fork_fn)(void);
typedef int (*clone_fn)(int (*)(void *), void *, int, void *, ...);
static fork_fn real_fork;   /* glibc's _Fork, found at start */
static clone_fn real_clone; /* and its clone */

/* glibc's, which pthread_atfork calls with the calling module's
 * __dso_handle (libc_nonshared.a). */
extern int __register_atfork(void (*prepare)(void), void (*parent)(void),
                             void (*child)(void), void *dso_handle);

/* The files' handlers are kept in the list above, and glibc is given one
 * trio that runs them all (atfork_*), registered before any handler of
 * the program's or its libraries': fork runs the prepare handlers last
 * registered first and the others first registered first, so heapprof's
 * prepare runs last, just before the copy, and its parent and child
 * handlers first.  Registered at init, it ran before the handlers that
 * the executable's libraries register from their constructors (they run
 * before the runtime's, in either runtime), so with heapprof's locks held:
 * such a handler that allocated (or waited for a lock of its library that
 * another thread held while it allocated) waited for them for ever, a
 * prepare or parent handler in the parent, a child handler in the child
 * (Run/atfork-library.c).  So the trio is registered at the first
 * registration of anyone: from the executable's .preinit_array (the static
 * runtime: before any library's constructor), or in the preloaded runtime
 * at the first __register_atfork call, which it interposes (pthread_atfork
 * is libc_nonshared.a's call of it); failing both, at init.
 *
 * Under no module's handle: pthread_atfork's, the handle of the module
 * heapprof is linked into, had glibc drop the handlers at exit, when that
 * module's __cxa_finalize runs (the executable's .fini_array, before the
 * exit profile; the preloaded runtime's at _dl_fini).  glibc runs a fork's
 * handlers without its lock held, so a thread forking meanwhile ran the
 * prepare handlers (the dump lock and the allocator's locks taken) but no
 * parent handler: the exit profile waited for the dump lock for ever (a
 * thread forking in a loop while main exited: 1 run in 40 hung, 3 aborted
 * in glibc, "array index 0 not less than array length 0", with no
 * profile). */
static HP_TLS bool atfork_prepared; /* this thread's fork took the locks */

/* Through hp_fork_prepare: nothing from a signal handler that interrupted
 * heapprof on its thread.  Registered with glibc one by one, the handlers
 * ran there too, and fork() from such a handler waited for the lock its
 * interrupted frame held, for ever (Signals/fork_handler_in_runtime.c: a
 * timer's handler forking while main allocated hung 6 runs in 8). */
static void atfork_prepare(void) { atfork_prepared = hp_fork_prepare(); }
static void atfork_parent(void) { hp_fork_after(atfork_prepared, false); }
static void atfork_child(void) { hp_fork_after(atfork_prepared, true); }

#ifdef HEAPPROF_SHARED_RUNTIME
typedef int (*register_atfork_fn)(void (*)(void), void (*)(void),
                                  void (*)(void), void *);
static register_atfork_fn real_register_atfork;

/* glibc's, found by whichever thread needs it first (dlsym allocates
 * nothing when it finds the symbol); ENOMEM, as glibc's failure, if not. */
static int register_atfork_real(void (*prepare)(void), void (*parent)(void),
                                void (*child)(void), void *dso_handle) {
  register_atfork_fn real =
      __atomic_load_n(&real_register_atfork, __ATOMIC_ACQUIRE);
  if (!real) {
    real = (register_atfork_fn)dlsym(RTLD_NEXT, "__register_atfork");
    if (!real)
      return ENOMEM;
    __atomic_store_n(&real_register_atfork, real, __ATOMIC_RELEASE);
  }
  return real(prepare, parent, child, dso_handle);
}
#define HP_REGISTER_ATFORK register_atfork_real
#else
#define HP_REGISTER_ATFORK __register_atfork
#endif

/* Once, whichever thread comes first. */
static void register_atfork_trio(void) {
  static bool claimed;
  if (__atomic_load_n(&claimed, __ATOMIC_ACQUIRE) ||
      __atomic_exchange_n(&claimed, true, __ATOMIC_ACQ_REL))
    return;
  HP_REGISTER_ATFORK(atfork_prepare, atfork_parent, atfork_child, NULL);
}

#ifdef HEAPPROF_SHARED_RUNTIME
HP_INTERFACE int __register_atfork(void (*prepare)(void), void (*parent)(void),
                                   void (*child)(void), void *dso_handle) {
  register_atfork_trio();
  return HP_REGISTER_ATFORK(prepare, parent, child, dso_handle);
}
#else
__attribute__((section(".preinit_array"), used)) static void (
    *const fork_preinit)(void) = register_atfork_trio;
#endif

/* The list's order is the one fork runs: prepare handlers last registered
 * first, the others first registered first. */
void hp_atfork(void (*prepare)(void), void (*parent)(void),
               void (*child)(void)) {
  HP_CHECK(nhandlers < MAX_HANDLERS);
  handlers[nhandlers].prepare = prepare;
  handlers[nhandlers].parent = parent;
  handlers[nhandlers].child = child;
  nhandlers++;
}

static void mark_child(void) {
  if (mark)
    *mark = 1;
}

void hp_fork_init(void) {
  void *page = hp_mmap(HP_PAGE_SIZE);
  if (page && madvise(page, HP_PAGE_SIZE, MADV_WIPEONFORK) == 0) {
    mark = (volatile u8 *)page;
    *mark = 1;
  } else if (page) {
    hp_munmap(page, HP_PAGE_SIZE); /* before Linux 4.14: no such copy told */
  }
  /* The next definition: libc's, or in a -fheapprof program under
   * heapprof run the preloaded runtime's, which calls libc's.  (Through
   * dlsym: looking in libc.so.6 itself meant a dlopen, which allocates,
   * and that object was in every profile.) */
  real_fork = (fork_fn)dlsym(RTLD_NEXT, "_Fork");
  real_clone = (clone_fn)dlsym(RTLD_NEXT, "clone");
  hp_atfork(NULL, NULL, mark_child);
  register_atfork_trio();
}

bool hp_fork_unhandled_copy(void) { return mark && *mark == 0; }

bool hp_fork_prepare(void) {
  /* Inside heapprof on this thread: a signal handler's call, which would
   * wait for the locks the interrupted code holds. */
  if (!hp_rtl.inited || hp_locks_held > 0)
    return false;
  for (int i = nhandlers; i-- > 0;)
    if (handlers[i].prepare)
      handlers[i].prepare();
  return true;
}

void hp_fork_after(bool prepared, bool child) {
  if (!prepared)
    return;
  for (int i = 0; i < nhandlers; i++) {
    void (*h)(void) = child ? handlers[i].child : handlers[i].parent;
    if (h)
      h();
  }
}

HP_INTERFACE pid_t _Fork(void) {
  if (!real_fork) {
    /* Called before start (a preinit constructor's): found now. */
    real_fork = (fork_fn)dlsym(RTLD_NEXT, "_Fork");
    if (!real_fork) {
      errno = ENOSYS;
      return -1;
    }
  }
  int saved = errno;
  bool prepared = hp_fork_prepare();
  errno = saved;
  pid_t pid = real_fork();
  saved = errno;
  hp_fork_after(prepared, pid == 0);
  errno = saved;
  return pid;
}

/* clone's function in a copy of the process: the child's handlers first.
 * The call's description is on the parent's stack, which the copy has. */
typedef struct clone_call {
  int (*fn)(void *);
  void *arg;
  bool prepared;
} clone_call_t;

static int clone_child(void *p) {
  clone_call_t *c = (clone_call_t *)p;
  hp_fork_after(c->prepared, true);
  return c->fn(c->arg);
}

HP_INTERFACE int clone(int (*fn)(void *), void *stack, int flags, void *arg,
                       ...) {
  va_list ap;
  va_start(ap, arg);
  pid_t *parent_tid = va_arg(ap, pid_t *);
  void *tls = va_arg(ap, void *);
  pid_t *child_tid = va_arg(ap, pid_t *);
  va_end(ap);
  if (!real_clone) {
    real_clone = (clone_fn)dlsym(RTLD_NEXT, "clone");
    if (!real_clone) {
      errno = ENOSYS;
      return -1;
    }
  }
  /* A thread, or a child in this memory (vfork's kind): nothing to do. */
  if ((flags & CLONE_VM) || !fn)
    return real_clone(fn, stack, flags, arg, parent_tid, tls, child_tid);
  int saved = errno;
  clone_call_t call = {fn, arg, hp_fork_prepare()};
  errno = saved;
  int pid = real_clone(clone_child, stack, flags, &call, parent_tid, tls,
                       child_tid);
  saved = errno;
  hp_fork_after(call.prepared, false);
  errno = saved;
  return pid;
}
