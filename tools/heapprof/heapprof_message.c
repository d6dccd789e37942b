/*===- heapprof_message.c - one line of error or warning ----------------===
 *
 * Part of heapprof.  hpf_error (heapprof_message.h), alone in its file so
 * that bin/heapprof (`heapprof run`, which links no reader) prints its
 * errors the way every other command does.
 *===----------------------------------------------------------------------===*/
#include "heapprof_message.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned hpf_utf8_seq(const unsigned char *p) {
  unsigned n;
  unsigned char lo = 0x80, hi = 0xbf; /* the second byte's range */
  if (p[0] >= 0xc2 && p[0] <= 0xdf)
    n = 2;
  else if (p[0] >= 0xe0 && p[0] <= 0xef) {
    n = 3;
    if (p[0] == 0xe0)
      lo = 0xa0; /* overlong below */
    else if (p[0] == 0xed)
      hi = 0x9f; /* surrogates above */
  } else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
    n = 4;
    if (p[0] == 0xf0)
      lo = 0x90;
    else if (p[0] == 0xf4)
      hi = 0x8f; /* past U+10FFFF above */
  } else
    return 0;
  if (p[1] < lo || p[1] > hi)
    return 0;
  for (unsigned i = 2; i < n; i++)
    if (p[i] < 0x80 || p[i] > 0xbf)
      return 0;
  return n;
}

void hpf_error(const char *kind, const char *msg) {
  /* One buffer, one write: lines of two processes do not interleave. */
  size_t cap = strlen(kind) + 4 * strlen(msg) + 16;
  char *line = malloc(cap);
  if (!line) {
    fprintf(stderr, "heapprof: %s: %s\n", kind, msg);
    return;
  }
  size_t n = (size_t)snprintf(line, cap, "heapprof: %s: ", kind);
  for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
    unsigned char c = *p;
    unsigned seq = c >= 0x80 ? hpf_utf8_seq(p) : 0;
    if (seq == 2 && c == 0xc2 && p[1] < 0xa0) /* a C1 control */
      seq = 0;
    if (seq) {
      memcpy(line + n, p, seq);
      n += seq;
      p += seq - 1;
    } else if (c >= 0x20 && c < 0x7f)
      line[n++] = (char)c;
    else if (c == '\n' || c == '\t' || c == '\r')
      n += (size_t)snprintf(line + n, cap - n, "\\%c",
                            c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
    else
      n += (size_t)snprintf(line + n, cap - n, "\\x%02x", c);
  }
  line[n++] = '\n';
  fwrite(line, 1, n, stderr);
  free(line);
}
