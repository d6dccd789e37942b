/*===- heapprof_faults.h - page faults in and outside allocator calls ---===
 *
 * Part of heapprof.  allocator=system|PATH with alloc_faults=1: every page
 * fault a thread takes in user space is counted as taken inside the wrapped
 * allocator's call (already in its cycles), inside heapprof's own work
 * around the call (not the allocator's: print_stats only), or outside any
 * allocator call -- mostly the program's first touches of memory the
 * allocator handed out fresh or purged, a cost the allocator causes that
 * its call cycles do not see.  Each thread opens a software page-fault
 * event (perf_event_open, sample period 1) whose ring buffer it maps read
 * only: the kernel advances the ring's head by one 8-byte record per fault,
 * so a fault count at a boundary is one load, with no system call.  The
 * cost of one fault is measured once at init (the median TSC cycles of a
 * first touch of fresh anonymous pages).  In-call faults are charged to the
 * call's operation class and outside faults to HP_SYS_OUTSIDE as rows of
 * section 3 (HP_SYS_FAULT: count, 4096 bytes a fault, count x the measured
 * cost in cycles).  docs/allocator-profiler.md, "Cost per operation
 * including faults".
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_FAULTS_H
#define HEAPPROF_FAULTS_H

#include <linux/perf_event.h>

/* alloc_faults && alloc_syscalls && a foreign allocator is profiled; set
 * once by hp_faults_init, in a page every copy of the process gets wiped
 * (MADV_WIPEONFORK) where the kernel has one, and set again by a fork's
 * child handler (hp_faults_fork_child).  A copy made without heapprof's
 * handlers (the clone instruction without CLONE_VM) reads false: it has
 * no ring, since the kernel does not copy one into a child, and reading
 * its thread's ring killed it with SIGSEGV at its first allocator call. */
extern bool *hp_faults_flag;
static HP_ALWAYS_INLINE bool hp_faults_on(void) { return *hp_faults_flag; }

/* A thread's state; heapprof_faults.c's but for the quick calls below. */
typedef struct hp_fault_thread {
  const struct perf_event_mmap_page *ring; /* NULL: none (yet) */
  bool tried;
  u32 depth; /* profiled entry points under way (nested ones count once) */
  u64 mark;  /* the ring's head at the previous boundary */
  u64 in_call; /* faults of the last wrapped call, not yet noted */
  u32 lock;    /* the control page's seqcount at the call's start */
} hp_fault_thread_t;
extern HP_TLS hp_fault_thread_t hp_faults_thread;

/* After hp_foreign_init and hp_clock_init: decides and measures the cost of
 * one fault. */
void hp_faults_init(void);

/* A profiled entry point begins / ends (nested calls count as the outer
 * one); the wrapped call begins / ends inside it.  Every recorded call
 * makes all four boundaries: inline, they test that no fault happened
 * (the ring's head is still the mark) and the thread's depth, and call the
 * _slow function, which does all the work, for anything else (a fault to
 * charge, no ring yet, a nested entry point). */
void hp_faults_enter_slow(void);
void hp_faults_leave_slow(void);
void hp_faults_call_begin_slow(void);
bool hp_faults_call_end_slow(u64 cycles);
static HP_ALWAYS_INLINE bool hp_faults_quiet(const hp_fault_thread_t *f) {
  return __atomic_load_n(&f->ring->data_head, __ATOMIC_ACQUIRE) == f->mark;
}
static HP_ALWAYS_INLINE void hp_faults_enter(void) {
  hp_fault_thread_t *f = &hp_faults_thread;
  if (HP_LIKELY(!f->depth && f->ring && hp_faults_quiet(f)))
    f->depth = 1;
  else
    hp_faults_enter_slow();
}
static HP_ALWAYS_INLINE void hp_faults_leave(void) {
  hp_fault_thread_t *f = &hp_faults_thread;
  if (HP_LIKELY(f->depth == 1 && f->ring && hp_faults_quiet(f))) {
    f->depth = 0;
    f->in_call = 0; /* a call that was not recorded */
  } else {
    hp_faults_leave_slow();
  }
}
static HP_ALWAYS_INLINE void hp_faults_call_begin(void) {
  hp_fault_thread_t *f = &hp_faults_thread;
  if (f->depth != 1 || !f->ring)
    return;
  f->lock = __atomic_load_n(&f->ring->lock, __ATOMIC_ACQUIRE);
  if (HP_UNLIKELY(!hp_faults_quiet(f)))
    hp_faults_call_begin_slow();
}
/* The wrapped call ended after cycles (0: not sampled); true if the thread
 * was scheduled out during it: the kernel rewrites the ring's control page
 * (its seqcount `lock` moves) whenever the thread is scheduled back in, so
 * a changed `lock` across the call means it lost the CPU (preempted, or
 * blocked in the allocator).  Such a sampled call is counted apart
 * (print_stats: descheduled_calls/cycles), not as a sample. */
