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

namespace llvm {
class raw_ostream;
}

namespace heapprof {

// --format text: aligned tables in human units (render_text.cpp).
void renderText(const Report &R, llvm::raw_ostream &OS);

// --format json: one "heapprof-report" document, exact numbers
// (render_json.cpp; the format is in docs/formats.md).
constexpr unsigned JsonReportVersion = 1;
void renderJson(const Report &R, llvm::raw_ostream &OS);

} // namespace heapprof

#endif
