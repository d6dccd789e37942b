/*===- heapprof_syscalls.c - the allocator's system calls ---------------===
 *
 * Part of heapprof.  See heapprof_syscalls.h.  Section 3:
 *
 *   u64 nrows, nrows x { u64 class, syscall, count, bytes, cycles }
 *
 * ascending (class, syscall); class HP_SYS_OUTSIDE (84) is "outside any
 * allocator call"; bytes are the lengths passed; every number is the change
 * since the previous dump.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <errno.h>
#include <sys/mman.h>

HP_TLS bool hp_sys_pending;

/* This thread's calls not yet charged to a class. */
typedef struct pending {
  u64 count[HP_NUM_SYSCALLS], bytes[HP_NUM_SYSCALLS], cycles[HP_NUM_SYSCALLS];
} pending_t;
static HP_TLS pending_t pending;

#define NROWS (HP_OPC_NUM_CLASSES + 1)
typedef struct sys_row {
  u64 count, bytes, cycles;
} sys_row_t;
/* Totals: atomic adds (hp_syscalls_charge); the dump reads them. */
static sys_row_t table[NROWS][HP_NUM_SYSCALLS];
/* The totals at the previous dump: under the dump lock.  now, base and
 * made_for: the dump whose section was made last, its totals and its
 * previous dump's, for the same rows when it is made again (write_profile
 * makes the raw profile once for each destination it tries). */
static sys_row_t last[NROWS][HP_NUM_SYSCALLS];
static sys_row_t now[NROWS][HP_NUM_SYSCALLS], base[NROWS][HP_NUM_SYSCALLS];
static u64 made_for;

static void note(u32 sys, uptr bytes, u64 t0) {
  if (!hp_flags.alloc_syscalls)
    return;
  pending.count[sys]++;
  pending.bytes[sys] += bytes;
  pending.cycles[sys] += hp_rdtsc() - t0;
  hp_sys_pending = true;
}

void hp_sys_note(u32 sys, uptr bytes, u64 cycles) {
  if (!hp_flags.alloc_syscalls)
    return;
  pending.count[sys]++;
  pending.bytes[sys] += bytes;
  pending.cycles[sys] += cycles;
  hp_sys_pending = true;
}

void hp_sys_note_many(u32 sys, u64 count, uptr bytes, u64 cycles) {
  if (!hp_flags.alloc_syscalls)
    return;
  pending.count[sys] += count;
  pending.bytes[sys] += bytes;
  pending.cycles[sys] += cycles;
  hp_sys_pending = true;
}

void *hp_sys_mmap(uptr size) {
  u64 t0 = hp_rdtsc();
  void *p = hp_mmap(size);
  note(HP_SYS_MMAP, p ? size : 0, t0);
  return p;
}

void *hp_sys_mmap_or_die(uptr size, const char *what) {
  u64 t0 = hp_rdtsc();
  void *p = hp_mmap(size);
  note(HP_SYS_MMAP, p ? size : 0, t0);
  if (!p)
    hp_report_mmap_failure(size, what);
  return p;
}

void *hp_sys_mmap_noreserve(uptr size, const char *what) {
  u64 t0 = hp_rdtsc();
  void *p = hp_mmap_noreserve(size, what);
  note(HP_SYS_MMAP, p ? size : 0, t0);
  return p;
}

void hp_sys_munmap(void *p, uptr size) {
  u64 t0 = hp_rdtsc();
  hp_munmap(p, size);
  note(HP_SYS_MUNMAP, size, t0);
}

void *hp_sys_mremap(void *p, uptr old_size, uptr new_size) {
  u64 t0 = hp_rdtsc();
  void *n = hp_mremap(p, old_size, new_size);
  note(HP_SYS_MREMAP, n ? new_size : 0, t0);
  return n;
}

int hp_sys_madvise(void *p, uptr size, int advice) {
  u64 t0 = hp_rdtsc();
  int saved = errno;
  int err = madvise(p, size, advice) == 0 ? 0 : errno;
  errno = saved;
  note(HP_SYS_MADVISE, err ? 0 : size, t0);
  return err;
}

void hp_syscalls_charge(u32 cls) {
  sys_row_t *row = table[cls < NROWS ? cls : HP_SYS_OUTSIDE];
  for (u32 s = 0; s < HP_NUM_SYSCALLS; s++) {
    if (!pending.count[s])
      continue;
    __atomic_add_fetch(&row[s].count, pending.count[s], __ATOMIC_RELAXED);
    __atomic_add_fetch(&row[s].bytes, pending.bytes[s], __ATOMIC_RELAXED);
    __atomic_add_fetch(&row[s].cycles, pending.cycles[s], __ATOMIC_RELAXED);
  }
  hp_memset(&pending, 0, sizeof(pending));
  hp_sys_pending = false;
}

void hp_syscalls_drop(void) {
  hp_memset(&pending, 0, sizeof(pending));
  hp_sys_pending = false;
}

/* The totals so far, into out. */
static void read_table(sys_row_t out[NROWS][HP_NUM_SYSCALLS]) {
  for (u32 c = 0; c < NROWS; c++)
    for (u32 s = 0; s < HP_NUM_SYSCALLS; s++) {
      out[c][s].count = __atomic_load_n(&table[c][s].count, __ATOMIC_RELAXED);
      out[c][s].bytes = __atomic_load_n(&table[c][s].bytes, __ATOMIC_RELAXED);
      out[c][s].cycles =
          __atomic_load_n(&table[c][s].cycles, __ATOMIC_RELAXED);
    }
}

void hp_syscalls_fork_child(void) {
  read_table(last);
  hp_syscalls_drop();
}

static u64 delta(u64 now, u64 before) { return now > before ? now - before : 0; }

void hp_syscalls_write_section(hp_buf_t *b,
                               const struct hp_profile_info *info) {
  if (!hp_flags.alloc_syscalls)
    return;
  if (info->dump != made_for) {
    /* The dump's own thread may hold calls from outside any allocator
     * call. */
    hp_syscalls_charge_outside();
    read_table(now);
    hp_memcpy(base, last, sizeof(base));
    hp_memcpy(last, now, sizeof(last));
    made_for = info->dump;
  }
  u64 nrows = 0;
  for (u32 c = 0; c < NROWS; c++)
    for (u32 s = 0; s < HP_NUM_SYSCALLS; s++)
      nrows += delta(now[c][s].count, base[c][s].count) != 0;
  if (nrows) {
    hp_buf_append(b, &nrows, 8);
    for (u32 c = 0; c < NROWS; c++)
      for (u32 s = 0; s < HP_NUM_SYSCALLS; s++) {
        const sys_row_t *n = &now[c][s], *o = &base[c][s];
        if (!delta(n->count, o->count))
          continue;
        u64 row[5] = {c, s, delta(n->count, o->count),
                      delta(n->bytes, o->bytes), delta(n->cycles, o->cycles)};
        hp_buf_append(b, row, sizeof(row));
      }
  }
}