static HP_ALWAYS_INLINE bool hp_faults_call_end(u64 cycles) {
  hp_fault_thread_t *f = &hp_faults_thread;
  if (f->depth != 1 || !f->ring)
    return false;
  if (HP_LIKELY(hp_faults_quiet(f) &&
                __atomic_load_n(&f->ring->lock, __ATOMIC_ACQUIRE) == f->lock))
    return false;
  return hp_faults_call_end_slow(cycles);
}

/* Quick calls (sampled mode's unsampled calls, heapprof_foreign.c) make
 * no boundaries while no fault happens.  hp_faults_quick_begin: false
 * when the thread is inside an entry point or took a fault since its last
 * boundary (the caller takes the full path); else the thread is marked
 * inside one (so a nested call, from a signal handler, is nested) and
 * true.  hp_faults_quick_end, once the call is over: true when no fault
 * happened, the thread outside again; false when one did: the faults are
 * charged to the wrapped call and the thread stays inside until
 * hp_faults_leave.  hp_faults_quick_enter: after either, enters unless the
 * thread is still inside (the full path's boundary, for a quick call that
 * turned out to need recording). */
void hp_faults_quick_faulted(void);
static HP_ALWAYS_INLINE bool hp_faults_quick_begin(void) {
  hp_fault_thread_t *f = &hp_faults_thread;
  if (!hp_faults_on())
    return true;
  if (!f->ring)
    return f->tried; /* none, and none will be opened: nothing to count */
  if (f->depth ||
      __atomic_load_n(&f->ring->data_head, __ATOMIC_ACQUIRE) != f->mark)
    return false;
  f->depth = 1;
  return true;
}
static HP_ALWAYS_INLINE bool hp_faults_quick_end(void) {
  hp_fault_thread_t *f = &hp_faults_thread;
  if (!hp_faults_on() || !f->ring)
    return true;
  if (HP_LIKELY(__atomic_load_n(&f->ring->data_head, __ATOMIC_ACQUIRE) ==
                f->mark)) {
    f->depth = 0;
    return true;
  }
  hp_faults_quick_faulted();
  return false;
}
static HP_ALWAYS_INLINE void hp_faults_quick_enter(void) {
  if (hp_faults_on() && !hp_faults_thread.depth)
    hp_faults_enter();
}

/* The recorded call's faults join its pending system calls (charged to its
 * class with them); a call not recorded drops them (print_stats keeps). */
void hp_faults_note_call_slow(void);
static HP_ALWAYS_INLINE void hp_faults_note_call(void) {
  if (HP_UNLIKELY(hp_faults_thread.in_call))
    hp_faults_note_call_slow();
}

/* Charges this thread's faults since its last boundary as outside calls
 * (the dump's thread, thread exit). */
void hp_faults_flush(void);
/* The faults since the last boundary were heapprof's own (a dump's). */
void hp_faults_skip(void);
/* Thread exit: flush and close; fork child: drop the parent's ring. */
void hp_faults_thread_exit(void);
void hp_faults_fork_child(void);

void hp_faults_print_stats(void);

#endif
