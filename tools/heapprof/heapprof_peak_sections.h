/*===- heapprof_peak_sections.h - the peak's tagged sections ------------===
 *
 * Part of heapprof's tools.  The payloads of tag 1 (the peak) and tag 5
 * (memory overhead at the peak), field by field, as the runtime writes them
 * (compiler-rt/lib/heapprof/heapprof_peak.c; docs/formats.md), and of tag 9
 * (the heap over time, heapprof_timeline.c).  A reader
 * takes the fields it knows by name; a shorter payload (an older runtime)
 * lacks the rest, a longer one has fields this reader does not know.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_PEAK_SECTIONS_H
#define HEAPPROF_PEAK_SECTIONS_H

#include "heapprof_rawreader.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { HPR_TAG_PEAK = 1, HPR_TAG_OVERHEAD = 5, HPR_TAG_TIMELINE = 9 };

extern const char *const hpr_peak_names[];
extern const size_t hpr_num_peak_names;
extern const char *const hpr_overhead_names[];
extern const size_t hpr_num_overhead_names;

/* The field called name of section s (names: one of the lists above);
 * false when s is NULL or lacks it. */
bool hpr_section_field(const hpr_section_t *s, const char *const *names,
                       size_t nnames, const char *name, uint64_t *out);
/* Prints a section's fields as "name=value ..." (show). */
void hpr_print_section_fields(const hpr_section_t *s, const char *const *names,
                              size_t nnames);
/* Prints the first nwords words of s as " name=value", words past names
 * as " <unnamed>N=value", then a newline (show). */
void hpr_print_section_words(const hpr_section_t *s, uint64_t nwords,
                             const char *const *names, size_t nnames,
                             const char *unnamed);

/* Tag 9: u64 bucket width in ms, u64 n, n rows of u64 index (the bucket
 * covers [index x width, (index + 1) x width) ms), lowest, highest and last
 * live size in it.  False, with why in msg, unless the width is at least 1
 * ms, the rows fit the payload and their indices ascend. */
typedef struct hpr_timeline_bucket {
  uint64_t index, lowest, highest, last;
} hpr_timeline_bucket_t;
bool hpr_timeline_check(const hpr_section_t *s, char *msg, size_t msgsize);
/* Of a checked section: the width, the row count, and row i. */
uint64_t hpr_timeline_width(const hpr_section_t *s);
uint64_t hpr_timeline_count(const hpr_section_t *s);
hpr_timeline_bucket_t hpr_timeline_row(const hpr_section_t *s, uint64_t i);

#ifdef __cplusplus
}
#endif

#endif
