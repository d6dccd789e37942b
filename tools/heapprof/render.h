//===- render.h - output forms of a report --------------------------------===//
//
// Part of heapprof.  Each output form is one file that prints a Report
// (tables.h) and the Profile behind it, and nothing else: the numbers are
// computed once, in tables.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef HEAPPROF_TOOL_RENDER_H
#define HEAPPROF_TOOL_RENDER_H

#include "tables.h"

#include <cstdint>
#include <string>

namespace llvm {
class raw_ostream;
namespace json {
class OStream;
}
} // namespace llvm

namespace heapprof {

// --format text: aligned tables in human units (render_text.cpp).
void renderText(const Report &R, llvm::raw_ostream &OS);

// --format json: one "heapprof-report" document, exact numbers
// (render_json.cpp; the format is in docs/formats.md).
constexpr unsigned JsonReportVersion = 5;
void renderJson(const Report &R, llvm::raw_ostream &OS);

// --format html (and `heapprof html`): one self-contained web page holding
// the JSON report and P's contexts for the flame graph (render_html.cpp).
void renderHtml(const Report &R, const Profile &P, llvm::raw_ostream &OS);

// The pieces other outputs (heapprof diff) print the same way:
// a size exact below 10000 bytes, then with one decimal in the largest
// unit that keeps it at least 1 ("12.3 MiB"; render_text.cpp), and one
// stack frame as a JSON object (render_json.cpp).
std::string humanBytes(uint64_t Bytes);
// A command line as a shell would take it back: each argument bare when it
// holds only safe characters, else in single quotes; a control character
// shown as '?' (render_text.cpp); other bytes as they are (pprof makes
// invalid UTF-8 U+FFFD, as the JSON and HTML do).
std::string commandText(const std::vector<std::string> &Args);
// Text from a profile as a terminal line prints it: each control
// character (C1's too) and each byte of no valid UTF-8 sequence '?', one
// byte for one; valid UTF-8 kept (render_text.cpp).
std::string terminalText(const std::string &S);
void jsonFrame(llvm::json::OStream &J, const Frame &F);

} // namespace heapprof

#endif
