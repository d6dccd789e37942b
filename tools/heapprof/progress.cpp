//===- progress.cpp - progress on stderr for long reports -----------------===//
//
// Part of heapprof.  See progress.h.
//
//===----------------------------------------------------------------------===//
#include "progress.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

using namespace heapprof;
using Clock = std::chrono::steady_clock;

Progress::Progress(const char *What, uint64_t Total, uint64_t Every)
    : What(What), Total(Total), Mask(Every - 1), Enabled(isatty(2)),
      Start(Clock::now()), Last(Start) {}

// How long a step runs before its progress shows: 1 s, or
// HEAPPROF_PROGRESS_AFTER_MS (for the test that checks the line on a
// terminal without a profile big enough to take a second).
static std::chrono::milliseconds showAfter() {
  static const std::chrono::milliseconds After = [] {
    const char *E = getenv("HEAPPROF_PROGRESS_AFTER_MS");
    char *End;
    long Ms = E && *E ? strtol(E, &End, 10) : -1;
    return std::chrono::milliseconds(Ms >= 0 && !*End ? Ms : 1000);
  }();
  return After;
}

void Progress::draw(uint64_t Done) {
  auto Now = Clock::now();
  // Redrawn at most every 100 ms (or the threshold, if shorter: the test's
  // 0 draws every update).
  if (Now - Start < showAfter() ||
      (Shown && Now - Last < std::min<std::chrono::milliseconds>(
                                 showAfter(), std::chrono::milliseconds(100))))
    return;
  Last = Now;
  Shown = true;
  fprintf(stderr, "\rheapprof: %s %llu/%llu", What, (unsigned long long)Done,
          (unsigned long long)Total);
  fflush(stderr);
}

Progress::~Progress() {
  if (Shown)
    fputs("\r\033[K", stderr);
}
