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
//   heapprof help [COMMAND], heapprof --version
//
// Exit status: 0 on success, 1 when an input is unreadable or malformed
// (one line names the file and the problem), 2 on a usage error.
//
//===----------------------------------------------------------------------===//
#include "commands.h"
#include "heapprof_merge.h"

#include "llvm/Config/llvm-config.h"

#include <stdio.h>
#include <string.h>

using namespace heapprof;

static void usage(FILE *F) {
  fputs("usage: heapprof COMMAND ...\n"
        "  (heapprof help COMMAND: its options; heapprof --version)\n\n",
        F);
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

namespace {
struct Command {
  const char *Name;
  int (*Run)(int, char **);
};
} // namespace

static const Command Commands[] = {
    {"show", cmdShow},   {"report", cmdReport},
    {"diff", cmdDiff},   {"flamegraph", cmdFlamegraph},
    {"pprof", cmdPprof}, {"html", cmdHtml},
    {"run", cmdRun},     {"merge", heapprof_merge_main},
};

static const Command *find(const char *Name) {
  for (const Command &C : Commands)
    if (!strcmp(C.Name, Name))
      return &C;
  return nullptr;
}

int main(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
    printf("heapprof %s (built with LLVM %s)\n", HEAPPROF_VERSION,
           LLVM_VERSION_STRING);
    return 0;
  }
  // `heapprof help [COMMAND]`: the usage, or COMMAND's.
  if (!strcmp(argv[1], "help")) {
    if (argc == 2) {
      usage(stdout);
      return 0;
    }
    const Command *C = find(argv[2]);
    if (!C || argc > 3) {
      fprintf(stderr, "heapprof: error: help: %s\n",
              argc > 3 ? "give one command" : "no such command");
      usage(stderr);
      return 2;
    }
    char Help[] = "--help";
    char *Args[] = {Help, nullptr};
    return C->Run(1, Args);
  }
  if (const Command *C = find(argv[1]))
    return C->Run(argc - 2, argv + 2);
  fprintf(stderr, "heapprof: error: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return 2;
}
