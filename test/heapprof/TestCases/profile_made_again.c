// The raw profile is made again for each destination it is written to
// (streamed into each file as it is made): a dump whose profile does not
// fit in its directory's file goes to TMPDIR, made a second time.  The
// sections of what changed since the previous dump (op classes, section 2;
// system calls, section 3; PMU samples, section 4) are of the dump, not of
// the making: the second making says what the first said.  Before, the
// first making moved their "previous dump" totals on, and the profile in
// TMPDIR had no section 2 or 3 at all.
//
// Three checkpoints appended into one file (append_dumps=1), then the
// program lowers its file size limit to that file's size + 64 bytes: the
// exit dump, appended after them, passes the limit (EFBIG) as it is
// streamed; alone in TMPDIR it fits (one dump of the four, the limit is
// three of them).
// RUN: %clang_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d %t.tmp && mkdir %t.d %t.tmp
// RUN: env TMPDIR=%t.tmp %env_heapprof_opts=log_path=%t.d/p:print_raw=1:print_text=0:append_dumps=1 %run %t %t.d/p 2> %t.err
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// ERR: HeapProf: WARNING: cannot write profile '{{.*}}': file too large (the file size limit, ulimit -f); wrote it to '{{.*}}' instead
// The directory's file holds the three checkpoints, nothing of the exit dump.
// RUN: heapprof show %t.d/p.*.profraw | FileCheck %s --check-prefix=DIR
// DIR: : 3 dumps
// RUN: heapprof show %t.tmp/p.*.profraw | FileCheck %s --check-prefix=TMP
// Between the last checkpoint and exit: N = 10 mallocs of 200,000 bytes, each
// a large chunk mapped on its own (its header page and 200,000 bytes rounded
// up to pages: 50 pages, 204,800 bytes; the registry of large chunks was
// mapped by the first one, before the checkpoints), and their 10 frees, each
// unmapping its 204,800 bytes: 10 x 204,800 = 2,048,000 bytes each way.
// TMP: : 1 dump
// TMP: op classes: 2 classes
// TMP-NEXT: malloc large new serial: count=10 sampled=
// TMP-NEXT: free large - serial: count=10 sampled=
// TMP: system calls: 2 rows
// TMP-NEXT: mmap by malloc large new serial: count=10 bytes=2048000 cycles=
// TMP-NEXT: munmap by free large - serial: count=10 bytes=2048000 cycles=
#include <heapprof/heapprof_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

enum { N = 10, SIZE = 200000 };

int main(int argc, char **argv) {
  char *volatile first = malloc(SIZE);
  free(first);
  __heapprof_dump();
  __heapprof_dump();
  __heapprof_dump();
  char path[4096];
  snprintf(path, sizeof(path), "%s.%d.profraw", argv[1], (int)getpid());
  struct stat st;
  if (stat(path, &st) != 0)
    return 1;
  struct rlimit rl = {(rlim_t)st.st_size + 64, (rlim_t)st.st_size + 64};
  if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
    return 2;
  char *volatile p[N];
  for (int i = 0; i < N; i++)
    p[i] = malloc(SIZE);
  for (int i = 0; i < N; i++)
    free(p[i]);
  return 0;
}
