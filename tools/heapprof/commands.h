//===- commands.h - heapprof's subcommands --------------------------------===//
//
// Part of heapprof.  Each command takes the arguments after its name and
// returns the exit status: 0 success, 1 bad input (one `heapprof: error:`
// line naming the file and the problem), 2 usage error.
//
//===----------------------------------------------------------------------===//
#ifndef HEAPPROF_TOOL_COMMANDS_H
#define HEAPPROF_TOOL_COMMANDS_H

#include <string>

namespace heapprof {
extern const char ShowUsage[];
extern const char FlamegraphUsage[];
int cmdFlamegraph(int Argc, char **Argv);
// Writes S to Path through Path.tmp renamed into place (stdout if Path is
// ""); on failure sets Err to one line naming the output.
bool writeOutput(const std::string &Path, const std::string &S,
                 std::string &Err);
extern const char ReportUsage[];
int cmdShow(int Argc, char **Argv);
int cmdReport(int Argc, char **Argv);
} // namespace heapprof

#endif
