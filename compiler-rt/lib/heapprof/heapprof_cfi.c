/*===- heapprof_cfi.c - call frame information, cached per return address ===
 *
 * Part of heapprof.  How to step from a frame to its caller when the frame
 * may have no frame pointer (libstdc++, libc, distribution binaries, objects
 * compiled without -fheapprof): the CFI in the module's .eh_frame, found
 * through its .eh_frame_hdr binary search table, evaluated at the return
 * address into a small recipe (hp_cfi_recipe_t) and cached per thread, per
 * return address.  heapprof_stack.c walks with the recipes.
 *
 * Only what a caller's frame needs on x86-64 is evaluated: the CFA rule
 * (rsp or rbp plus an offset), the rule of rbp (unchanged or saved at
 * CFA+n), and whether the return address is defined (it is at CFA-8).
 * Anything else (a CFA given by a DWARF expression, as in PLT stubs; 64-bit
 * .eh_frame; a table without binary search) gives HP_CFI_NONE, and the walk
 * takes the frame-pointer step there as before.  The signal trampoline,
 * whose CFI is such an expression, is recognised by its code instead
 * (HP_CFI_SIGNAL): the walk goes on from the registers the kernel saved.
 *
 * Safe on an allocation path: nothing allocates, the cache is thread-local
 * (an entry is written tag last, so a signal handler that allocates on the
 * same thread sees either the old entry or none), and the only lock is the
 * dynamic loader's in dl_iterate_phdr, taken on a cache miss; it is
 * recursive, so a signal handler re-entering it on the same thread does not
 * deadlock.
 *===----------------------------------------------------------------------===*/
#include "heapprof_internal.h"

#include <link.h>

/* ------------------------------------------------------------- reading */

typedef struct reader {
  const u8 *p, *end;
  bool bad;
} reader_t;

static u64 uleb(reader_t *r) {
  u64 v = 0;
  unsigned shift = 0;
  while (r->p < r->end) {
    u8 b = *r->p++;
    if (shift < 64)
      v |= (u64)(b & 0x7f) << shift;
    shift += 7;
    if (!(b & 0x80))
      return v;
  }
  r->bad = true;
  return 0;
}

static s64 sleb(reader_t *r) {
  s64 v = 0;
  unsigned shift = 0;
  while (r->p < r->end) {
    u8 b = *r->p++;
    if (shift < 64)
      v |= (s64)((u64)(b & 0x7f) << shift);
    shift += 7;
    if (!(b & 0x80)) {
      if (shift < 64 && (b & 0x40))
        v |= -((s64)1 << shift);
      return v;
    }
  }
  r->bad = true;
  return 0;
}

static bool need(reader_t *r, uptr n) {
  if (r->bad || (uptr)(r->end - r->p) < n) {
    r->bad = true;
    return false;
  }
  return true;
}

static u64 fixed(reader_t *r, unsigned n) {
  if (!need(r, n))
    return 0;
  u64 v = 0;
  hp_memcpy(&v, r->p, n);
  r->p += n;
  return v;
}

/* A DW_EH_PE-encoded pointer; datarel is relative to base. */
static uptr encoded(reader_t *r, u8 enc, uptr base) {
  if (enc == 0xff)
    return 0;
  uptr field = (uptr)r->p;
  u64 v;
  switch (enc & 0x0f) {
  case 0x00: v = fixed(r, 8); break;
  case 0x01: v = uleb(r); break;
  case 0x02: v = fixed(r, 2); break;
  case 0x03: v = fixed(r, 4); break;
  case 0x04: v = fixed(r, 8); break;
  case 0x09: v = (u64)sleb(r); break;
  case 0x0a: v = (u64)(s64)(int16_t)fixed(r, 2); break;
  case 0x0b: v = (u64)(s64)(int32_t)fixed(r, 4); break;
  case 0x0c: v = fixed(r, 8); break;
  default: r->bad = true; return 0;
  }
  switch (enc & 0x70) {
  case 0x00: break;
  case 0x10: v += field; break;
  case 0x30: v += base; break;
  default: r->bad = true; return 0;
  }
  if (enc & 0x80) {
    r->bad = true; /* indirect: never in an FDE's address fields */
    return 0;
  }
  return (uptr)v;
}

/* --------------------------------------------------------- the modules */

typedef struct find_ctx {
  uptr pc;
  const u8 *hdr; /* the module's .eh_frame_hdr, or NULL */
  uptr seg_hi;   /* the end of the segment holding pc */
  bool found;
} find_ctx_t;

