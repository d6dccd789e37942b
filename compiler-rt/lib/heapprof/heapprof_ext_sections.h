/*===- heapprof_ext_sections.h - tagged sections of the extension -------===
 *
 * Part of heapprof.  Since extension version 3, whatever a dump records
 * once per dump (not per context) rides in tagged sections after the size
 * bins:
 *
 *   u64 nsections, nsections x { u64 tag, u64 payload bytes P (a multiple
 *   of 8), P bytes of payload }
 *
 * A reader skips tags it does not know, so a new kind of data is a new tag
 * and needs no version bump; a tag's payload layout is fixed once written
 * (append fields at its end, readers take what they know).  Tags appear at
 * most once per dump, in ascending order.  The tag numbers, each with its
 * payload and its merge rule, are listed in docs/formats.md.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_EXT_SECTIONS_H
#define HEAPPROF_EXT_SECTIONS_H

#include "heapprof_internal.h"

/* The tags.  Reserved numbers are taken by work in progress; never reuse a
 * number once a runtime has written it. */
enum {
  HP_EXT_SEC_PEAK = 1,          /* the heap's peak */
  HP_EXT_SEC_OP_CLASSES = 2,    /* allocator cycles by operation class */
  HP_EXT_SEC_SYSCALLS = 3,      /* the allocator's system calls */
  HP_EXT_SEC_PMU = 4,           /* PMU events per operation */
  HP_EXT_SEC_OVERHEAD = 5,      /* memory overhead at the peak */
  HP_EXT_SEC_FALSE_SHARING = 6, /* false sharing between contexts */
  HP_EXT_SEC_UTILIZATION = 7,   /* heap-wide utilization (heapprof_util.h) */
  HP_EXT_SEC_SAMPLED = 8,       /* sampled mode's sample_bytes */
  HP_EXT_SEC_TIMELINE = 9,      /* the heap over time */
  HP_EXT_SEC_LEAKS = 10,        /* unreachable at exit (heapprof_leaks.h) */
  HP_EXT_SEC_UNLOADED = 11,     /* modules dlclose unloaded (heapprof_unloaded.h) */
  HP_EXT_SEC_STACKS = 12,       /* how stacks were taken (heapprof_stack.h) */
  HP_EXT_SEC_ALLOCATOR = 13,    /* whose allocator served (heapprof_foreign.h) */
  HP_EXT_SEC_COMMAND = 14,      /* the command line (heapprof_libc.h) */
  HP_EXT_SEC_RUN_PATH = 15,     /* the path run by, a link's (heapprof_libc.h) */
};

/* Writes the payload of one section (nothing when it has nothing to say;
 * the section is then left out). */
typedef void hp_ext_section_writer_t(hp_buf_t *b,
                                     const hp_profile_info_t *info);

/* Appends u64 nsections and the sections of this dump. */
void hp_ext_sections_write(hp_buf_t *b, const hp_profile_info_t *info);

#endif
