/*===- fuzz_scratch.h - what the file-reading fuzz targets share ----------===
 *
 * Part of heapprof.  The targets whose code under test reads files
 * (model_fuzzer, merge_fuzzer, suppressions_fuzzer) write each input into
 * a directory of their own and report a violated property the same way.
 * Define FUZZ_NAME (the target's name, a string) before including this;
 * one translation unit per target, C or C++.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_FUZZ_SCRATCH_H
#define HEAPPROF_FUZZ_SCRATCH_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Prints what failed and aborts, so that libFuzzer keeps the input as a
 * crash. */
static void fuzz_fail(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
static void fuzz_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: property violated: ", FUZZ_NAME);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n");
  abort();
}

/* Makes $TMPDIR/FUZZ_NAME.XXXXXX (/tmp without TMPDIR) into dir. The
 * target removes its files at exit (atexit): a crash leaves them, with
 * the input libFuzzer saved. */
static void fuzz_scratch_dir(char *dir, size_t size) {
  const char *t = getenv("TMPDIR");
  snprintf(dir, size, "%s/%s.XXXXXX", t && *t ? t : "/tmp", FUZZ_NAME);
  if (!mkdtemp(dir))
    fuzz_fail("cannot make a directory %s: %s", dir, strerror(errno));
}

/* For a target with one input file: NAME in a directory of its own, made
 * at the first call and removed at exit with the file. */
static char fuzz_one_dir[4096], fuzz_one_file[4200];
static void fuzz_remove_one(void) {
  unlink(fuzz_one_file);
  rmdir(fuzz_one_dir);
}
__attribute__((unused)) static const char *fuzz_scratch_file(
    const char *name) {
  if (!fuzz_one_file[0]) {
    fuzz_scratch_dir(fuzz_one_dir, sizeof(fuzz_one_dir));
    snprintf(fuzz_one_file, sizeof(fuzz_one_file), "%s/%s", fuzz_one_dir,
             name);
    atexit(fuzz_remove_one);
  }
  return fuzz_one_file;
}

/* The size bytes at data as the file path, whole. */
static void fuzz_write_file(const char *path, const uint8_t *data,
                            size_t size) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0)
    fuzz_fail("cannot write %s: %s", path, strerror(errno));
  for (size_t done = 0; done < size;) {
    ssize_t n = write(fd, data + done, size - done);
    if (n <= 0)
      fuzz_fail("cannot write %s: %s", path, strerror(errno));
    done += (size_t)n;
  }
  close(fd);
}

#endif
