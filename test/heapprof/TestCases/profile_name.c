// A profile is named after the program as it was run: argv[0]'s last
// component, taken at start. A multi-call binary run through a link of
// another name (Debian's redis-server is a link to redis-check-rdb) is
// named as it was called; a login shell's leading '-' goes; a program
// that rewrites its argv later (setproctitle, as nginx and Redis do) keeps
// its name; an argv[0] of "." or none falls back to the executable's name.
// Instrumented, and under heapprof run.
// RUN: rm -rf %t.d && mkdir -p %t.d/bin %t.d/p1 %t.d/p2 %t.d/p3 %t.d/p4
// RUN: %clang_heapprof -O0 %s -o %t.d/bin/multi-call
// RUN: ln -s multi-call %t.d/bin/other-name
// RUN: %env_heapprof_opts=profile_dir=%t.d/p1 %t.d/bin/other-name
// RUN: ls %t.d/p1 | FileCheck %s --check-prefix=LINK
// LINK: heapprof.other-name.{{[0-9]+}}.profraw
// RUN: env HEAPPROF_OPTIONS=profile_dir=%t.d/p2 bash -c 'exec -a -login-shell %t.d/bin/multi-call rewrite'
// RUN: ls %t.d/p2 | FileCheck %s --check-prefix=LOGIN
// LOGIN: heapprof.login-shell.{{[0-9]+}}.profraw
// RUN: env HEAPPROF_OPTIONS=profile_dir=%t.d/p3 bash -c 'exec -a . %t.d/bin/multi-call'
// RUN: ls %t.d/p3 | FileCheck %s --check-prefix=EXE
// EXE: heapprof.multi-call.{{[0-9]+}}.profraw
// RUN: %clang_plain -O0 %s -o %t.d/bin/plain
// RUN: ln -s plain %t.d/bin/plain-link
// RUN: heapprof run -o %t.d/p4 -- %t.d/bin/plain-link rewrite
// RUN: ls %t.d/p4 | FileCheck %s --check-prefix=UNDER
// UNDER: heapprof.plain-link.{{[0-9]+}}.profraw
// UNDER-NOT: plain.
#include <stdlib.h>
#include <string.h>

void *volatile keep;

int main(int argc, char **argv) {
  keep = malloc(10);
  if (argc > 1 && !strcmp(argv[1], "rewrite"))
    memset(argv[0], 'x', strlen(argv[0])); // as setproctitle does
  return 0;
}
