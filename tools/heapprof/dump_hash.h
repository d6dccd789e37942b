/*===- dump_hash.h - the hash that tells dumps' bytes apart --------------===
 *
 * Part of heapprof's tools.  xxh3 (LLVM's) of a dump's bytes in its file:
 * how the report's loader and heapprof merge, which read every file twice
 * and hold one at a time, tell a file given twice from another process's
 * and notice a file rewritten between their passes.  Callable from C.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_DUMP_HASH_H
#define HEAPPROF_DUMP_HASH_H

#ifdef __cplusplus
extern "C" {
#endif

#include "heapprof_rawreader.h"

uint64_t hpr_dump_hash(const hpr_file_t *f, const hpr_dump_t *d);

#ifdef __cplusplus
}
#endif

#endif
