//===- dump_hash.cpp - the hash that tells dumps' bytes apart -----------===//
//
// Part of heapprof's tools.  See dump_hash.h.
//
//===----------------------------------------------------------------------===//
#include "dump_hash.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/xxhash.h"

uint64_t hpr_dump_hash(const hpr_file_t *f, const hpr_dump_t *d) {
  return llvm::xxh3_64bits(
      llvm::ArrayRef<uint8_t>(f->data + d->offset, d->total_size));
}
