//===- dump_hash.cpp - the hash that tells dumps' bytes apart -----------===//
//
// Part of heapprof's tools.  See dump_hash.h.
//
//===----------------------------------------------------------------------===//
#include "dump_hash.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/xxhash.h"

#include <vector>

// A dump up to Chunk bytes: the xxh3 of its bytes.  A larger one: the
// xxh3 of its Chunk-byte pieces' xxh3s, each piece's pages given back
// once hashed when the file is mapped (hpr_map): hashing it whole made
// every page of a mapped file resident at once.
static constexpr size_t Chunk = size_t(4) << 20;

uint64_t hpr_dump_hash(const hpr_file_t *f, const hpr_dump_t *d) {
  const uint8_t *B = f->data + d->offset;
  if (d->total_size <= Chunk)
    return llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(B, d->total_size));
  std::vector<uint64_t> Pieces;
  for (uint64_t At = 0; At < d->total_size; At += Chunk) {
    size_t N = d->total_size - At < Chunk ? d->total_size - At : Chunk;
    Pieces.push_back(llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(B + At, N)));
    hpr_drop(f, B + At, N);
  }
  return llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Pieces.data()),
      Pieces.size() * sizeof(uint64_t)));
}
