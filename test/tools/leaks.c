// heapprof report's leak table with the leak check at exit (tag 10,
// detect_leaks=1, the default): it lists what no pointer reaches, not all
// that is live.  What the program leaves live at its end:
//  - 5000 widgets of 204 bytes whose pointers it dropped: direct leaks,
//    5000 objects and 1,020,000 bytes (a widget's bytes are 0x5a: it holds
//    no pointer);
//  - 300 records of 96 bytes a global array holds: reachable, 28,800 bytes,
//    not in the table;
//  - a list of 11 nodes of 48 bytes, all from new_node, whose head it
//    dropped: the head is a direct leak (48 bytes), the 10 nodes behind it
//    indirect ones (480 bytes): one row of 11 objects, 528 bytes, 480 of
//    them indirect;
//  - 100 scratch blocks of 72 bytes, freed: not live at all.
// Live at exit: 5311 objects, 1,049,328 bytes; unreachable 5011 objects,
// 1,020,528 bytes (direct 5001 objects, 1,020,048 bytes; indirect 10, 480).
// The list is made in a function whose frame clobber() then overwrites, so
// no stale copy of the head is left on the stack the check reads.
//
// RUN: %clang_heapprof -O0 -g %s -o %t -lpthread
// RUN: rm -rf %t.d %t.off %t.two %t.cp %t.th %t.m %t.keep
// RUN: mkdir -p %t.d %t.off %t.two %t.cp %t.th %t.m %t.keep
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report %t.d | FileCheck %s
// 1,020,000 B = 996.1 KiB, 99.9% of the 1,020,528 unreachable bytes; the
// list's 528 B the other 0.1%.  Reachable: the 300 records.
// CHECK: == Memory leaks: unreachable at exit, by allocation site and 2 callers
// CHECK-NEXT: bytes % objects direct indirect call chain
// CHECK-NEXT: 996.1 KiB 99.9% 5000 996.1 KiB 0 B make_widget ({{.*}}leaks.c:{{[0-9:]+}}) <- main ({{.*}}leaks.c:{{[0-9:]+}}){{$}}
// CHECK-NEXT: 528 B 0.1% 11 48 B 480 B new_node ({{.*}}leaks.c:{{[0-9:]+}}) <- make_list ({{.*}}) <- main ({{.*}}){{$}}
// CHECK-NEXT: (still reachable at exit, not listed: 28800 bytes (28.1 KiB) in 300 objects; --leaks=live lists all live memory)
// CHECK-EMPTY:
// CHECK-NEXT: == Allocation bins
// RUN: heapprof report --format json --top 0 %t.d > %t.json
// RUN: %python %S/Inputs/check-leaks-json.py unreachable 1 %t.json
//
// --leaks=live: today's table of everything live at the end; the leak check
// is still in the JSON.  1,020,000 of 1,049,328 live bytes is 97.2%, the
// records' 28,800 2.7%, the list's 528 0.1%.
// RUN: heapprof report --leaks=live %t.d | FileCheck %s --check-prefix=LIVE
// LIVE: == Memory leaks: live at the end, by allocation site and 2 callers
// LIVE-NEXT: bytes % objects call chain
// LIVE-NEXT: 996.1 KiB 97.2% 5000 make_widget ({{.*}}) <- main ({{.*}}){{$}}
// LIVE-NEXT: 28.1 KiB 2.7% 300 keep_record ({{.*}}) <- main ({{.*}}){{$}}
// LIVE-NEXT: 528 B 0.1% 11 new_node ({{.*}}) <- make_list ({{.*}}) <- main ({{.*}}){{$}}
// LIVE-EMPTY:
// RUN: heapprof report --leaks live --format json --top 0 %t.d > %t.live.json
// RUN: %python %S/Inputs/check-leaks-json.py live 1 %t.live.json
// RUN: not heapprof report --leaks=all %t.d 2>&1 | FileCheck %s --check-prefix=BADVIEW
// BADVIEW: heapprof: error: --leaks: unknown leak table 'all' (unreachable or live)
//
// detect_leaks=0: no section 10, and the report is today's, word for word.
// RUN: %env_heapprof_opts=profile_dir=%t.off:detect_leaks=0 %run %t
// RUN: heapprof report %t.off | FileCheck %s --check-prefix=LIVE
// RUN: heapprof report --format json --top 0 %t.off > %t.off.json
// RUN: %python %S/Inputs/check-leaks-json.py off 1 %t.off.json
// Asking for the unreachable table of it says why there is none.
// RUN: heapprof report --leaks=unreachable %t.off | FileCheck %s --check-prefix=NOCHECK
// NOCHECK: == Memory leaks: unreachable at exit, by allocation site and 2 callers
// NOCHECK-NEXT: (the profile lacks the leak check at exit (tag 10): the runtime checks at exit, so a process whose last dump is a checkpoint has none, nor one run with detect_leaks=0 or by an older heapprof runtime)
// RUN: heapprof show %t.off/*.profraw | FileCheck %s --check-prefix=SHOWOFF
// SHOWOFF-NOT: leaks:
//
// heapprof show: the head's words by name, a line per context.  The head
// is the sums above; root_bytes, the globals, stacks and TLS scanned, hold
// at least the array's 300 words.
// RUN: heapprof show %t.d/*.profraw | FileCheck %s --check-prefix=SHOW
// SHOW: leaks: head_words=10 objects=5311 root_bytes={{[0-9]+}} direct_objects=5001 direct_bytes=1020048 indirect_objects=10 indirect_bytes=480 threads_running=0 row_words=5 nrows=2{{$}}
// SHOW-DAG: stack id {{[0-9]+}}: direct_objects=5000 direct_bytes=1020000 indirect_objects=0 indirect_bytes=0{{$}}
// SHOW-DAG: stack id {{[0-9]+}}: direct_objects=1 direct_bytes=48 indirect_objects=10 indirect_bytes=480{{$}}
// RUN: heapprof show %t.d/*.profraw | %python -c "import re,sys; n=int(re.search(r'root_bytes=(\d+)', sys.stdin.read()).group(1)); print('roots', n >= 300 * 8)" | FileCheck %s --check-prefix=ROOTS
// ROOTS: roots True
//
// --suppressions take contexts out of the unreachable table as out of the
// live one; the reachable line stays.
// RUN: printf 'leak:make_widget\n' > %t.supp
// RUN: heapprof report --suppressions %t.supp %t.d | FileCheck %s --check-prefix=SUPP
// SUPP: == Memory leaks: unreachable at exit
// SUPP-NEXT: bytes % objects direct indirect call chain
// SUPP-NEXT: 528 B 100.0% 11 48 B 480 B new_node (
// SUPP-NEXT: (still reachable at exit, not listed: 28800 bytes (28.1 KiB) in 300 objects; --leaks=live lists all live memory)
// SUPP-NEXT: suppressed (--suppressions):
// SUPP-NEXT: bytes objects contexts rule
// SUPP-NEXT: 996.1 KiB 5000 1 leak:make_widget ({{.*}}.supp:1)
// RUN: printf 'leak:make_widget\nleak:new_node\n' > %t.supp2
// RUN: heapprof report --suppressions %t.supp2 %t.d | FileCheck %s --check-prefix=SUPPALL
// SUPPALL: == Memory leaks: unreachable at exit
// SUPPALL-NEXT: (everything unreachable at exit was suppressed)
// SUPPALL-NEXT: (still reachable at exit, not listed: 28800 bytes
// SUPPALL-NEXT: suppressed (--suppressions):
// SUPPALL-NEXT: bytes objects contexts rule
// SUPPALL-NEXT: 996.1 KiB 5000 1 leak:make_widget
// SUPPALL-NEXT: 528 B 11 1 leak:new_node
//
// Nothing unreachable: a run that holds everything in globals says so,
// and everything live is reachable (1,049,328 B = 1.0 MiB).
// RUN: %env_heapprof_opts=profile_dir=%t.keep %run %t keep
// RUN: heapprof report %t.keep | FileCheck %s --check-prefix=NONE
// NONE: == Memory leaks: unreachable at exit
// NONE-NEXT: (no object was unreachable at exit)
// NONE-NEXT: (still reachable at exit, not listed: 1049328 bytes (1.0 MiB) in 5311 objects; --leaks=live lists all live memory)
// NONE-EMPTY:
//
// A thread still running at the check: its registers were not read, and
// the report says what that means.  (Its stack and TLS were: glibc's
// vector of its TLS blocks, callocated for it, is reachable.)
// RUN: %env_heapprof_opts=profile_dir=%t.th %run %t thread
// RUN: heapprof report %t.th | FileCheck %s --check-prefix=THREAD
// THREAD: == Memory leaks: unreachable at exit
// THREAD-NEXT: bytes % objects direct indirect call chain
// THREAD-NEXT: 996.1 KiB {{.*}} 5000 996.1 KiB 0 B make_widget
// THREAD-NEXT: 528 B {{.*}} 11 48 B 480 B new_node
// THREAD-NEXT: (still reachable at exit, not listed:
// THREAD-NEXT: (1 other thread was running at the check: an object only its registers held is counted as leaked)
//
// Two runs: the report of both, and of their merge, add up.
// RUN: %env_heapprof_opts=profile_dir=%t.two %run %t
// RUN: %env_heapprof_opts=profile_dir=%t.two %run %t
// RUN: heapprof report --format json --top 0 %t.two > %t.two.json
// RUN: %python %S/Inputs/check-leaks-json.py unreachable 2 %t.two.json
// RUN: heapprof merge -o %t.m/merged.profraw %t.two
// RUN: heapprof show %t.m/merged.profraw | FileCheck %s --check-prefix=MERGED
// MERGED: leaks: head_words=10 objects=10622 root_bytes={{[0-9]+}} direct_objects=10002 direct_bytes=2040096 indirect_objects=20 indirect_bytes=960 threads_running=0 row_words=5 nrows=2{{$}}
// MERGED-DAG: stack id {{[0-9]+}}: direct_objects=10000 direct_bytes=2040000 indirect_objects=0 indirect_bytes=0{{$}}
// MERGED-DAG: stack id {{[0-9]+}}: direct_objects=2 direct_bytes=96 indirect_objects=20 indirect_bytes=960{{$}}
// RUN: heapprof report --format json --top 0 %t.m/merged.profraw > %t.m.json
// RUN: %python %S/Inputs/check-leaks-json.py unreachable 2 %t.m.json
// 2,040,000 B = 1.9 MiB.
// RUN: heapprof report %t.m/merged.profraw | FileCheck %s --check-prefix=MERGEDTEXT
// MERGEDTEXT: == Memory leaks: unreachable at exit
// MERGEDTEXT-NEXT: bytes % objects direct indirect call chain
// MERGEDTEXT-NEXT: 1.9 MiB 99.9% 10000 1.9 MiB 0 B make_widget (
// MERGEDTEXT-NEXT: 1056 B 0.1% 22 96 B 960 B new_node (
// MERGEDTEXT-NEXT: (still reachable at exit, not listed: 57600 bytes (56.2 KiB) in 600 objects;
// A process without the check makes the merge's leak check unknown: the
// section is left out (the other's live memory would read as reachable)
// and the report lists what is live.
// RUN: heapprof merge -o %t.m/mixed.profraw %t.d %t.off
// RUN: heapprof show %t.m/mixed.profraw | FileCheck %s --check-prefix=SHOWOFF
// RUN: heapprof report %t.m/mixed.profraw | FileCheck %s --check-prefix=MIXED
// RUN: heapprof report %t.d %t.off | FileCheck %s --check-prefix=MIXED
// MIXED: == Memory leaks: live at the end, by allocation site and 2 callers
// MIXED-NEXT: bytes % objects call chain
// MIXED-NEXT: 1.9 MiB 97.2% 10000 make_widget (
//
// A checkpoint's dump has no leak check (it runs at exit): the checkpoint
// read alone gets today's table; with the exit dump, the unreachable one.
// RUN: %env_heapprof_opts=profile_dir=%t.cp %run %t checkpoint
// RUN: heapprof report %t.cp/heapprof.*.1.profraw | FileCheck %s --check-prefix=LIVE
// RUN: heapprof report %t.cp | FileCheck %s
//
// The flame graph of unreachable bytes: the two leaking stacks only.
// RUN: heapprof flamegraph --weight leaked %t.d | FileCheck %s --check-prefix=FLAME --implicit-check-not=keep_record
// FLAME: main;make_list;new_node 528
// FLAME-NEXT: main;make_widget 1020000
// RUN: not heapprof flamegraph --weight leaked %t.off 2>&1 | FileCheck %s --check-prefix=FLAMEOFF
// FLAMEOFF: heapprof: error: {{.*}}: the profile does not record leaked bytes (field leaked_bytes)
//
// A damaged section 10 is refused with one error naming the file, by report
// and by merge (which writes nothing): a head under 10 words, rows under 5
// words, more rows than the payload holds, a row for a stack no record has.
// RUN: %python %S/Inputs/leak-section.py head %t.d/heapprof.*.profraw %t.head.profraw
// RUN: %python %S/Inputs/leak-section.py row-words %t.d/heapprof.*.profraw %t.row.profraw
// RUN: %python %S/Inputs/leak-section.py rows %t.d/heapprof.*.profraw %t.rows.profraw
// RUN: %python %S/Inputs/leak-section.py stack-id %t.d/heapprof.*.profraw %t.id.profraw
// RUN: not heapprof report %t.head.profraw 2>&1 | FileCheck %s --check-prefix=BADHEAD -DFILE=%t.head.profraw
// BADHEAD: heapprof: error: [[FILE]]: corrupt: dump 0: the leaks section (tag 10) has a head of 9 words, fewer than its 10
// BADHEAD-NOT: error
// RUN: not heapprof report %t.row.profraw 2>&1 | FileCheck %s --check-prefix=BADROW -DFILE=%t.row.profraw
// BADROW: heapprof: error: [[FILE]]: corrupt: dump 0: the leaks section (tag 10) has rows of 4 words, fewer than their 5
// RUN: not heapprof report %t.rows.profraw 2>&1 | FileCheck %s --check-prefix=BADROWS -DFILE=%t.rows.profraw
// BADROWS: heapprof: error: [[FILE]]: corrupt: dump 0: the leaks section (tag 10) says 1000000 rows of 5 words, more than its 160 bytes hold
// RUN: not heapprof report %t.id.profraw 2>&1 | FileCheck %s --check-prefix=BADID -DFILE=%t.id.profraw
// BADID: heapprof: error: [[FILE]]: corrupt: dump 0: the leaks section (tag 10) has a row for stack id 12345678, which no record of its process has
// RUN: not heapprof merge -o %t.m/bad.profraw %t.head.profraw 2>&1 | FileCheck %s --check-prefix=MERGEHEAD -DFILE=%t.head.profraw
// MERGEHEAD: heapprof: error: [[FILE]]: the dump at offset 0x0: the leaks section (tag 10) has a head of 9 words, fewer than its 10
// RUN: not heapprof merge -o %t.m/bad.profraw %t.rows.profraw 2>&1 | FileCheck %s --check-prefix=MERGEROWS -DFILE=%t.rows.profraw
// MERGEROWS: heapprof: error: [[FILE]]: the dump at offset 0x0: the leaks section (tag 10) says 1000000 rows
// RUN: not heapprof merge -o %t.m/bad.profraw %t.id.profraw 2>&1 | FileCheck %s --check-prefix=MERGEID -DFILE=%t.id.profraw
// MERGEID: heapprof: error: [[FILE]]: the dump at offset 0x0: the leaks section (tag 10) has a row for stack id 12345678, which no record of its process has
// RUN: test ! -e %t.m/bad.profraw
// show prints a damaged section word by word with what is wrong.
// RUN: heapprof show %t.rows.profraw | FileCheck %s --check-prefix=SHOWBAD
// SHOWBAD: section tag 10, 160 bytes (malformed: the leaks section (tag 10) says 1000000 rows of 5 words, more than its 160 bytes hold): 10 5311
#include <heapprof/heapprof_interface.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NWIDGETS = 5000, WIDGET = 204, NKEPT = 300, RECORD = 96, NLIST = 11 };

