/*===- heapprof_clock.c - timestamps, cpu ids, cycle counts -------------===
 *
 * Part of heapprof.  Takes the origins of CLOCK_MONOTONIC and of its
 * coarse version, and the coarse clock's resolution, for timestamps.
 * Cycle counts are raw TSC differences (heapprof needs
 * constant_tsc/nonstop_tsc); nothing converts them to time.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <elf.h>
#include <sched.h>
#include <sys/auxv.h>
#include <time.h>

hp_clock_t hp_clock;
long hp_cpu_rseq_off;
hp_clock_gettime_fn hp_clock_gettime = clock_gettime;

/* glibc's description of the rseq area it registered (weak: absent before
 * glibc 2.35).  struct rseq begins { u32 cpu_id_start; u32 cpu_id; ... }. */
extern const ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));
#define HP_RSEQ_CPU_ID 4

/* The vDSO's own clock_gettime, found in the image the kernel maps
 * (getauxval(AT_SYSINFO_EHDR); the lookup of the kernel's
 * tools/testing/selftests/vDSO/parse_vdso.c, reduced to DT_HASH, which the
 * x86-64 vDSO has).  NULL when there is no vDSO (valgrind hides it) or no
 * such symbol. */
static hp_clock_gettime_fn vdso_clock_gettime(void) {
  uptr base = (uptr)getauxval(AT_SYSINFO_EHDR);
  if (!base)
    return NULL;
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
  if (hp_memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
      eh->e_ident[EI_CLASS] != ELFCLASS64)
    return NULL;
  const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff);
  uptr load = 0;
  const Elf64_Dyn *dyn = NULL;
  bool have_load = false;
  for (u32 i = 0; i < eh->e_phnum; i++) {
    if (ph[i].p_type == PT_LOAD && !have_load) {
      load = base + ph[i].p_offset - ph[i].p_vaddr;
      have_load = true;
    } else if (ph[i].p_type == PT_DYNAMIC) {
      dyn = (const Elf64_Dyn *)(base + ph[i].p_offset);
    }
  }
  if (!have_load || !dyn)
    return NULL;
  const Elf64_Sym *sym = NULL;
  const char *str = NULL;
  const u32 *hash = NULL;
  for (; dyn->d_tag != DT_NULL; dyn++) {
    if (dyn->d_tag == DT_SYMTAB)
      sym = (const Elf64_Sym *)(load + dyn->d_un.d_ptr);
    else if (dyn->d_tag == DT_STRTAB)
      str = (const char *)(load + dyn->d_un.d_ptr);
    else if (dyn->d_tag == DT_HASH)
      hash = (const u32 *)(load + dyn->d_un.d_ptr);
  }
  if (!sym || !str || !hash)
    return NULL;
  for (u32 i = 0; i < hash[1]; i++) { /* nchain: the symbol count */
    if (ELF64_ST_TYPE(sym[i].st_info) != STT_FUNC ||
        sym[i].st_shndx == SHN_UNDEF ||
        hp_strcmp(str + sym[i].st_name, "__vdso_clock_gettime"))
      continue;
    return (hp_clock_gettime_fn)(load + sym[i].st_value);
  }
  return NULL;
}

void hp_clock_init(void) {
  if (hp_clock.ready)
    return;
  if (&__rseq_size && &__rseq_offset && __rseq_size >= 2 * sizeof(u32) &&
      __rseq_offset + HP_RSEQ_CPU_ID != 0)
    hp_cpu_rseq_off = (long)__rseq_offset + HP_RSEQ_CPU_ID;
  /* Only if it answers as glibc's does (a kernel without the coarse clock
   * in its vDSO would make the call fail). */
  hp_clock_gettime_fn f = vdso_clock_gettime();
  struct timespec a, b;
  if (f && !f(CLOCK_MONOTONIC_COARSE, &b) &&
      !clock_gettime(CLOCK_MONOTONIC_COARSE, &a) &&
      (u64)a.tv_sec * 1000000000ull + (u64)a.tv_nsec >=
          (u64)b.tv_sec * 1000000000ull + (u64)b.tv_nsec)
    hp_clock_gettime = f;
  struct timespec res;
  u64 res_ns = 4000000; /* HZ=250, if the kernel does not say */
  if (!clock_getres(CLOCK_MONOTONIC_COARSE, &res))
    res_ns = (u64)res.tv_sec * 1000000000ull + (u64)res.tv_nsec;
  hp_clock.res_ms = (u32)((res_ns + 999999) / 1000000);
  hp_clock.coarse0_ns = hp_coarse_ns();
  __atomic_store_n(&hp_clock.ready, true, __ATOMIC_RELEASE);
}


u32 hp_cpu_id_slow(void) {
  int c = sched_getcpu();
  return c < 0 ? 0 : (u32)c;
}
