/*===- heapprof_opcost.c - the allocator profiler's cost sections -------===
 *
 * Part of heapprof's tools.  See heapprof_opcost.h.
 *===----------------------------------------------------------------------===*/
#include "heapprof_opcost.h"

#include <stdlib.h>
#include <string.h>

const char *const hpo_op_names[HPO_NUM_OPS] = {
    "malloc", "calloc", "realloc", "memalign", "new", "free", "delete"};
const char *const hpo_syscall_names[HPO_NUM_SYSCALLS] = {
    "mmap", "munmap", "mremap", "madvise", "mprotect", "brk", "fault"};
const char *const hpo_pmu_event_names[HPO_NUM_PMU_EVENTS] = {
    "instructions", "cache_misses", "dtlb_misses",      "page_faults",
    "minor_faults", "major_faults", "context_switches", "task_clock_ns"};

static const char *const block_names[3] = {"-", "new", "reused"};

void hpo_class_split(uint64_t cls, unsigned *op, unsigned *large,
                     unsigned *block, unsigned *parallel) {
  *parallel = (unsigned)(cls % 2);
  *block = (unsigned)(cls / 2 % 3);
  *large = (unsigned)(cls / 6 % 2);
  *op = (unsigned)(cls / 12);
}

const char *hpo_class_name(uint64_t cls, char *buf, size_t size) {
  if (cls >= HPO_NUM_CLASSES) {
    snprintf(buf, size, "%s", cls == HPO_NUM_CLASSES ? "outside any call"
                                                     : "unknown class");
    return buf;
  }
  unsigned op, large, block, par;
  hpo_class_split(cls, &op, &large, &block, &par);
  snprintf(buf, size, "%s %s %s %s", hpo_op_names[op],
           large ? "large" : "small", block_names[block],
           par ? "parallel" : "serial");
  return buf;
}

/* Header words before nrows, key words, row width. */
static bool layout(uint64_t tag, const uint64_t *head, unsigned *nhead,
                   unsigned *nkey, uint64_t *width) {
  switch (tag) {
  case HPO_TAG_OP_CLASSES:
    *nhead = 1, *nkey = 1, *width = 4 + head[0];
    return head[0] <= 64;
  case HPO_TAG_SYSCALLS:
    *nhead = 0, *nkey = 2, *width = 5;
    return true;
  case HPO_TAG_PMU:
    *nhead = 3, *nkey = 1, *width = 2 + head[0];
    return head[0] <= 64;
  }
  return false;
}

static int cmp_key(const uint64_t *a, const uint64_t *b, unsigned nkey) {
  for (unsigned i = 0; i < nkey; i++)
    if (a[i] != b[i])
      return a[i] < b[i] ? -1 : 1;
  return 0;
}

bool hpo_decode(uint64_t tag, const uint8_t *data, uint64_t size,
                hpo_section_t *out, char *err, size_t err_size) {
  memset(out, 0, sizeof(*out));
  out->tag = tag;
  uint64_t nw = size / 8, at = 0;
  unsigned want = tag == HPO_TAG_OP_CLASSES ? 1 : tag == HPO_TAG_PMU ? 3 : 0;
  if (nw < want + 1u) {
    snprintf(err, err_size, "section %llu: %llu bytes, too short for its header",
             (unsigned long long)tag, (unsigned long long)size);
    return false;
  }
  for (unsigned i = 0; i < want; i++)
    memcpy(&out->head[i], data + 8 * at++, 8);
  if (!layout(tag, out->head, &out->nhead, &out->nkey, &out->width)) {
    snprintf(err, err_size, "section %llu: %llu buckets or events (at most 64)",
             (unsigned long long)tag, (unsigned long long)out->head[0]);
    return false;
  }
  memcpy(&out->nrows, data + 8 * at++, 8);
  if (out->nrows > (nw - at) / out->width ||
      out->nrows * out->width != nw - at) {
    snprintf(err, err_size,
             "section %llu: %llu rows of %llu words do not fill its %llu bytes",
             (unsigned long long)tag, (unsigned long long)out->nrows,
             (unsigned long long)out->width, (unsigned long long)size);
    return false;
  }
  out->rows = malloc((out->nrows ? out->nrows : 1) * out->width * 8);
  if (!out->rows) {
    snprintf(err, err_size, "out of memory");
    return false;
  }
  memcpy(out->rows, data + 8 * at, out->nrows * out->width * 8);
  for (uint64_t r = 1; r < out->nrows; r++)
    if (cmp_key(out->rows + (r - 1) * out->width, out->rows + r * out->width,
                out->nkey) >= 0) {
      snprintf(err, err_size, "section %llu: row %llu is out of key order",
               (unsigned long long)tag, (unsigned long long)r);
      hpo_free(out);
      return false;
    }
  return true;
}

static bool too_large(char *err, size_t err_size, uint64_t tag) {
  snprintf(err, err_size,
           "section %llu: its counts, with those read before it, add up to "
           "more than 2^64 - 1",
           (unsigned long long)tag);
  return false;
}

