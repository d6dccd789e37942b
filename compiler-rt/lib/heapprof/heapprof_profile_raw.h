/*===- heapprof_profile_raw.h - MemProf raw version 4 writer ------------===
 *
 * Part of heapprof.  The profile llvm-profdata 19 reads, byte-compatible
 * with what LLVM 19's MemProf runtime writes (little-endian, packed):
 *
 *   header (48)    u64 magic 0xff6d70726f667281, u64 version 4,
 *                  u64 total size, u64 segment offset (0x30),
 *                  u64 MIB offset, u64 stack offset
 *   segments       u64 n; n x { u64 start, end, offset (load bias),
 *                  u64 build id size, u8 build id[32] }      (64 bytes each)
 *                  one per executable PT_LOAD, main program first
 *   MIBs           u64 n; n x { u64 stack id, MemInfoBlock (144 bytes,
 *                  fields of heapprof_mib_fields.inc in order) }
 *   stacks         u64 n; n x { u64 stack id, u64 k, k x u64 pc }
 *                  pcs are return address - 1, innermost first
 *
 * Every part is a multiple of 8 bytes, so there is never padding.
 *
 * heapprof's extension follows the stack section *inside* the dump (header
 * total size covers it; llvm-profdata 19 reads the sections by their
 * offsets and skips to the next dump by total size, so it never looks at
 * these bytes -- test/heapprof/Raw checks that it accepts every file):
 *
 *   u64 magic "HPEXT\0v\0" (HP_EXT_MAGIC), u64 version (HP_EXT_VERSION),
 *   u64 size of the extension in bytes, u64 dump seq, u64 dump time ms,
 *   u64 pid, u64 HIB table evictions so far, u64 nfields, u64 nrecords,
 *   nrecords x { u64 stack id, nfields x u64 }   (HP_HIB_EXT_FIELDS order)
 *   -- version 2 adds: --
 *   u64 nmodules, nmodules x { u64 load bias, u64 build id size,
 *     u8 build id[32], u64 path length L, L bytes of path (no NUL),
 *     zeros up to a multiple of 8 }          (the process map, main first)
 *   u64 nbins, nbins x { u64 size (0..1024, 1025 = larger), u64 allocs,
 *     u64 bytes, u64 frees, u64 freed bytes }  (non-empty bins, ascending)
 *   -- version 3 adds: --
 *   u64 nsections, nsections x { u64 tag, u64 payload bytes, payload }
 *     (per-dump data by tag: heapprof_ext_sections.h)
 *
 * A reader takes the first nfields it knows and skips the rest, so fields
 * can be appended without a version bump; anything else bumps the version.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_PROFILE_RAW_H
#define HEAPPROF_PROFILE_RAW_H

#define HP_MEMPROF_RAW_MAGIC 0xff6d70726f667281ull
#define HP_MEMPROF_RAW_VERSION 4ull
#define HP_MEMPROF_MIB_SIZE 144u

/* The bytes "HPEXT" 0 "v" 0 read as a little-endian u64. */
#define HP_EXT_MAGIC 0x0076005458455048ull
#define HP_EXT_VERSION 3ull

/* Appends one dump; with_ext adds heapprof's extension section (with the
 * size bins of this dump).  A streamed out (hp_buf_stream_to) is drained
 * between records, and its header patched in the file. */
void hp_profile_raw_write(hp_buf_t *out, const hp_hib_t *const *hibs, u32 n,
                          const hp_procmap_t *map, const hp_size_bins_t *bins,
                          const hp_profile_info_t *info, bool with_ext);

#endif
