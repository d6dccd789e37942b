// The HTML page's heap over time ends its axis at the run's span, the
// summary's time span, as the text chart does (AllocProfiler/
// timeline-span.c); it ended at the end of the last 1 ms bucket, a ms or
// more after it.  4 blocks of 64 KiB held 30 ms, 2 freed, 30 ms more.
// REQUIRES: chromium
// RUN: rm -rf %t.d %t.chrome && mkdir -p %t.d
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report %t.d > %t.txt
// RUN: heapprof html -o %t.html %t.d
// RUN: chromium --headless --no-sandbox --disable-gpu --user-data-dir=%t.chrome \
// RUN:   --virtual-time-budget=5000 --dump-dom 'file://%t.html' > %t.dom 2>/dev/null
// RUN: grep -o '<svg id="timeline"[^>]*>' %t.dom > %t.svg
// RUN: cat %t.txt %t.svg | FileCheck %s
#include <stdlib.h>
#include <time.h>

#define BLOCK (64 << 10)
static char *volatile blocks[4];

static void pause_ms(long ms) {
  struct timespec t = {0, ms * 1000000L};
  nanosleep(&t, NULL);
}

int main(void) {
  for (int i = 0; i < 4; i++)
    blocks[i] = malloc(BLOCK);
  pause_ms(30);
  free(blocks[0]);
  free(blocks[1]);
  pause_ms(30);
  return 0;
}

// CHECK: time span [[#SPAN:]] ms (start to last dump)
// CHECK: <svg id="timeline" {{.*}} data-end-ms="[[#SPAN]]">
