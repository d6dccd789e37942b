/*===- merge_fuzzer.c - libFuzzer target for heapprof merge --------------===
 *
 * Part of heapprof.  Fuzzes `heapprof merge -o OUT A B` (heapprof_merge.c:
 * processes and checkpoints told apart, modules laid out, records merged,
 * the cost, peak, timeline, false-sharing and leak sections added up or
 * refused) as the command runs it, through heapprof_merge_main, on two
 * inputs written to files in a directory of the fuzzer's own under $TMPDIR.
 *
 * The input: a u32 (little-endian) N, then A, N bytes (or what there is),
 * then B, the rest; B empty means the merge of A alone.  An input under 4
 * bytes is A alone.
 *
 * Properties, not only the absence of crashes (the contract of
 * docs/user-guide.md: one clear error naming the input, no partial file):
 *   - the exit status is 0 or 1 (2 is a usage error: the harness's);
 *   - status 1: stderr is exactly one line "heapprof: error: " naming A,
 *     B or "the inputs" (two inputs that cannot be merged), and the
 *     directory holds A and B only: no output, no temporary file;
 *   - status 0: stderr holds nothing but "heapprof: warning:" lines, and
 *     the output is one dump that hpr_map reads and that merges again on
 *     its own (heapprof merge -o OUT2 OUT succeeds).
 * stderr is caught by pointing the stdio stream `stderr` at a memory
 * stream for the call (the tool writes its messages through stdio; ASan
 * and libFuzzer write to fd 2 and still reach the terminal).  A violated
 * property prints what failed and aborts, so libFuzzer saves the input as a
 * crash.
 *
 * Built by test/fuzz/CMakeLists.txt (-fsanitize=fuzzer,address, with
 * heapprof_merge.c and what it links: the reader, files, messages, cost,
 * peak and leak sections, and dump_hash.cpp against LLVM's shared library
 * for xxh3); seeds: pairs of real profiles written by
 * test/fuzz/Inputs/seed_program.c, joined by test/fuzz/Inputs/pair.py.
 *===----------------------------------------------------------------------===*/
#define FUZZ_NAME "merge_fuzzer"
#include "fuzz_scratch.h"
#include "heapprof_merge.h"
#include "heapprof_rawreader.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[4096], path_a[4200], path_b[4200], path_out[4200],
    path_out2[4200];

static void remove_files(void) {
  unlink(path_a);
  unlink(path_b);
  unlink(path_out);
  unlink(path_out2);
  rmdir(dir);
}

static void set_up(void) {
  fuzz_scratch_dir(dir, sizeof(dir));
  snprintf(path_a, sizeof(path_a), "%s/a.profraw", dir);
  snprintf(path_b, sizeof(path_b), "%s/b.profraw", dir);
  snprintf(path_out, sizeof(path_out), "%s/out.profraw", dir);
  snprintf(path_out2, sizeof(path_out2), "%s/out2.profraw", dir);
  atexit(remove_files);
}

/* heapprof merge with argv, its stderr in *msg (malloc'd). */
static int merge(char **argv, int argc, char **msg) {
  size_t len;
  FILE *mem = open_memstream(msg, &len);
  if (!mem)
    fuzz_fail("open_memstream: %s", strerror(errno));
  FILE *saved = stderr;
  stderr = mem;
  int rc = heapprof_merge_main(argc, argv);
  stderr = saved;
  fclose(mem);
  return rc;
}

/* The files in the directory other than a, b and (when allowed) the
 * outputs: a partial or temporary file left behind. */
static void check_dir(bool outputs) {
  DIR *d = opendir(dir);
  if (!d)
    fuzz_fail("cannot list %s: %s", dir, strerror(errno));
  struct dirent *e;
  while ((e = readdir(d))) {
    const char *n = e->d_name;
    if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, "a.profraw") ||
        !strcmp(n, "b.profraw"))
      continue;
    if (outputs && (!strcmp(n, "out.profraw") || !strcmp(n, "out2.profraw")))
      continue;
    fuzz_fail("%s is left in the directory after a merge that %s", n,
         outputs ? "succeeded" : "failed");
  }
  closedir(d);
}

static void check_only_warnings(const char *msg, const char *what) {
  for (const char *l = msg; *l;) {
    if (strncmp(l, "heapprof: warning: ", 19))
      fuzz_fail("%s succeeded with a line that is not a warning: %s", what, l);
    const char *nl = strchr(l, '\n');
    if (!nl)
      fuzz_fail("%s succeeded with a line that does not end: %s", what, l);
    l = nl + 1;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!dir[0])
    set_up();
  const uint8_t *a = data, *b = NULL;
  size_t na = size, nb = 0;
  if (size >= 4) {
    uint32_t n;
    memcpy(&n, data, 4);
    a = data + 4;
    na = n < size - 4 ? n : size - 4;
    b = a + na;
    nb = size - 4 - na;
  }
  unlink(path_out);
  unlink(path_out2);
  unlink(path_b);
  fuzz_write_file(path_a, a, na);
  if (nb)
    fuzz_write_file(path_b, b, nb);

  char *argv[] = {"-o", path_out, path_a, path_b, NULL};
  char *msg = NULL;
  int rc = merge(argv, nb ? 4 : 3, &msg);
  if (rc == 1) {
    const char *head = "heapprof: error: ";
    size_t hl = strlen(head), dl = strlen(dir);
    bool named =
        !strncmp(msg, head, hl) &&
        ((!strncmp(msg + hl, dir, dl) &&
          (!strncmp(msg + hl + dl, "/a.profraw: ", 12) ||
           (nb && !strncmp(msg + hl + dl, "/b.profraw: ", 12)))) ||
         (nb && !strncmp(msg + hl, "the inputs: ", 12)));
    if (!named)
      fuzz_fail("the error does not name an input: %s", msg);
    char *nl = strchr(msg, '\n');
    if (!nl || nl[1])
      fuzz_fail("the error is not one line: %s", msg);
    check_dir(false);
  } else if (rc == 0) {
    check_only_warnings(msg, "the merge");
    hpr_file_t f;
    char err[512];
    if (!hpr_map(path_out, &f, err, sizeof(err)))
      fuzz_fail("the merge's output does not read back: %s", err);
    if (f.ndumps != 1)
      fuzz_fail("the merge's output has %zu dumps", f.ndumps);
    hpr_free(&f);
    char *again[] = {"-o", path_out2, path_out, NULL};
    char *msg2 = NULL;
    int rc2 = merge(again, 3, &msg2);
    if (rc2 != 0)
      fuzz_fail("the merge's output does not merge on its own (exit %d): %s", rc2,
           msg2);
    check_only_warnings(msg2, "the merge of the output");
    free(msg2);
    check_dir(true);
  } else {
    fuzz_fail("exit status %d: %s", rc, msg);
  }
  free(msg);
  return 0;
}
