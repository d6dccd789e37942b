// The command line a process started with (tagged section 14), as every
// output shows it: the report's summary (quoted as a shell would take it
// back), the JSON (each argument whole), heapprof show, and a merge of
// runs that agree on it.  The program is run with arguments that need
// quoting: a space, a quote, an empty one, markup.
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: rm -rf %t.d %t.e %t.m && mkdir -p %t.d %t.e %t.m
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t "two words" "it's" "" "<b>x</b>" --n=3
// RUN: heapprof report %t.d | FileCheck %s --check-prefix=TEXT
// TEXT: process {{.*}}command-line.c.tmp pid
// TEXT-NEXT: command {{.*}}command-line.c.tmp 'two words' 'it'\''s' '' '<b>x</b>' --n=3{{$}}
// RUN: heapprof report --format json %t.d | %python -c "import json,sys; p=json.load(sys.stdin)['summary']['processes'][0]; print(p['command'][1:], p['command'][0].endswith('command-line.c.tmp'), p['command_truncated'])" | FileCheck %s --check-prefix=JSON
// JSON: ['two words', "it's", '', '<b>x</b>', '--n=3'] True False
// RUN: heapprof show %t.d/*.profraw | FileCheck %s --check-prefix=SHOW
// The pprof export has it as a comment, which go tool pprof prints.
// RUN: %if go-pprof %{ heapprof pprof -o %t.pb.gz %t.d && go tool pprof -comments %t.pb.gz | FileCheck %s --check-prefix=SHOW %}
// SHOW: command: {{.*}}command-line.c.tmp 'two words' 'it'\''s' '' '<b>x</b>' --n=3{{$}}
//
// Two runs of one command merge into a profile with that command; with
// another command, the merge has none.  A report of both runs lists each
// command with its number of processes.
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t "two words" "it's" "" "<b>x</b>" --n=3
// RUN: heapprof merge -o %t.m/same.profraw %t.d
// RUN: heapprof show %t.m/same.profraw | FileCheck %s --check-prefix=SHOW
// RUN: %env_heapprof_opts=profile_dir=%t.e %run %t other
// RUN: heapprof merge -o %t.m/mixed.profraw %t.d %t.e
// RUN: heapprof show %t.m/mixed.profraw | FileCheck %s --check-prefix=MIXED
// MIXED-NOT: command:
// RUN: heapprof report %t.d %t.e | FileCheck %s --check-prefix=BOTH
// BOTH: process {{.*}}command-line.c.tmp: 3 processes
// BOTH-NEXT: command {{.*}}command-line.c.tmp 'two words' 'it'\''s' '' '<b>x</b>' --n=3 (2 processes)
// BOTH-NEXT: command {{.*}}command-line.c.tmp other (1 process){{$}}
// heapprof diff says what ran on each side (once, when the sides agree).
// RUN: heapprof diff %t.d %t.e | FileCheck %s --check-prefix=DIFF
// DIFF: == Summary (NEW minus BASE)
// DIFF-NEXT: base command: {{.*}}command-line.c.tmp 'two words' 'it'\''s' '' '<b>x</b>' --n=3{{$}}
// DIFF-NEXT: new command: {{.*}}command-line.c.tmp other{{$}}
// RUN: heapprof diff --format json %t.d %t.e | %python -c "import json,sys; d=json.load(sys.stdin); print(len(d['base_commands']), d['base_commands'][0][1:], len(d['new_commands']), d['new_commands'][0][1:])" | FileCheck %s --check-prefix=DIFFJSON
// DIFFJSON: 1 {{\[}}'two words', "it's", '', '<b>x</b>', '--n=3'] 1 {{\[}}'other']
//
// A command line over the 4 KiB the runtime keeps (the program's path and
// 300 arguments of 20 bytes, each with its NUL) keeps its first whole
// arguments: the path and (4096 - its length - 1) / 21 of the others.
// RUN: rm -rf %t.l && mkdir -p %t.l
// RUN: env HEAPPROF_OPTIONS=profile_dir=%t.l %python -c "import os,sys; p=sys.argv[1]; os.execv(p, [p] + ['x' * 20] * 300)" %t
// RUN: heapprof report --format json %t.l | %python -c "import json,sys; p=json.load(sys.stdin)['summary']['processes'][0]; c=p['command']; print(len(c) - 1 == (4096 - len(c[0]) - 1) // 21, set(c[1:]) == {'x' * 20}, p['command_truncated'])" | FileCheck %s --check-prefix=LONG
// LONG: True True True
// RUN: heapprof report %t.l | FileCheck %s --check-prefix=LONGTEXT
// LONGTEXT: command {{.*}}command-line.c.tmp xxxxxxxxxxxxxxxxxxxx {{.*}}... ({{[0-9]+}} arguments: the JSON has them whole; the first 4 KiB of a longer command line: the runtime keeps no more)
//
// Under heapprof run, the command as it started: the program writes over
// its argv[0] in main (as setproctitle does) before it allocates.
// RUN: %clang_plain -O0 -g %s -o %t.plain
// RUN: rm -rf %t.r && env -u LD_PRELOAD heapprof run -o %t.r -- %t.plain rename
// RUN: heapprof report %t.r | FileCheck %s --check-prefix=RENAMED
// RUN: %env_heapprof_opts=profile_dir=%t.r %run %t rename
// RUN: heapprof report %t.r | FileCheck %s --check-prefix=RENAMED
// RENAMED-NOT: command {{.*}}renamed
// RENAMED: command {{.*}}command-line.c.tmp{{(.plain)?}} rename
// RENAMED-NOT: command {{.*}}renamed
//
// A damaged section is refused with one line naming the file.
// RUN: %python %S/Inputs/command-section.py argc %t.m/same.profraw %t.argc.profraw
// RUN: %python %S/Inputs/command-section.py length %t.m/same.profraw %t.length.profraw
// RUN: %python %S/Inputs/command-section.py flags %t.m/same.profraw %t.flags.profraw
// RUN: not heapprof report %t.argc.profraw 2>&1 | FileCheck %s --check-prefix=BAD -DFILE=%t.argc.profraw
// RUN: not heapprof report %t.length.profraw 2>&1 | FileCheck %s --check-prefix=BAD -DFILE=%t.length.profraw
// RUN: not heapprof report %t.flags.profraw 2>&1 | FileCheck %s --check-prefix=BAD -DFILE=%t.flags.profraw
// BAD: heapprof: error: [[FILE]]: corrupt: dump 0 has a damaged command line section (tag 14)
// RUN: not heapprof merge -o %t.m/bad.profraw %t.argc.profraw 2>&1 | FileCheck %s --check-prefix=MERGE -DFILE=%t.argc.profraw
// MERGE: heapprof: error: [[FILE]]: the dump at offset 0x0 has a damaged command line section (tag 14)
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "rename")) {
    size_t n = strlen(argv[0]);
    memset(argv[0], 0, n);
    memcpy(argv[0], "renamed", n < 7 ? n : 7);
  }
  char *volatile p = malloc(16 + argc);
  free(p);
  return 0;
}
