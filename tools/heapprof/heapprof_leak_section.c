/*===- heapprof_leak_section.c - the leak check's tagged section --------===
 *
 * Part of heapprof's tools.  See heapprof_leak_section.h.
 *===----------------------------------------------------------------------===*/
#include "heapprof_leak_section.h"

#include <stdio.h>
#include <string.h>

const char *const hpr_leak_head_names[HPR_LEAK_HEAD_WORDS] = {
    "head_words",     "objects",         "root_bytes",
    "direct_objects", "direct_bytes",    "indirect_objects",
    "indirect_bytes", "threads_running", "row_words",
    "nrows"};

static uint64_t word_at(const hpr_section_t *s, uint64_t i) {
  uint64_t v;
  memcpy(&v, s->data + 8 * i, 8);
  return v;
}

bool hpr_leaks_check(const hpr_section_t *s, char *msg, size_t msgsize) {
  uint64_t words = s->size / 8;
  uint64_t head = words ? word_at(s, 0) : 0;
  if (head < HPR_LEAK_HEAD_WORDS) {
    snprintf(msg, msgsize,
             "the leaks section (tag 10) has a head of %llu words, fewer "
             "than its %d",
             (unsigned long long)head, HPR_LEAK_HEAD_WORDS);
    return false;
  }
  if (head > words) {
    snprintf(msg, msgsize,
             "the leaks section (tag 10) says its head has %llu words, more "
             "than its %llu bytes hold",
             (unsigned long long)head, (unsigned long long)s->size);
    return false;
  }
  uint64_t row = word_at(s, 8), n = word_at(s, 9);
  if (row < HPR_LEAK_ROW_WORDS) {
    snprintf(msg, msgsize,
             "the leaks section (tag 10) has rows of %llu words, fewer than "
             "their %d",
             (unsigned long long)row, HPR_LEAK_ROW_WORDS);
    return false;
  }
  if (n > (words - head) / row) {
    snprintf(msg, msgsize,
             "the leaks section (tag 10) says %llu rows of %llu words, more "
             "than its %llu bytes hold",
             (unsigned long long)n, (unsigned long long)row,
             (unsigned long long)s->size);
    return false;
  }
  return true;
}

hpr_leak_head_t hpr_leaks_head(const hpr_section_t *s) {
  hpr_leak_head_t h = {word_at(s, 0), word_at(s, 1), word_at(s, 2),
                       word_at(s, 3), word_at(s, 4), word_at(s, 5),
                       word_at(s, 6), word_at(s, 7), word_at(s, 8),
                       word_at(s, 9)};
  return h;
}

hpr_leak_row_t hpr_leaks_row(const hpr_section_t *s, uint64_t i) {
  uint64_t at = word_at(s, 0) + i * word_at(s, 8);
  hpr_leak_row_t r = {word_at(s, at), word_at(s, at + 1), word_at(s, at + 2),
                      word_at(s, at + 3), word_at(s, at + 4)};
  return r;
}
