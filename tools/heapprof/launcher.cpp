//===- launcher.cpp - bin/heapprof: `run` here, the rest in heapprof-tool ---===//
//
// Part of heapprof.  `heapprof run` starts the program under the preloaded
// runtime (cmd_run.cpp) from this small binary, which loads no LLVM: when
// the one heapprof binary was linked with libLLVM, `heapprof run` spent
// 55-80 ms in the dynamic loader relocating libLLVM before it could exec
// the program.  Every other command, and the usage, belongs to heapprof-tool
// (lib/heapprof/, next to the runtime: cmd_*.cpp and the rest, against
// LLVM's libraries), which this binary execs with the same arguments: same
// output, same exit status.  docs/design.md, "The heapprof tool".
//
//===----------------------------------------------------------------------===//
#include "commands.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "run"))
    return heapprof::cmdRun(argc - 2, argv + 2);
  std::string Lib = heapprof::libDir();
  if (Lib.empty()) {
    fprintf(stderr, "heapprof: error: cannot find this program's own path "
                    "(/proc/self/exe, AT_EXECFN)\n");
    return 1;
  }
  std::string Tool = Lib + "/heapprof-tool";
  execv(Tool.c_str(), argv);
  fprintf(stderr, "heapprof: error: cannot run %s: %s\n", Tool.c_str(),
          strerror(errno));
  return 1;
}
