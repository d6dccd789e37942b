// A profile directory with names planted in it: symbolic links at the old
// fixed temporary name (NAME.tmp) and at the final name, or a hard link at
// the final name.  Nothing outside the directory changes, and nothing of
// the planted targets gets into any profile or onto stderr.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d %t.secret* && mkdir %t.d
// RUN: echo SECRET-ONE > %t.secret1 && cp %t.secret1 %t.secret1.orig
// RUN: echo SECRET-TWO > %t.secret2 && cp %t.secret2 %t.secret2.orig
//
// Without append_dumps: checkpoint 1's final name and its old temporary
// name are links to the secrets.  The temporary file has a fresh name, and
// the rename replaces the link itself: the secrets are untouched and the
// profile is a regular file.
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d %run %t %t.d symlink %t.secret1 %t.secret2 2>&1 | FileCheck %s --check-prefix=REPLACE
// REPLACE: dump returned 0
// REPLACE-NOT: WARNING
// REPLACE-NOT: SECRET
// RUN: cmp %t.secret1 %t.secret1.orig && cmp %t.secret2 %t.secret2.orig
// RUN: test -f %t.d/heapprof.symlinks.c.tmp.*.1.txt && not test -L %t.d/heapprof.symlinks.c.tmp.*.1.txt
// RUN: cat %t.d/heapprof.symlinks.c.tmp.*.1.txt | FileCheck %s --check-prefix=PROFILE
// PROFILE: HeapProf profile: {{.*}}, checkpoint, dump 1
// PROFILE-NOT: SECRET
// PROFILE: Summary: 1 contexts, 1 allocations, 77 bytes
// PROFILE-NOT: SECRET
//
// append_dumps=1 reads the old file before replacing it: a symbolic link
// there is refused (both dumps go to stderr instead, with the reason) and
// never read.
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:append_dumps=1:profile_dir=%t.d %run %t %t.d symlink-append %t.secret1 %t.secret2 > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=APPEND < %t.out
// APPEND: HeapProf: WARNING: cannot write profile '{{.*}}/heapprof.symlinks.c.tmp.{{[0-9]+}}.txt': it is a symbolic link (append_dumps reads the file before replacing it); writing it to stderr instead
// APPEND-NEXT: HeapProf profile: {{.*}}, checkpoint, dump 1
// APPEND: dump returned -1
// APPEND: HeapProf: WARNING: cannot write profile '{{.*}}': it is a symbolic link
// APPEND-NEXT: HeapProf profile: {{.*}}, exit, dump 0
// RUN: not grep SECRET %t.out
// RUN: cmp %t.secret1 %t.secret1.orig && cmp %t.secret2 %t.secret2.orig
// RUN: test -L %t.d/heapprof.symlinks.c.tmp.*[0-9].txt
//
// A hard link to a file of the same owner at the final name: refused too.
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:append_dumps=1:profile_dir=%t.d %run %t %t.d hardlink-append %t.secret1 %t.secret2 > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=HARD < %t.out
// HARD: HeapProf: WARNING: cannot write profile '{{.*}}.txt': it has 2 hard links; writing it to stderr instead
// RUN: not grep SECRET %t.out
// RUN: cmp %t.secret1 %t.secret1.orig && cmp %t.secret2 %t.secret2.orig
//
// A FIFO at the final name: refused without blocking on it.
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %env_heapprof_opts=print_text=1:print_raw=0:append_dumps=1:profile_dir=%t.d %run %t %t.d fifo-append %t.secret1 %t.secret2 2>&1 | FileCheck %s --check-prefix=FIFO
// FIFO: HeapProf: WARNING: cannot write profile '{{.*}}.txt': it is not a regular file; writing it to stderr instead
// FIFO: dump returned -1
#include <heapprof/heapprof_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

__attribute__((noinline)) void *make(void) { return malloc(77); }

// The runtime names profiles after /proc/self/exe's base name.
static const char *exe_name(void) {
  static char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  buf[n > 0 ? n : 0] = 0;
  const char *s = strrchr(buf, '/');
  return s ? s + 1 : buf;
}

int main(int argc, char **argv) {
  const char *dir = argv[1], *how = argv[2], *s1 = argv[3], *s2 = argv[4];
  int append = strstr(how, "append") != NULL;
  char final[8192], tmp[8300];
  // append_dumps writes every dump to the one file without a sequence number.
  snprintf(final, sizeof(final), "%s/heapprof.%s.%d%s.txt", dir, exe_name(),
           (int)getpid(), append ? "" : ".1");
  snprintf(tmp, sizeof(tmp), "%s.tmp", final);
  if (!strncmp(how, "fifo", 4)) {
    if (mkfifo(final, 0600))
      return perror("mkfifo"), 2;
  } else if (!strncmp(how, "hardlink", 8)) {
    if (link(s1, final))
      return perror("link"), 2;
  } else if (symlink(s1, final)) {
    return perror("symlink"), 2;
  }
  if (symlink(s2, tmp))
    return perror("symlink"), 2;
  void *volatile p = make();
  fprintf(stderr, "dump returned %d\n", __heapprof_dump());
  free(p);
  return 0;
}
