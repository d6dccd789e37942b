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
extern const char ReportUsage[];
int cmdShow(int Argc, char **Argv);
int cmdReport(int Argc, char **Argv);
extern const char HtmlUsage[];
int cmdHtml(int Argc, char **Argv);
// Writes S to Path (stdout if empty) whole or not at all (temp + rename);
// false with Err = "PATH: cannot write: ..." (cmd_report.cpp).
bool writeOutput(const std::string &Path, const std::string &S,
                 std::string &Err);
} // namespace heapprof

#endif
