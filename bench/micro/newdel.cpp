//===- newdel.cpp - C++ new/delete churn ----------------------------------===//
//
//   newdel OPS [LIVE]
//
// OPS iterations of: pick one of LIVE slots (default 4096) at random, read
// and delete the object there (one of three classes: 24, 48 and 200 bytes,
// the last an array), and put a new one of a random class in its place.
// The C++ side of sampled mode's cost (bench/sampled.sh): operator new and
// delete, not malloc and free, so a C++ program's unsampled calls are
// measured on their own path (heapprof_new_delete.c).
//===----------------------------------------------------------------------===//
#include "bench_common.h"

namespace {
struct Small { uint64_t a, b, c; };
struct Medium { uint64_t v[6]; };
struct Obj {
  int kind;
  void *p;
};

void make(Obj &o, int kind, uint64_t seed) {
  o.kind = kind;
  if (kind == 0)
    o.p = new Small{seed, seed, seed};
  else if (kind == 1)
    o.p = new Medium{{seed, seed, seed, seed, seed, seed}};
  else {
    uint64_t *a = new uint64_t[25];
    a[0] = a[24] = seed;
    o.p = a;
  }
}

uint64_t drop(Obj &o) {
  uint64_t v;
  if (o.kind == 0) {
    v = static_cast<Small *>(o.p)->c;
    delete static_cast<Small *>(o.p);
  } else if (o.kind == 1) {
    v = static_cast<Medium *>(o.p)->v[5];
    delete static_cast<Medium *>(o.p);
  } else {
    v = static_cast<uint64_t *>(o.p)[24];
    delete[] static_cast<uint64_t *>(o.p);
  }
  return v;
}
} // namespace

int main(int argc, char **argv) {
  long ops = bench_arg(argc, argv, 1, 10000000, 1, "OPS");
  long live = bench_arg(argc, argv, 2, 4096, 1, "LIVE");
  Obj *slots = static_cast<Obj *>(bench_xmalloc((size_t)live * sizeof(Obj)));
  uint64_t rng = 11, sum = 0;
  for (long i = 0; i < live; i++)
    make(slots[i], (int)bench_rng_below(&rng, 3), (uint64_t)i);
  for (long i = 0; i < ops; i++) {
    long s = (long)bench_rng_below(&rng, (uint64_t)live);
    sum = sum * 31 + drop(slots[s]);
    make(slots[s], (int)bench_rng_below(&rng, 3), (uint64_t)i);
  }
  for (long i = 0; i < live; i++)
    sum += drop(slots[i]);
  free(slots);
  bench_checksum("newdel", sum);
  return 0;
}