struct node { // 48 bytes
  struct node *next;
  char pad[40];
};

static void *kept[NKEPT]; // a root: the records are reachable
// With "keep": the widgets and the list held too.
static void *kept_widgets[NWIDGETS];
static struct node *kept_list;

__attribute__((noinline)) static void *make_widget(void) {
  char *w = malloc(WIDGET);
  memset(w, 0x5a, WIDGET);
  return w;
}

__attribute__((noinline)) static void *keep_record(void) {
  return calloc(1, RECORD);
}

__attribute__((noinline)) static struct node *new_node(struct node *next) {
  struct node *n = calloc(1, sizeof *n);
  n->next = next;
  return n;
}

// NLIST nodes, each pointing to the one made before; returns the head.
__attribute__((noinline)) static struct node *make_list(void) {
  struct node *head = NULL;
  for (int i = 0; i < NLIST; i++)
    head = new_node(head);
  return head;
}

__attribute__((noinline)) static void scratch(void) {
  char *volatile s = malloc(72);
  free(s);
}

// Overwrites the stack below main's frame, where the frames above were.
#include "../heapprof/Inputs/clobber.h"

static pthread_barrier_t started;

static void *wait_forever(void *arg) {
  pthread_barrier_wait(&started);
  for (;;)
    pause();
  return arg;
}

// The pointers to what leaks are never stored in main's frame: its slots
// would be left on the stack under the frames of exit, which the check
// reads (a stale word there keeps its object reachable).
int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "";
  int keep = !strcmp(how, "keep"); // hold everything: nothing leaks
  for (int i = 0; i < NWIDGETS; i++)
    if (keep)
      kept_widgets[i] = make_widget();
    else
      make_widget();
  for (int i = 0; i < NKEPT; i++)
    kept[i] = keep_record();
  if (keep)
    kept_list = make_list();
  else
    make_list();
  for (int i = 0; i < 100; i++)
    scratch();
  clobber();
  if (!strcmp(how, "thread")) { // running when main returns
    pthread_t t;
    pthread_barrier_init(&started, NULL, 2);
    pthread_create(&t, NULL, wait_forever, NULL);
    pthread_barrier_wait(&started);
  }
  if (!strcmp(how, "checkpoint"))
    __heapprof_dump();
  return 0;
}
