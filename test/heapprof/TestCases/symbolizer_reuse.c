// One symbolizer process serves the whole run: several text checkpoints
// and several ignored bad frees are all symbolized, and it is started once.
// RUN: %clang_rt_heapprof -O0 %s -o %t
// RUN: rm -rf %t.d && %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d:halt_on_error=0:dump_at_exit=0:verbosity=2 %run %t mixed > %t.out 2>&1
// Three checkpoints, each with the allocation stack symbolized.
// RUN: ls %t.d | count 3
// RUN: cat %t.d/*.txt | grep -c "#0 0x[0-9a-f]* in make .*symbolizer_reuse.c:" | FileCheck %s --check-prefix=THREE
// Three bad-free reports, each with the freeing function symbolized.
// RUN: grep -c "HeapProf: ERROR: invalid-free" %t.out | FileCheck %s --check-prefix=THREE
// RUN: grep -c "#0 0x[0-9a-f]* in bad_free .*symbolizer_reuse.c:" %t.out | FileCheck %s --check-prefix=THREE
// RUN: grep -c "HeapProf: started symbolizer" %t.out | FileCheck %s --check-prefix=ONE
// The symbolizer is running but is not the program's child.
// RUN: FileCheck %s --check-prefix=NOCHILD < %t.out
// NOCHILD: children: none
// THREE: 3
// ONE: 1
//
// A stand-in symbolizer that names every frame after its own pid shows it
// directly: every checkpoint and every report got their answers from the
// same process.
// RUN: echo '#!/bin/sh' > %t.loop.sh
// RUN: echo 'while read -r line; do printf "fake_%%s\nfake.c:1:1\n\n" $$; done' >> %t.loop.sh
// RUN: chmod +x %t.loop.sh
// RUN: rm -rf %t.d && %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d:halt_on_error=0:dump_at_exit=0:symbolizer_path=%t.loop.sh %run %t mixed > %t.out 2>&1
// RUN: cat %t.d/*.txt %t.out | grep -c "in fake_[0-9]* fake.c:1:1" | FileCheck %s --check-prefix=MANY
// MANY: {{[1-9][0-9]+}}
// RUN: cat %t.d/*.txt %t.out | grep -o "in fake_[0-9]*" | sort -u | count 1
//
// A symbolizer that dies after one answer is started again at the next
// dump (one frame per stack: one question per checkpoint).
// RUN: echo '#!/bin/sh' > %t.once.sh
// RUN: echo 'read -r line; printf "fake_%%s\nfake.c:1:1\n\n" $$' >> %t.once.sh
// RUN: chmod +x %t.once.sh
// RUN: rm -rf %t.d && %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d:dump_at_exit=0:malloc_context_size=1:symbolizer_path=%t.once.sh %run %t dumps
// RUN: ls %t.d | count 3
// RUN: cat %t.d/*.txt | grep -o "in fake_[0-9]*" | sort -u | count 3
//
// fork: the child does not talk to the parent's symbolizer; it starts its
// own, and the parent's keeps answering the parent.
// RUN: rm -rf %t.d && %env_heapprof_opts=print_text=1:print_raw=0:profile_dir=%t.d:dump_at_exit=0:symbolizer_path=%t.loop.sh %run %t fork
// RUN: ls %t.d | count 3
// RUN: cat %t.d/*.txt | grep -o "in fake_[0-9]*" | sort -u | count 2
// Each process kept one symbolizer: (process, symbolizer) pairs are 2 too.
// RUN: grep -o "in fake_[0-9]*" %t.d/*.txt | sed -e "s/[.][0-9]*[.]txt:/ /" | sort -u | count 2
#include <errno.h>
#include <heapprof/heapprof_interface.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char not_heap[64];

__attribute__((noinline)) void *make(void) { return malloc(40); }
__attribute__((noinline)) void bad_free(void) { free(not_heap + 8); }

int main(int argc, char **argv) {
  void *volatile p = make();
  if (!strcmp(argv[1], "fork")) {
    __heapprof_dump();
    pid_t c = fork();
    if (c == 0) {
      __heapprof_dump();
      _exit(0);
    }
    int st;
    waitpid(c, &st, 0);
    __heapprof_dump();
  } else {
    for (int i = 0; i < 3; i++) {
      __heapprof_dump();
      if (!strcmp(argv[1], "mixed"))
        bad_free();
    }
  }
  if (!strcmp(argv[1], "mixed") && waitpid(-1, NULL, WNOHANG) < 0 &&
      errno == ECHILD)
    write(2, "children: none\n", 15);
  free(p);
  return 0;
}
