//===- suppressions.h - leak suppressions, LSan's format ------------------===//
//
// Part of heapprof.  `--suppressions FILE` takes the leak suppressions
// LeakSanitizer and heaptrack read: one rule a line, `leak:PATTERN`;
// blank lines and lines starting with `#` are skipped.  A pattern matches
// a string when it occurs in it, `*` standing for any run of characters,
// `^` at its start and `$` at its end anchoring it there.  A context is
// suppressed when a pattern matches the function (short or whole name),
// the source file or the module of any frame of its stack; the first rule
// that matches takes it.  The leak table leaves suppressed contexts out
// and counts, per rule, what it took.
//
//===----------------------------------------------------------------------===//
#ifndef HEAPPROF_TOOL_SUPPRESSIONS_H
#define HEAPPROF_TOOL_SUPPRESSIONS_H

#include "profile_model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace heapprof {

struct Suppression {
  std::string Pattern; // without "leak:"
  std::string Where;   // FILE:LINE
};

// Reads the rules of every file in order; false with Err ("FILE:LINE: why"
// or "FILE: cannot open: why") on the first problem.
bool loadSuppressions(const std::vector<std::string> &Paths,
                      std::vector<Suppression> &Out, std::string &Err);

// LSan's template match of Pattern against S (see above).
bool templateMatch(const std::string &Pattern, const std::string &S);

// The index of the first rule matching a frame of C, or -1.
int suppressedBy(const std::vector<Suppression> &Rules, const Profile &P,
                 const Context &C);

// Per context of P, the index of the first rule matching it when it has
// objects in Objects (leaked_objects: the leak check's memory; live_objects:
// the live table's), else -1; empty when there are no rules.
std::vector<int32_t> suppressedContexts(const std::vector<Suppression> &Rules,
                                        const Profile &P, Field Objects);

// The counts a suppressed context has none of where leaks are shown: the
// leak check's (leaked_* and indirect_*).
bool isLeakField(Field F);

// Context I's F, or 0 when F is a leak field and Suppressed (from
// suppressedContexts(..., leaked_objects)) says a rule took it.
uint64_t leakAware(const Profile &P, const std::vector<int32_t> &Suppressed,
                   size_t I, Field F);

} // namespace heapprof

#endif
