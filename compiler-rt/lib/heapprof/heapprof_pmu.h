/*===- heapprof_pmu.h - PMU events per allocator call -------------------===
 *
 * Part of heapprof.  pmu_events=1: one allocator call in pmu_sample_every
 * of each op kind (per thread) reads the thread's performance counters
 * (perf_event_open, user space only) at its start and at its end, and adds
 * the differences to its operation class (heapprof_opclass.h):
 * instructions, cache misses, dTLB load misses (hardware), page faults,
 * minor and major faults, context switches and task clock (software).
 * Where the machine has no hardware counters (most virtual machines) the
 * software events are counted alone and the section says so.  Off (the
 * default), a call pays one test of a global flag at its start and end.
 * A dump writes the change since the previous one as tagged section 4
 * (docs/formats.md).
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_PMU_H
#define HEAPPROF_PMU_H

enum {
  HP_PMU_INSTRUCTIONS,
  HP_PMU_CACHE_MISSES,
  HP_PMU_DTLB_MISSES,
  HP_PMU_PAGE_FAULTS,
  HP_PMU_MINOR_FAULTS,
  HP_PMU_MAJOR_FAULTS,
  HP_PMU_CONTEXT_SWITCHES,
  HP_PMU_TASK_CLOCK_NS,
  HP_NUM_PMU_EVENTS,
};
/* Section 4's flags word. */
#define HP_PMU_NO_HARDWARE 1u /* no hardware counter could be opened */
#define HP_PMU_NO_EVENTS 2u   /* perf_event_open refused every event */

/* pmu_events && profiling; set once at init, read on every call. */
extern bool hp_pmu_on;

void hp_pmu_init(void);
/* An allocator call of kind op begins (HP_OP_IN_REALLOC: part of one
 * already begun). */
void hp_pmu_begin(u8 op);
/* It ends in class cls: a sampled call's differences go to the class. */
void hp_pmu_end(u32 cls);
/* Thread exit: close this thread's counters; the thread opens none again
 * (its allocations after its state was torn down go unmeasured). */
void hp_pmu_thread_exit(void);
/* Fork child: close the parent thread's counters; the next sampled call
 * opens the child's. */
void hp_pmu_fork_child(void);

struct hp_profile_info;
void hp_pmu_write_section(hp_buf_t *b, const struct hp_profile_info *info);

#endif
