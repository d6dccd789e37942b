//===- progress.cpp - progress on stderr for long reports -----------------===//
//
// Part of heapprof.  See progress.h.
//
//===----------------------------------------------------------------------===//
#include "progress.h"

#include <cstdio>
#include <unistd.h>

using namespace heapprof;
using Clock = std::chrono::steady_clock;

Progress::Progress(const char *What, uint64_t Total)
    : What(What), Total(Total), Enabled(isatty(2)), Start(Clock::now()),
      Last(Start) {}

void Progress::draw(uint64_t Done) {
  auto Now = Clock::now();
  if (Now - Start < std::chrono::seconds(1) ||
      (Shown && Now - Last < std::chrono::milliseconds(100)))
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
