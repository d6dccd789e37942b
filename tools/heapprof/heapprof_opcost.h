/*===- heapprof_opcost.h - the allocator profiler's cost sections -------===
 *
 * Part of heapprof's tools.  Reads, adds up, writes and prints the tagged
 * sections 2 (op classes), 3 (system calls) and 4 (PMU events) of a raw
 * dump (layouts: docs/formats.md, "Tagged sections").  Each is a few header
 * words and rows keyed by their first word(s); adding two sections adds
 * the rows of equal keys (and ORs section 4's flag words).  C, so that
 * heapprof merge (C) and the report (C++) share it.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_TOOLS_OPCOST_H
#define HEAPPROF_TOOLS_OPCOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HPO_TAG_OP_CLASSES 2
#define HPO_TAG_SYSCALLS 3
#define HPO_TAG_PMU 4

/* The class axes (compiler-rt/lib/heapprof/heapprof_opclass.h). */
#define HPO_NUM_OPS 7
#define HPO_NUM_CLASSES (HPO_NUM_OPS * 12)
extern const char *const hpo_op_names[HPO_NUM_OPS];
/* op, large (0/1), block (0 none, 1 new, 2 reused), parallel (0/1). */
void hpo_class_split(uint64_t cls, unsigned *op, unsigned *large,
                     unsigned *block, unsigned *parallel);
/* "malloc small new serial"; class HPO_NUM_CLASSES: "outside any call". */
const char *hpo_class_name(uint64_t cls, char *buf, size_t size);

#define HPO_NUM_SYSCALLS 7
#define HPO_SYSCALL_FAULT 6 /* page faults (not a call): docs/formats.md */
extern const char *const hpo_syscall_names[HPO_NUM_SYSCALLS];
#define HPO_NUM_PMU_EVENTS 8
extern const char *const hpo_pmu_event_names[HPO_NUM_PMU_EVENTS];

/* A decoded section: nhead header words, then rows of width words of which
 * the first nkey are the key.  Owns its arrays. */
typedef struct hpo_section {
  uint64_t tag;
  uint64_t head[4];
  unsigned nhead;
  unsigned nkey;
  uint64_t width;
  uint64_t nrows;
  uint64_t *rows; /* nrows x width, ascending keys */
} hpo_section_t;

/* Decodes a tag 2, 3 or 4 payload; false with err on a malformed one. */
bool hpo_decode(uint64_t tag, const uint8_t *data, uint64_t size,
                hpo_section_t *out, char *err, size_t err_size);
/* dst += src (same tag; dst may be empty: tag 0).  false with err when the
 * layouts disagree (another bucket or event count). */
bool hpo_add(hpo_section_t *dst, const hpo_section_t *src, char *err,
             size_t err_size);
/* The payload bytes of s (malloc'd, *size bytes). */
uint8_t *hpo_encode(const hpo_section_t *s, uint64_t *size);
void hpo_free(hpo_section_t *s);
/* heapprof show's lines for the section, each starting with indent. */
void hpo_print(FILE *f, const hpo_section_t *s, const char *indent);

#ifdef __cplusplus
}
#endif

#endif
