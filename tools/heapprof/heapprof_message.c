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
    if (c >= 0x20 && c != 0x7f)
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