/* libc's executable segment: the outermost frames of the main thread
 * (__libc_start_main and its helper) are there; heapprof_stack.c drops
 * them. */
uptr hp_cfi_libc_lo, hp_cfi_libc_hi;

static bool is_libc(const char *name) {
  size_t n = name ? hp_strlen(name) : 0;
  return n >= 10 && !hp_strcmp(name + n - 10, "/libc.so.6");
}

static int find_cb(struct dl_phdr_info *info, size_t size, void *arg) {
  find_ctx_t *c = arg;
  bool libc = !hp_cfi_libc_hi && is_libc(info->dlpi_name);
  bool here = false;
  const ElfW(Phdr) *eh = NULL;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uptr lo = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && libc) {
      hp_cfi_libc_lo = lo;
      __atomic_store_n(&hp_cfi_libc_hi, lo + ph->p_memsz, __ATOMIC_RELEASE);
    }
    if (ph->p_type == PT_LOAD && c->pc >= lo && c->pc < lo + ph->p_memsz) {
      here = true;
      c->seg_hi = lo + ph->p_filesz < lo + ph->p_memsz ? lo + ph->p_filesz
                                                       : lo + ph->p_memsz;
    }
    if (ph->p_type == PT_GNU_EH_FRAME)
      eh = ph;
  }
  if (!here)
    return 0;
  c->found = true;
  c->hdr = eh ? (const u8 *)(info->dlpi_addr + eh->p_vaddr) : NULL;
  return 1;
}

/* --------------------------------------------------------- evaluation */

/* DWARF register numbers (x86-64 psABI). */
enum { DWARF_RBP = 6, DWARF_RSP = 7, DWARF_RA = 16 };
enum { RBP_SAME, RBP_AT, RBP_UNKNOWN };
enum { RA_AT_CFA_M8, RA_UNDEFINED, RA_UNKNOWN };

typedef struct cfa_state {
  u32 cfa_reg;
  s64 cfa_off;
  bool cfa_unknown;
  u8 rbp_rule, ra_rule;
  s64 rbp_off;
} cfa_state_t;

typedef struct cie {
  u64 code_align;
  s64 data_align;
  u8 fde_enc;
  bool has_aug_data;
  const u8 *insns, *insns_end;
} cie_t;

static bool parse_cie(const u8 *p, cie_t *c) {
  reader_t r = {p, p + 4, false};
  u64 len = fixed(&r, 4);
  if (r.bad || len == 0 || len == 0xffffffff)
    return false;
  r.end = p + 4 + len;
  if (fixed(&r, 4) != 0) /* CIE id */
    return false;
  u8 version = (u8)fixed(&r, 1);
  if (r.bad || (version != 1 && version != 3))
    return false;
  const char *aug = (const char *)r.p;
  while (r.p < r.end && *r.p)
    r.p++;
  if (!need(&r, 1))
    return false;
  r.p++;
  c->code_align = uleb(&r);
  c->data_align = sleb(&r);
  if (version == 1)
    fixed(&r, 1);
  else
    uleb(&r);
  c->fde_enc = 0; /* absptr */
  c->has_aug_data = aug[0] == 'z';
  if (aug[0] == 'z') {
    u64 alen = uleb(&r);
    const u8 *after = r.p + alen;
    for (const char *a = aug + 1; *a && !r.bad; a++) {
      if (*a == 'R') {
        c->fde_enc = (u8)fixed(&r, 1);
      } else if (*a == 'L') {
        fixed(&r, 1);
      } else if (*a == 'P') {
        u8 enc = (u8)fixed(&r, 1);
        encoded(&r, enc & 0x7f, 0); /* the personality: skipped */
      } else if (*a == 'S' || *a == 'B') {
      } else {
        break; /* unknown: the data length still lets us skip it */
      }
    }
    r.p = after;
  } else if (aug[0]) {
    return false;
  }
  if (r.bad || r.p > r.end)
    return false;
  c->insns = r.p;
  c->insns_end = r.end;
  return true;
}

