// A program that takes checkpoints where heapprof is there and runs as
// usual where it is not declares __heapprof_dump weak and calls it only if
// it is defined: built plain and run alone, it runs without one; under
// heapprof run, the preloaded runtime defines it; built with -fheapprof,
// the runtime linked in does.  10 objects of 100 bytes live at the
// checkpoint, 20 of 200 bytes allocated after it: checkpoint 1 is 10
// objects and 1000 bytes, the whole run 30 objects and 5000 bytes.
// RUN: %clang_plain -O1 %s -o %t.plain
// RUN: %run %t.plain | FileCheck %s --check-prefix=ALONE
// ALONE: checkpoint: none
// RUN: rm -rf %t.d && heapprof run -o %t.d -- %t.plain | FileCheck %s --check-prefix=TAKEN
// RUN: heapprof report %t.d@1 | FileCheck %s --check-prefix=FIRST
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=WHOLE
// RUN: %clang_heapprof -O1 %s -o %t
// RUN: rm -rf %t.i && %env_heapprof_opts=profile_dir=%t.i %run %t | FileCheck %s --check-prefix=TAKEN
// RUN: heapprof report %t.i@1 | FileCheck %s --check-prefix=FIRST
// RUN: heapprof report %t.i | FileCheck %s --check-prefix=WHOLE
// TAKEN: checkpoint: written
// FIRST: allocations 10 objects, 1000 bytes
// WHOLE: allocations 30 objects, 5000 bytes
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int __heapprof_dump(void) __attribute__((weak));

/* Not stdio, whose buffer would be one more object. */
static void say(const char *s) { write(1, s, strlen(s)); }

void *keep[30];

int main(void) {
  for (int i = 0; i < 10; i++)
    keep[i] = malloc(100);
  if (!__heapprof_dump)
    say("checkpoint: none\n");
  else if (__heapprof_dump() == 0)
    say("checkpoint: written\n");
  for (int i = 10; i < 30; i++)
    keep[i] = malloc(200);
  return 0;
}
