/*===- heapprof_rtl.h - init, dumps, exit -------------------------------===
 *
 * Part of heapprof.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_RTL_H
#define HEAPPROF_RTL_H

#include <signal.h>

typedef struct hp_rtl {
  bool inited;      /* set at the end of the runtime's init */
  bool final_wanted; /* a last profile (exit, error, deadly signal) waits
                      * for the dump lock: checkpoints stand aside */
  bool final_done;  /* the last profile is claimed: set under the dump
                     * lock by its writer */
  u32 checkpoints;  /* __heapprof_dump calls so far */
} hp_rtl_t;

/* Written by the init (once) and the dump code under its lock. */
extern hp_rtl_t hp_rtl;

/* Sets the runtime up, once (the first caller does, the others return at
 * once).  The runtime's own callers use this; __heapprof_init, which
 * instrumented modules' constructors call, also says that counters may be
 * written from now on (hp_shadow_mark_in_use). */
void hp_rtl_init(void);

/* Writes a profile; returns 0 on success.  seq 0 names the last profile,
 * written once (-1 when it was already claimed). */
int hp_rtl_dump(const char *reason, u32 seq);
/* The last profile, at most once (exit, fatal error). */
void hp_rtl_dump_final(const char *reason);
/* The next checkpoint (numbered 1, 2, ...), for reason: __heapprof_dump,
 * the dump signal, an exec (heapprof_exec.c). */
int hp_rtl_checkpoint(const char *reason);
/* Statistics to stderr (print_stats). */
void hp_rtl_print_stats(void);
/* fork(): the profile-writing lock. */
void hp_rtl_lock(void);
void hp_rtl_unlock(void);
/* heapprof_signals.c: installed at the end of init. */
void hp_signals_init(void);
/* The calling thread's alternate signal stack (for a stack overflow's
 * SIGSEGV), unless it has one: on at a thread's start, off at its end. */
void hp_signals_altstack_on(void);
void hp_signals_altstack_off(void);
/* The temporary profile file (heapprof_signals.c): guard_begin before it
 * is created in dirfd, guard_file once it is, guard_end when it has its
 * final name or is gone.  Meanwhile a signal that would end the process by
 * its default action removes the file first, and a SIGXFSZ from the
 * writing thread's own write is ignored (the write fails with EFBIG). */
void hp_signals_guard_begin(int dirfd);
void hp_signals_guard_file(const char *tmp);
void hp_signals_guard_end(void);
/* Around a dump (under the dump lock, inside hp_signals_hold): SIGXFSZ and
 * SIGPIPE are blocked, so a write past the file size limit fails with
 * EFBIG, one to a pipe nobody reads with EPIPE, and neither the default
 * action nor a handler of the program's runs for them. */
void hp_signals_own_writes_begin(void);
void hp_signals_own_writes_end(void);
/* The caller is the process this image started in: not a fork child, not a
 * vfork child (which runs in its parent's memory). */
bool hp_signals_own_image(void);
/* A fork child (its own memory; not a vfork child, whose pid is not the
 * one the fork handler recorded). */
bool hp_signals_fork_child(void);
/* A process that runs in memory of another's: a vfork child (or a clone
 * without CLONE_THREAD), whose pid no fork handler recorded.  It must
 * write no profile: the state it would change is its parent's. */
bool hp_signals_vfork_child(void);
/* A copy of the process made without heapprof's fork handlers
 * (heapprof_fork.c): its state repeats its parent's (*parent, when not
 * NULL: the parent's pid) up to the copy, so it writes no profile. */
bool hp_signals_unhandled_fork_child(u32 *parent);
/* heapprof_exec.c: the exec family (after init: dlsym may allocate). */
void hp_exec_init(void);
/* The next definition of name past this runtime (dlsym RTLD_NEXT: a
 * library preloaded after it that wraps name, or libc), called where the
 * runtime's own definition is done; in a -fheapprof program under heapprof
 * run, where that is the preloaded runtime's copy (preempted, never
 * initialised), the one after that copy.  NULL when there is none: the
 * caller makes the system call itself.  After hp_exec_init. */
void *hp_exec_next(const char *name);
/* Before init: the next definitions of the exec family and of _exit and
 * _Exit, looked up now (hp_exec_next), called where the program installs
 * a signal handler, so that a handler's exec or _exit makes no dlsym,
 * which is not async-signal-safe.  Once; nothing after init. */
void hp_exec_resolve_early(void);
void hp_signals_resolve_early(void);
/* heapprof_preload.c (the preloaded runtime; heapprof_exec.c has the
 * static runtime's weak one, which returns envp): the environment an exec
 * passes on, so that under heapprof run the program that replaces itself
 * (and with --follow-exec every exec) is still profiled.  With buf NULL:
 * envp itself when it is passed as it is, else NULL and *bytes the size
 * the new one needs; with buf (of *bytes bytes, from that first call): the
 * new one, built there.  No allocation: the caller maps buf, or in a vfork
 * child puts it on its stack.  Under an address-space or data-size limit
 * the new image's runtime could not start under (hp_limits_refuse_start),
 * the environment that runs it without heapprof instead. */
char *const *hp_preload_exec_env(char *const *envp, void *buf, uptr *bytes);
/* Whether heapprof run follows the image's own exec (the same pair: the
 * preloaded runtime's, and the weak one that asks whether it is loaded). */
bool hp_preload_active(void);
/* The preloaded runtime's hp_preload_exec_env under an exported name: in a
 * program built with -fheapprof and run under heapprof run, the
 * executable's runtime preempts the preloaded one, but heapprof run's
 * environment is what the preloaded one's constructor kept; the static
 * runtime's weak hp_preload_exec_env finds this (hp_exec_init) and asks
 * it. */
HP_INTERFACE char *const *__heapprof_run_exec_environment(char *const *envp,
                                                         void *buf,
                                                         uptr *bytes);
/* heapprof_preload.c: dlsym(RTLD_NEXT, name) from the preloaded runtime,
 * for the static runtime of a -fheapprof program under heapprof run, whose
 * own RTLD_NEXT finds the preloaded runtime's idle copy (hp_exec_next). */
HP_INTERFACE void *__heapprof_run_next_definition(const char *name);
/* heapprof_sandbox.c: set once the program installed a seccomp filter; from
 * then on no profile is written and the runtime makes no system call a
 * malloc or free would not. */
extern bool hp_sandboxed;
static HP_ALWAYS_INLINE bool hp_in_sandbox(void) {
  return __atomic_load_n(&hp_sandboxed, __ATOMIC_RELAXED);
}
/* Before the filter goes in (on): heapprof's deadly-signal handlers give
 * the signals back to the actions they replaced; after a filter that did
 * not go in (off): they take them again. */
void hp_signals_sandboxed(bool on);
/* The program's asynchronous signals held on the calling thread while it
 * writes a profile (hp_rtl_dump), and the mask put back. */
void hp_signals_hold(sigset_t *old);
void hp_signals_unhold(const sigset_t *old);
/* The deadly signal deferred while this thread held runtime locks: raised
 * again now that the last one is released (hp_spin_unlock). */
void hp_signals_run_deferred(void);
const char *hp_signal_name(int sig);
/* sigaction as the kernel has it, heapprof's handlers included (the
 * program's sigaction and signal show it the actions those replaced). */
int hp_real_sigaction(int sig, const struct sigaction *act,
                      struct sigaction *old);

#endif