/* Runs CFA instructions for locations <= pc, from loc. */
static bool run_cfa(const u8 *p, const u8 *end, const cie_t *cie, uptr loc,
                    uptr pc, cfa_state_t *s, const cfa_state_t *initial) {
  reader_t r = {p, end, false};
  cfa_state_t stack[8];
  u32 depth = 0;
  while (r.p < r.end && !r.bad) {
    u8 op = *r.p++;
    u8 hi = op & 0xc0, lo = op & 0x3f;
    u64 reg;
    s64 off;
    if (hi == 0x40) { /* advance_loc */
      loc += lo * cie->code_align;
      if (loc > pc)
        return true;
      continue;
    }
    if (hi == 0x80) { /* offset */
      reg = lo;
      off = (s64)uleb(&r) * cie->data_align;
      goto set_offset;
    }
    if (hi == 0xc0) { /* restore */
      reg = lo;
      goto restore;
    }
    switch (op) {
    case 0x00: break; /* nop */
    case 0x01: return false; /* set_loc: not in compiler output */
    case 0x02: loc += fixed(&r, 1) * cie->code_align; if (loc > pc) return true; break;
    case 0x03: loc += fixed(&r, 2) * cie->code_align; if (loc > pc) return true; break;
    case 0x04: loc += fixed(&r, 4) * cie->code_align; if (loc > pc) return true; break;
    case 0x05: reg = uleb(&r); off = (s64)uleb(&r) * cie->data_align; goto set_offset;
    case 0x11: reg = uleb(&r); off = sleb(&r) * cie->data_align; goto set_offset;
    case 0x2f: reg = uleb(&r); off = -(s64)uleb(&r) * cie->data_align; goto set_offset;
    case 0x06: reg = uleb(&r); goto restore;
    case 0x07: /* undefined */
      reg = uleb(&r);
      if (reg == DWARF_RA) s->ra_rule = RA_UNDEFINED;
      if (reg == DWARF_RBP) s->rbp_rule = RBP_UNKNOWN;
      break;
    case 0x08: /* same_value */
      reg = uleb(&r);
      if (reg == DWARF_RBP) s->rbp_rule = RBP_SAME;
      if (reg == DWARF_RA) s->ra_rule = RA_UNKNOWN;
      break;
    case 0x09: /* register */
      reg = uleb(&r);
      uleb(&r);
      goto other_rule;
    case 0x0a:
      if (depth == HP_ARRAY_SIZE(stack)) return false;
      stack[depth++] = *s;
      break;
    case 0x0b:
      if (!depth) return false;
      *s = stack[--depth];
      break;
    case 0x0c: s->cfa_reg = (u32)uleb(&r); s->cfa_off = (s64)uleb(&r); s->cfa_unknown = false; break;
    case 0x12: s->cfa_reg = (u32)uleb(&r); s->cfa_off = sleb(&r) * cie->data_align; s->cfa_unknown = false; break;
    case 0x0d: s->cfa_reg = (u32)uleb(&r); break;
    case 0x0e: s->cfa_off = (s64)uleb(&r); break;
    case 0x13: s->cfa_off = sleb(&r) * cie->data_align; break;
    case 0x0f: /* def_cfa_expression */
      r.p += uleb(&r);
      s->cfa_unknown = true;
      break;
    case 0x10: case 0x16: /* expression, val_expression */
      reg = uleb(&r);
      r.p += uleb(&r);
      goto other_rule;
    case 0x14: reg = uleb(&r); uleb(&r); goto other_rule;  /* val_offset */
    case 0x15: reg = uleb(&r); sleb(&r); goto other_rule;  /* val_offset_sf */
    case 0x2e: uleb(&r); break; /* GNU_args_size */
    default: return false;
    }
    continue;
  set_offset:
    if (reg == DWARF_RBP) {
      s->rbp_rule = RBP_AT;
      s->rbp_off = off;
    } else if (reg == DWARF_RA) {
      s->ra_rule = off == -8 ? RA_AT_CFA_M8 : RA_UNKNOWN;
    }
    continue;
  restore:
    if (!initial)
      return false; /* restore inside the CIE's own instructions */
    if (reg == DWARF_RBP) {
      s->rbp_rule = initial->rbp_rule;
      s->rbp_off = initial->rbp_off;
    } else if (reg == DWARF_RA) {
      s->ra_rule = initial->ra_rule;
    }
    continue;
  other_rule:
    if (reg == DWARF_RBP) s->rbp_rule = RBP_UNKNOWN;
    if (reg == DWARF_RA) s->ra_rule = RA_UNKNOWN;
  }
  return !r.bad;
}

