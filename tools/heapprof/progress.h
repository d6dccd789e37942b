//===- progress.h - progress on stderr for long reports -------------------===//
//
// Part of heapprof.  A report of a big profile can take seconds (reading,
// symbolizing); when stderr is a terminal and a step has run for over a
// second (HEAPPROF_PROGRESS_AFTER_MS=N: N ms; for the test), one line
// "heapprof: <step> <done>/<total>" is kept up to date and erased when the
// step ends.  Nothing is printed otherwise, so redirected output never
// sees it.
//
//===----------------------------------------------------------------------===//
#ifndef HEAPPROF_TOOL_PROGRESS_H
#define HEAPPROF_TOOL_PROGRESS_H

#include <chrono>
#include <cstdint>

namespace heapprof {

class Progress {
public:
  // Every: how often update() looks at the clock, a power of 2: each item
  // for steps of slow items (files), 1 in 256 for quick ones (addresses).
  Progress(const char *What, uint64_t Total, uint64_t Every = 256);
  ~Progress();
  void update(uint64_t Done) {
    if (Enabled && (Done & Mask) == 0)
      draw(Done);
  }

private:
  void draw(uint64_t Done);
  const char *What;
  uint64_t Total, Mask;
  bool Enabled, Shown = false;
  std::chrono::steady_clock::time_point Start, Last;
};

} // namespace heapprof

#endif
