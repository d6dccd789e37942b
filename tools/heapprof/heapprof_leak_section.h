/*===- heapprof_leak_section.h - the leak check's tagged section --------===
 *
 * Part of heapprof's tools.  The payload of tag 10, what the leak check at
 * exit found unreachable (compiler-rt/lib/heapprof/heapprof_leaks.h;
 * docs/formats.md), checked and read word by word:
 *
 *   head  u64 head_words H (10 today), objects, root_bytes,
 *         direct_objects, direct_bytes, indirect_objects, indirect_bytes,
 *         threads_running, row_words R (5 today), nrows; a longer head has
 *         words this reader does not know, and the rows start at word H
 *   rows  nrows x R words, ascending stack id: {stack id, direct_objects,
 *         direct_bytes, indirect_objects, indirect_bytes, ...}
 *
 * C, so that heapprof show and merge (C) and the report (C++) share it.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_LEAK_SECTION_H
#define HEAPPROF_LEAK_SECTION_H

#include "heapprof_rawreader.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { HPR_TAG_LEAKS = 10, HPR_LEAK_HEAD_WORDS = 10, HPR_LEAK_ROW_WORDS = 5 };

/* The head's words, by name, in order. */
extern const char *const hpr_leak_head_names[HPR_LEAK_HEAD_WORDS];

typedef struct hpr_leak_head {
  uint64_t head_words, objects, root_bytes, direct_objects, direct_bytes,
      indirect_objects, indirect_bytes, threads_running, row_words, nrows;
} hpr_leak_head_t;

typedef struct hpr_leak_row {
  uint64_t stack_id, direct_objects, direct_bytes, indirect_objects,
      indirect_bytes;
} hpr_leak_row_t;

/* False, with why in msg ("the leaks section (tag 10) ..."), unless the
 * head has at least 10 words and fits the payload, row_words is at least 5
 * and the rows fit after the head. */
bool hpr_leaks_check(const hpr_section_t *s, char *msg, size_t msgsize);
/* Of a checked section: the head's known words, and row i. */
hpr_leak_head_t hpr_leaks_head(const hpr_section_t *s);
hpr_leak_row_t hpr_leaks_row(const hpr_section_t *s, uint64_t i);

#ifdef __cplusplus
}
#endif

#endif