bool hpo_add(hpo_section_t *dst, const hpo_section_t *src, char *err,
             size_t err_size) {
  if (!dst->tag) {
    *dst = *src;
    dst->rows = malloc((src->nrows ? src->nrows : 1) * src->width * 8);
    if (!dst->rows) {
      snprintf(err, err_size, "out of memory");
      return false;
    }
    memcpy(dst->rows, src->rows, src->nrows * src->width * 8);
    return true;
  }
  if (dst->tag != src->tag || dst->width != src->width ||
      (dst->tag == HPO_TAG_PMU && dst->head[0] != src->head[0])) {
    snprintf(err, err_size,
             "section %llu: its layout (%llu words a row) differs from an "
             "earlier dump's (%llu)",
             (unsigned long long)src->tag, (unsigned long long)src->width,
             (unsigned long long)dst->width);
    return false;
  }
  if (dst->tag == HPO_TAG_PMU) {
    dst->head[1] |= src->head[1]; /* flags: "no hardware counters" */
    dst->head[2] |= src->head[2]; /* the events counted */
  }
  uint64_t w = dst->width, n = 0;
  uint64_t *rows = malloc((dst->nrows + src->nrows + 1) * w * 8);
  if (!rows) {
    snprintf(err, err_size, "out of memory");
    return false;
  }
  uint64_t i = 0, j = 0;
  while (i < dst->nrows || j < src->nrows) {
    const uint64_t *a = i < dst->nrows ? dst->rows + i * w : NULL;
    const uint64_t *b = j < src->nrows ? src->rows + j * w : NULL;
    int c = !a ? 1 : !b ? -1 : cmp_key(a, b, dst->nkey);
    uint64_t *o = rows + n++ * w;
    if (c < 0) {
      memcpy(o, a, w * 8), i++;
    } else if (c > 0) {
      memcpy(o, b, w * 8), j++;
    } else {
      memcpy(o, a, w * 8);
      /* Every word after the key is a count (calls, cycles, bytes,
       * events) the readers add up; a sum past 2^64 - 1 wrapped without
       * a word.  Not capped at 2^63 - 1 as the MIB's counts are
       * (HPR_MAX_COUNT): a real section 3 carries bytes above it (the
       * lengths of mappings outside any call under allocator=PATH:
       * test/heapprof/Run/allocator-jemalloc.test). */
      for (uint64_t k = dst->nkey; k < w; k++)
        if (__builtin_add_overflow(o[k], b[k], &o[k])) {
          free(rows);
          return too_large(err, err_size, dst->tag);
        }
      i++, j++;
    }
  }
  free(dst->rows);
  dst->rows = rows;
  dst->nrows = n;
  return true;
}

uint8_t *hpo_encode(const hpo_section_t *s, uint64_t *size) {
  *size = (s->nhead + 1 + s->nrows * s->width) * 8;
  uint8_t *p = malloc(*size ? *size : 1);
  if (!p)
    return NULL;
  memcpy(p, s->head, s->nhead * 8);
  memcpy(p + s->nhead * 8, &s->nrows, 8);
  memcpy(p + (s->nhead + 1) * 8, s->rows, s->nrows * s->width * 8);
  return p;
}

void hpo_free(hpo_section_t *s) {
  free(s->rows);
  s->rows = NULL;
  s->nrows = 0;
}

void hpo_print(FILE *f, const hpo_section_t *s, const char *indent) {
  char name[64];
  if (s->tag == HPO_TAG_OP_CLASSES) {
    fprintf(f, "%sop classes: %llu classes, cycle histograms in %llu log2 "
               "buckets\n",
            indent, (unsigned long long)s->nrows,
            (unsigned long long)s->head[0]);
    for (uint64_t r = 0; r < s->nrows; r++) {
      const uint64_t *x = s->rows + r * s->width;
      fprintf(f, "%s  %s: count=%llu sampled=%llu cycles=%llu", indent,
              hpo_class_name(x[0], name, sizeof(name)),
              (unsigned long long)x[1], (unsigned long long)x[2],
              (unsigned long long)x[3]);
      if (x[2]) /* rounded as the report prints it (it truncated) */
        fprintf(f, " mean=%.0f", (double)x[3] / (double)x[2]);
      fprintf(f, " hist=[");
      const char *sep = "";
      for (uint64_t b = 0; b < s->head[0]; b++)
        if (x[4 + b]) {
          fprintf(f, "%s2^%llu:%llu", sep, (unsigned long long)b,
                  (unsigned long long)x[4 + b]);
          sep = " ";
        }
      fprintf(f, "]\n");
    }
  } else if (s->tag == HPO_TAG_SYSCALLS) {
    fprintf(f, "%ssystem calls: %llu rows\n", indent,
            (unsigned long long)s->nrows);
    for (uint64_t r = 0; r < s->nrows; r++) {
      const uint64_t *x = s->rows + r * s->width;
      fprintf(f, "%s  %s by %s: count=%llu bytes=%llu cycles=%llu\n", indent,
              x[1] < HPO_NUM_SYSCALLS ? hpo_syscall_names[x[1]] : "unknown",
              hpo_class_name(x[0], name, sizeof(name)),
              (unsigned long long)x[2], (unsigned long long)x[3],
              (unsigned long long)x[4]);
    }
  } else if (s->tag == HPO_TAG_PMU) {
    fprintf(f, "%sPMU events: %s; counted:", indent,
            s->head[1] & 1 ? "no hardware counters (software events only)"
                           : "hardware counters");
    for (unsigned e = 0; e < HPO_NUM_PMU_EVENTS && e < s->head[0]; e++)
      if (s->head[2] >> e & 1)
        fprintf(f, " %s", hpo_pmu_event_names[e]);
    fprintf(f, "\n");
    for (uint64_t r = 0; r < s->nrows; r++) {
      const uint64_t *x = s->rows + r * s->width;
      fprintf(f, "%s  %s: samples=%llu", indent,
              hpo_class_name(x[0], name, sizeof(name)),
              (unsigned long long)x[1]);
      for (uint64_t e = 0; e < s->head[0]; e++)
        if (s->head[2] >> e & 1)
          fprintf(f, " %s=%llu",
                  e < HPO_NUM_PMU_EVENTS ? hpo_pmu_event_names[e] : "event",
                  (unsigned long long)x[2 + e]);
      fprintf(f, "\n");
    }
  }
}
