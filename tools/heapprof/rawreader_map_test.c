/*===- rawreader_map_test.c - hpr_map: a profile mapped, not copied -----===
 *
 * Part of heapprof's tools (ctest).  hpr_map reads a regular file through
 * a mapping: the records read as hpr_read's do, pages given back read the
 * same again, a file truncated under the mapping reads zeros past its new
 * end instead of killing the reader with SIGBUS, and hpr_changed says the
 * file changed (shorter, or rewritten: its modification time).  An empty
 * or missing file gets hpr_read's messages.
 *===----------------------------------------------------------------------===*/
#include "heapprof_rawreader.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failures;
#define CHECK(c)                                                               \
  do {                                                                         \
    if (!(c)) {                                                                \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c);    \
      failures++;                                                              \
    }                                                                          \
  } while (0)

enum { NPCS = 2048 }; /* a stack of 16 KiB: the file spans 5 pages */

static void put(uint8_t *b, size_t *at, uint64_t v) {
  memcpy(b + *at, &v, 8);
  *at += 8;
}

/* A version 4 dump: no segment, one record (all fields 0) of stack 7, and
 * stack 7 of NPCS return addresses 0x1000 + i. */
static size_t make_profile(uint8_t *b) {
  unsigned mib = 0;
  for (unsigned f = 0; f < 27; f++)
    mib += hpr_mib_widths[f];
  size_t at = 48, seg = at;
  put(b, &at, 0); /* segments */
  size_t mibs = at;
  put(b, &at, 1);
  put(b, &at, 7);
  memset(b + at, 0, mib);
  at += mib;
  size_t stacks = at;
  put(b, &at, 1);
  put(b, &at, 7);
  put(b, &at, NPCS);
  for (uint64_t i = 0; i < NPCS; i++)
    put(b, &at, 0x1000 + i);
  size_t h = 0;
  put(b, &h, 0xff6d70726f667281ull);
  put(b, &h, 4);
  put(b, &h, at);
  put(b, &h, seg);
  put(b, &h, mibs);
  put(b, &h, stacks);
  return at;
}

static uint64_t last_pc(const hpr_file_t *f) {
  uint64_t v;
  memcpy(&v, &f->dumps[0].stacks[0].pcs[NPCS - 1], 8);
  return v;
}

int main(void) {
  char path[] = "/tmp/rawreader_map_test.XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  static uint8_t buf[NPCS * 8 + 4096];
  size_t n = make_profile(buf);
  CHECK(write(fd, buf, n) == (ssize_t)n);

  /* Read as hpr_read reads it, and the same after its pages are dropped. */
  hpr_file_t f;
  char err[256] = "";
  CHECK(hpr_map(path, &f, err, sizeof(err)));
  CHECK(f.mapped && f.ndumps == 1 && f.dumps[0].nmibs == 1 &&
        f.dumps[0].nstacks == 1 && f.dumps[0].stacks[0].n == NPCS);
  CHECK(last_pc(&f) == 0x1000 + NPCS - 1);
  hpr_drop(&f, f.data, f.size);
  CHECK(last_pc(&f) == 0x1000 + NPCS - 1);
  CHECK(!hpr_changed(&f));

  /* Truncated under the mapping: zeros past the new end, and changed. */
  CHECK(ftruncate(fd, 4096) == 0);
  CHECK(last_pc(&f) == 0);
  CHECK(hpr_changed(&f));
  hpr_free(&f);

  /* Rewritten in place, the same size: changed (its mtime). */
  CHECK(ftruncate(fd, 0) == 0 && pwrite(fd, buf, n, 0) == (ssize_t)n);
  CHECK(hpr_map(path, &f, err, sizeof(err)));
  CHECK(!hpr_changed(&f));
  struct timespec t[2] = {{0, UTIME_OMIT}, {12345, 0}};
  CHECK(futimens(fd, t) == 0);
  CHECK(hpr_changed(&f));
  hpr_free(&f);

  /* hpr_read's messages for what is not mapped. */
  CHECK(ftruncate(fd, 0) == 0);
  CHECK(!hpr_map(path, &f, err, sizeof(err)));
  CHECK(!strcmp(err, "empty file: not a raw profile"));
  hpr_free(&f);
  close(fd);
  unlink(path);
  CHECK(!hpr_map(path, &f, err, sizeof(err)));
  CHECK(!strcmp(err, "cannot open: No such file or directory"));
  hpr_free(&f);

  if (failures)
    fprintf(stderr, "rawreader_map_test: %d failed\n", failures);
  else
    printf("rawreader_map_test: ok\n");
  return failures != 0;
}
