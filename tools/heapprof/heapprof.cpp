//===- heapprof.cpp - heapprof's post-processing tool ---------------------===//
//
// Part of heapprof.
//
//   heapprof report [options] PROFILE|DIR...   symbolized tables: what is
//                                              biggest, what leaked, ...
//   heapprof diff [options] BASE NEW           what grew and shrank, per
//                                              symbolized stack
//   heapprof flamegraph [options] PROFILE|DIR...  collapsed stacks, or an
//                                              interactive SVG (--svg)
//   heapprof html -o OUT.html PROFILE|DIR...  the report as one page
//   heapprof merge -o OUT PROFILE|DIR...       raw profiles of one binary
//                                              into one (heapprof_merge.c)
//   heapprof show FILE...                      every field of raw profiles
//   heapprof pprof -o OUT.pb.gz PROFILE|DIR... for `go tool pprof`
//   heapprof run [-o DIR] -- PROG ARGS...      profile a program that was
//                                              not rebuilt (cmd_run.cpp)
//
// Exit status: 0 on success, 1 when an input is unreadable or malformed
// (one line names the file and the problem), 2 on a usage error.
//
//===----------------------------------------------------------------------===//
#include "commands.h"
#include "heapprof_merge.h"

#include <stdio.h>
#include <string.h>

using namespace heapprof;

static void usage(FILE *F) {
  fputs("usage: heapprof COMMAND ...\n\n", F);
  fputs(ReportUsage, F);
  fputs("\n", F);
  fputs(DiffUsage, F);
  fputs("\n", F);
  fputs(FlamegraphUsage, F);
  fputs("\n", F);
  fputs(HtmlUsage, F);
  fputs("\n", F);
  fputs(heapprof_merge_usage, F);
  fputs("\n", F);
  fputs(ShowUsage, F);
  fputs("\n", F);
  fputs(PprofUsage, F);
  fputs("\n", F);
  fputs(RunUsage, F);
}

int main(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (!strcmp(argv[1], "show"))
    return cmdShow(argc - 2, argv + 2);
  if (!strcmp(argv[1], "report"))
    return cmdReport(argc - 2, argv + 2);
  if (!strcmp(argv[1], "diff"))
    return cmdDiff(argc - 2, argv + 2);
  if (!strcmp(argv[1], "flamegraph"))
    return cmdFlamegraph(argc - 2, argv + 2);
  if (!strcmp(argv[1], "pprof"))
    return cmdPprof(argc - 2, argv + 2);
  if (!strcmp(argv[1], "html"))
    return cmdHtml(argc - 2, argv + 2);
  if (!strcmp(argv[1], "run"))
    return cmdRun(argc - 2, argv + 2);
  if (!strcmp(argv[1], "merge"))
    return heapprof_merge_main(argc - 2, argv + 2);
  fprintf(stderr, "heapprof: error: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return 2;
}
