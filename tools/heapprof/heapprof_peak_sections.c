/*===- heapprof_peak_sections.c - the peak's tagged sections ------------===
 *
 * Part of heapprof's tools.  See heapprof_peak_sections.h.
 *===----------------------------------------------------------------------===*/
#include "heapprof_peak_sections.h"

#include <stdio.h>
#include <string.h>

const char *const hpr_peak_names[] = {
    "peak_bytes", "peak_block_bytes", "peak_objects", "peak_ms",
    "peak_contexts", "threshold_bytes", "snapshots"};
const size_t hpr_num_peak_names =
    sizeof(hpr_peak_names) / sizeof(hpr_peak_names[0]);

/* heapprof_peak.c's HP_OVERHEAD_FIELDS, in order. */
const char *const hpr_overhead_names[] = {
    "requested_bytes", "block_bytes",     "header_bytes",
    "heap_mapped",     "heap_resident",   "primary_carved",
    "large_mapped",    "thread_cached",   "free_listed",
    "blowup",          "shadow_mapped",   "shadow_resident",
    "depot_bytes",     "hib_table_bytes", "thread_state_bytes",
    "free_index_bytes", "peak_table_bytes", "process_rss",
    "threads",          "touched_lines",   "touched_line_live_bytes",
    "touched_pages",    "touched_page_live_bytes"};
const size_t hpr_num_overhead_names =
    sizeof(hpr_overhead_names) / sizeof(hpr_overhead_names[0]);

bool hpr_section_field(const hpr_section_t *s, const char *const *names,
                       size_t nnames, const char *name, uint64_t *out) {
  if (!s)
    return false;
  for (size_t i = 0; i < nnames; i++) {
    if (strcmp(names[i], name))
      continue;
    if ((i + 1) * 8 > s->size)
      return false;
    memcpy(out, s->data + 8 * i, 8);
    return true;
  }
  return false;
}

void hpr_print_section_words(const hpr_section_t *s, uint64_t nwords,
                             const char *const *names, size_t nnames,
                             const char *unnamed) {
  for (uint64_t w = 0; w < nwords && w < s->size / 8; w++) {
    uint64_t v;
    memcpy(&v, s->data + 8 * w, 8);
    if (w < nnames)
      printf(" %s=%llu", names[w], (unsigned long long)v);
    else
      printf(" %s%llu=%llu", unnamed, (unsigned long long)w,
             (unsigned long long)v);
  }
  printf("\n");
}

void hpr_print_section_fields(const hpr_section_t *s, const char *const *names,
                              size_t nnames) {
  hpr_print_section_words(s, s->size / 8, names, nnames, "field");
}

/* ------------------------------------------------------------ tag 9 */

static uint64_t word_at(const hpr_section_t *s, uint64_t i) {
  uint64_t v;
  memcpy(&v, s->data + 8 * i, 8);
  return v;
}

bool hpr_timeline_check(const hpr_section_t *s, char *msg, size_t msgsize) {
  if (s->size < 16) {
    snprintf(msg, msgsize,
             "the timeline section (tag 9) has %llu bytes, less than its "
             "header's 16",
             (unsigned long long)s->size);
    return false;
  }
  uint64_t width = word_at(s, 0), n = word_at(s, 1);
  if (!width || width > UINT32_MAX) {
    snprintf(msg, msgsize,
             "the timeline section (tag 9) has buckets of %llu ms",
             (unsigned long long)width);
    return false;
  }
  if (n > (s->size - 16) / 32) {
    snprintf(msg, msgsize,
             "the timeline section (tag 9) says %llu buckets, more than its "
             "%llu bytes hold",
             (unsigned long long)n, (unsigned long long)s->size);
    return false;
  }
  for (uint64_t i = 0; i < n; i++)
    if (word_at(s, 2 + 4 * i) > UINT32_MAX ||
        (i && word_at(s, 2 + 4 * i) <= word_at(s, 2 + 4 * (i - 1)))) {
      snprintf(msg, msgsize,
               "the timeline section (tag 9) has its bucket %llu out of "
               "order or past 2^32",
               (unsigned long long)i);
      return false;
    }
  return true;
}

uint64_t hpr_timeline_width(const hpr_section_t *s) { return word_at(s, 0); }
uint64_t hpr_timeline_count(const hpr_section_t *s) { return word_at(s, 1); }

hpr_timeline_bucket_t hpr_timeline_row(const hpr_section_t *s, uint64_t i) {
  hpr_timeline_bucket_t b = {word_at(s, 2 + 4 * i), word_at(s, 3 + 4 * i),
                             word_at(s, 4 + 4 * i), word_at(s, 5 + 4 * i)};
  return b;
}
