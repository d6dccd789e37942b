/*===- heapprof_peak_sections.h - the peak's tagged sections ------------===
 *
 * Part of heapprof's tools.  The payloads of tag 1 (the peak) and tag 5
 * (memory overhead at the peak), field by field, as the runtime writes them
 * (compiler-rt/lib/heapprof/heapprof_peak.c; docs/formats.md).  A reader
 * takes the fields it knows by name; a shorter payload (an older runtime)
 * lacks the rest, a longer one has fields this reader does not know.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_PEAK_SECTIONS_H
#define HEAPPROF_PEAK_SECTIONS_H

#include "heapprof_rawreader.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { HPR_TAG_PEAK = 1, HPR_TAG_OVERHEAD = 5 };

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

#ifdef __cplusplus
}
#endif

#endif