static u64 make_recipe(const cfa_state_t *s) {
  if (s->ra_rule == RA_UNDEFINED)
    return HP_CFI_END;
  if (s->cfa_unknown || s->ra_rule != RA_AT_CFA_M8 ||
      (s->cfa_reg != DWARF_RSP && s->cfa_reg != DWARF_RBP) ||
      s->cfa_off < 8 || s->cfa_off > INT32_MAX ||
      (s->rbp_rule == RBP_AT && (s->rbp_off < INT16_MIN || s->rbp_off > INT16_MAX)))
    return HP_CFI_NONE;
  u64 r = HP_CFI_STEP;
  if (s->cfa_reg == DWARF_RBP)
    r |= HP_CFI_CFA_RBP;
  r |= (u64)s->rbp_rule << 3;
  r |= (u64)(u16)(int16_t)s->rbp_off << 16;
  r |= (u64)(u32)s->cfa_off << 32;
  return r;
}

/* Is the return address pc + 1 the kernel's way back from a signal
 * handler, a sa_restorer that calls rt_sigreturn at once (glibc's
 * __restore_rt: mov $15, %rax; syscall)?  libgcc's unwinder recognises it
 * by these bytes too.  Its CFI (a CFA read from the ucontext_t by a DWARF
 * expression) is not one a recipe holds.  The bytes lie in the module's
 * segment holding pc, so reading them cannot fault. */
static bool is_sigreturn(const find_ctx_t *c) {
  static const u8 code[9] = {0x48, 0xc7, 0xc0, 0x0f, 0x00,
                             0x00, 0x00, 0x0f, 0x05};
  return c->found && c->pc + 1 + sizeof(code) <= c->seg_hi &&
         !hp_memcmp((const u8 *)c->pc + 1, code, sizeof(code));
}

/* The recipe for the frame whose return address - 1 is pc. */
static u64 compute(uptr pc) {
  find_ctx_t c = {pc, NULL, 0, false};
  dl_iterate_phdr(find_cb, &c);
  if (is_sigreturn(&c))
    return HP_CFI_SIGNAL;
  if (!c.hdr)
    return HP_CFI_NONE;
  const u8 *hdr = c.hdr;
  if (hdr[0] != 1 || hdr[3] != 0x3b) /* datarel sdata4 table */
    return HP_CFI_NONE;
  reader_t r = {hdr + 4, hdr + 4 + 16, false};
  encoded(&r, hdr[1], (uptr)hdr);
  u64 count = encoded(&r, hdr[2], (uptr)hdr);
  if (r.bad || !count)
    return HP_CFI_NONE;
  const int32_t *tab = (const int32_t *)r.p;
  u64 lo = 0, hi = count;
  while (hi - lo > 1) { /* last entry with start <= pc */
    u64 mid = (lo + hi) / 2;
    if ((uptr)hdr + (uptr)(intptr_t)tab[2 * mid] <= pc)
      lo = mid;
    else
      hi = mid;
  }
  if ((uptr)hdr + (uptr)(intptr_t)tab[2 * lo] > pc)
    return HP_CFI_NONE;
  const u8 *fde = hdr + (intptr_t)tab[2 * lo + 1];
  reader_t f = {fde, fde + 8, false};
  u64 len = fixed(&f, 4);
  if (len == 0 || len == 0xffffffff)
    return HP_CFI_NONE;
  f.end = fde + 4 + len;
  const u8 *cie_field = f.p;
  u64 cie_off = fixed(&f, 4);
  cie_t cie;
  if (f.bad || !cie_off || !parse_cie(cie_field - cie_off, &cie))
    return HP_CFI_NONE;
  uptr begin = encoded(&f, cie.fde_enc, 0);
  uptr range = encoded(&f, cie.fde_enc & 0x0f, 0);
  if (f.bad || pc < begin || pc - begin >= range)
    return HP_CFI_NONE;
  if (cie.has_aug_data)
    f.p += uleb(&f);
  if (f.bad || f.p > f.end)
    return HP_CFI_NONE;
  cfa_state_t s = {DWARF_RSP, 8, false, RBP_SAME, RA_AT_CFA_M8, 0};
  if (!run_cfa(cie.insns, cie.insns_end, &cie, begin, pc, &s, NULL))
    return HP_CFI_NONE;
  cfa_state_t initial = s;
  if (!run_cfa(f.p, f.end, &cie, begin, pc, &s, &initial))
    return HP_CFI_NONE;
  return make_recipe(&s);
}

u64 hp_cfi_compute(uptr pc) { return compute(pc); }
