//===- cmd_show.cpp - heapprof show: every field of raw profiles ---------===//
//
// Part of heapprof.  `heapprof show FILE|DIR...` prints each dump as stored:
// segments, modules, MemInfoBlocks with heapprof's extension fields, raw
// PCs, size bins.  It
// is the reader's own view (no symbolization, no merging); `heapprof
// report` is the one for people.
//
//===----------------------------------------------------------------------===//
#include "cli.h"
#include "commands.h"

extern "C" {
#include "heapprof_files.h"
#include "heapprof_leak_section.h"
#include "heapprof_peak_sections.h"
#include "heapprof_rawreader.h"
}
#include "heapprof_opcost.h"
#include "render.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <string>
#include <unordered_map>
#include <vector>

const char heapprof::ShowUsage[] =
    "usage: heapprof show FILE|DIR...\n"
    "  print the dumps of heapprof raw profiles (.profraw; a directory:\n"
    "  its .profraw files in name order): segments,\n"
    "  modules, MemInfoBlocks with heapprof's extension fields, stacks,\n"
    "  size bins, tagged sections\n";

// Tagged section 7, heap utilization (heapprof_util.h): its words by name.
static bool show_utilization(const hpr_section_t *s) {
  static const char *const Names[] = {
      "lines",         "touched_lines",           "touched_line_live_bytes",
      "pages",         "touched_pages",           "touched_page_live_bytes",
      "live_bytes",    "live_chunks"};
  if (s->tag != 7 || s->size < sizeof(Names) / sizeof(Names[0]) * 8)
    return false;
  printf("  heap utilization:");
  hpr_print_section_words(s, s->size / 8, Names,
                          sizeof(Names) / sizeof(Names[0]), "word");
  return true;
}

// Tagged section 6, false sharing (heapprof_falseshare.h): the totals by
// name and the layout they describe, then one line per pair of contexts.
static bool show_false_sharing(const hpr_section_t *s) {
  static const char *const Names[] = {
      "objects",      "unplaced",      "lines",
      "shared_lines", "active_lines",  "active_events",
      "same_object_events", "dropped_pairs"};
  const uint64_t Head = 10;
  if (s->tag != 6 || s->size < Head * 8)
    return false;
  uint64_t W[10];
  memcpy(W, s->data, sizeof(W));
  uint64_t RowWords = W[8], N = W[9];
  if (RowWords < 5 || N > (s->size / 8 - Head) / RowWords)
    return false; // damaged: shown word by word
  printf("  false sharing:");
  for (int I = 0; I < 8; I++)
    printf(" %s=%llu", Names[I], (unsigned long long)W[I]);
  // The word after the rows (runtimes since measured layouts; before: none,
  // the simulated layout).
  uint64_t Layout = 0;
  if (s->size / 8 > Head + N * RowWords)
    memcpy(&Layout, s->data + 8 * (Head + N * RowWords), 8);
  printf(" pairs=%llu layout=%s\n", (unsigned long long)N,
         Layout == 0 ? "simulated" : Layout == 1 ? "real" : "unknown");
  for (uint64_t I = 0; I < N; I++) {
    uint64_t R[5];
    memcpy(R, s->data + 8 * (Head + I * RowWords), sizeof(R));
    printf("    contexts %llu and %llu: %llu passive lines, %llu active "
           "events on %llu lines\n",
           (unsigned long long)R[0], (unsigned long long)R[1],
           (unsigned long long)R[2], (unsigned long long)R[3],
           (unsigned long long)R[4]);
  }
  return true;
}

// Tagged section 10, the leak check at exit (heapprof_leak_section.h): the
// head's words by name (words a newer runtime appended as wordN), then one
// line per context with unreachable objects.
static void show_leaks(const hpr_section_t *s) {
  hpr_leak_head_t h = hpr_leaks_head(s);
  printf("  leaks:");
  hpr_print_section_words(s, h.head_words, hpr_leak_head_names,
                          HPR_LEAK_HEAD_WORDS, "word");
  for (uint64_t i = 0; i < h.nrows; i++) {
    hpr_leak_row_t r = hpr_leaks_row(s, i);
    printf("    stack id %llu: direct_objects=%llu direct_bytes=%llu "
           "indirect_objects=%llu indirect_bytes=%llu\n",
           (unsigned long long)r.stack_id,
           (unsigned long long)r.direct_objects,
           (unsigned long long)r.direct_bytes,
           (unsigned long long)r.indirect_objects,
           (unsigned long long)r.indirect_bytes);
  }
}

static void show_dump(const hpr_file_t *F, const hpr_dump_t *d, size_t k) {
  printf("dump %zu at offset 0x%llx: raw version %llu, %llu bytes, %llu "
         "segments, %llu MIBs, %llu stacks",
         k, (unsigned long long)d->offset, (unsigned long long)d->version,
         (unsigned long long)d->total_size, (unsigned long long)d->nsegs,
         (unsigned long long)d->nmibs, (unsigned long long)d->nstacks);
  if (d->has_ext)
    printf("; heapprof extension v%llu: checkpoint %llu, %llu ms, pid %llu, "
           "%llu table evictions",
           (unsigned long long)d->ext_version, (unsigned long long)d->ext_seq,
           (unsigned long long)d->ext_ms, (unsigned long long)d->ext_pid,
           (unsigned long long)d->ext_evictions);
  else
    printf("; no heapprof extension");
  printf("\n");
  for (uint64_t i = 0; i < d->nsegs; i++) {
    const hpr_segment_t *s = &d->segs[i];
    printf("  segment %llu: 0x%llx-0x%llx offset 0x%llx build id ",
           (unsigned long long)i, (unsigned long long)s->start,
           (unsigned long long)s->end, (unsigned long long)s->offset);
    for (uint64_t b = 0; b < s->build_id_size; b++)
      printf("%02x", s->build_id[b]);
    printf("\n");
  }
  for (uint64_t i = 0; i < d->nmodules; i++) {
    const hpr_module_t *m = &d->modules[i];
    printf("  module %llu: %s bias 0x%llx build id ", (unsigned long long)i,
           m->path[0] ? heapprof::terminalText(m->path).c_str() : "[anonymous]",
           (unsigned long long)m->bias);
    for (uint64_t b = 0; b < m->build_id_size; b++)
      printf("%02x", m->build_id[b]);
    printf("\n");
  }
  // Each MIB's stack is the first with its id: looked up in a map, not
  // searched for, which made a dump of 240,000 contexts take 17 s.
  std::unordered_map<uint64_t, uint64_t> StackOf;
  StackOf.reserve(d->nstacks);
  for (uint64_t s = 0; s < d->nstacks; s++)
    StackOf.emplace(d->stacks[s].id, s);
  for (uint64_t i = 0; i < d->nmibs; i++) {
    const hpr_mib_t *m = &d->mibs[i];
    printf("  MIB stack id %llu:", (unsigned long long)m->stack_id);
    unsigned nf = d->version == 3 ? 25u : 27u;
    for (unsigned f = 0; f < nf; f++)
      printf(" %s=%llu", hpr_mib_names[f],
             (unsigned long long)hpr_mib_field(d, m, f));
    printf("\n");
    if (m->ext) {
      printf("    heapprof:");
      for (uint64_t f = 0; f < d->ext_nfields && f < HP_EXT_MAX_FIELDS; f++) {
        if (f < hpr_num_ext_names)
          printf(" %s=%llu", hpr_ext_names[f],
                 (unsigned long long)hpr_ext(d, m, f));
        else
          printf(" field%llu=%llu", (unsigned long long)f,
                 (unsigned long long)hpr_ext(d, m, f));
      }
      printf("\n");
    }
    auto It = StackOf.find(m->stack_id);
    if (It != StackOf.end()) {
      const hpr_stack_t &S = d->stacks[It->second];
      printf("    stack:");
      for (uint64_t p = 0; p < S.n; p++) {
        uint64_t pc;
        memcpy(&pc, &S.pcs[p], 8);
        printf(" 0x%llx", (unsigned long long)pc);
      }
      printf("\n");
    }
    // The records shown are given back as they go (a mapped file); the
    // stacks, shown in the records' order, stay until the dump is shown.
    if (i % 65536 == 65535)
      hpr_drop_mibs(F, d, i - 65535, i + 1);
  }
  hpr_drop(F, F->data + d->offset, d->total_size);
  for (uint64_t i = 0; i < d->nbins; i++) {
    const hpr_bin_t *b = &d->bins[i];
    if (b->size > 1024)
      printf("  bin >1024:");
    else
      printf("  bin %llu:", (unsigned long long)b->size);
    printf(" allocs=%llu bytes=%llu frees=%llu freed_bytes=%llu\n",
           (unsigned long long)b->allocs, (unsigned long long)b->bytes,
           (unsigned long long)b->frees, (unsigned long long)b->freed_bytes);
  }
  for (uint64_t i = 0; i < d->nsections; i++) {
    const hpr_section_t *s = &d->sections[i];
    if (s->tag == HPR_TAG_PEAK) {
      printf("  peak:");
      hpr_print_section_fields(s, hpr_peak_names, hpr_num_peak_names);
      continue;
    }
    if (s->tag == HPR_TAG_OVERHEAD) {
      printf("  overhead at the peak:");
      hpr_print_section_fields(s, hpr_overhead_names, hpr_num_overhead_names);
      continue;
    }
    if (show_utilization(s) || show_false_sharing(s))
      continue;
    char why[256];
    if (s->tag == HPR_TAG_TIMELINE && hpr_timeline_check(s, why, sizeof(why))) {
      uint64_t width = hpr_timeline_width(s), n = hpr_timeline_count(s);
      printf("  timeline: bucket_ms=%llu buckets=%llu\n",
             (unsigned long long)width, (unsigned long long)n);
      for (uint64_t k = 0; k < n; k++) {
        hpr_timeline_bucket_t b = hpr_timeline_row(s, k);
        printf("    %llu ms: lowest=%llu highest=%llu last=%llu\n",
               (unsigned long long)(b.index * width),
               (unsigned long long)b.lowest, (unsigned long long)b.highest,
               (unsigned long long)b.last);
      }
      continue;
    }
    if (s->tag == HPR_TAG_LEAKS && hpr_leaks_check(s, why, sizeof(why))) {
      show_leaks(s);
      continue;
    }
    if (s->tag == HPR_TAG_UNLOADED) { // checked when the file was read
      printf("  unloaded modules: %llu, dropped=%llu\n",
             (unsigned long long)d->nunloaded,
             (unsigned long long)d->unloaded_dropped);
      for (uint64_t k = 0; k < d->nunloaded; k++) {
        const hpr_unloaded_t *u = &d->unloaded[k];
        printf("    unloaded at %llu ms: %s bias 0x%llx build id ",
               (unsigned long long)u->unloaded_ms,
               u->path[0] ? heapprof::terminalText(u->path).c_str()
                          : "[anonymous]",
               (unsigned long long)u->bias);
        for (uint64_t b = 0; b < u->build_id_size; b++)
          printf("%02x", u->build_id[b]);
        for (uint64_t g = 0; g < u->nsegs; g++)
          printf(" 0x%llx-0x%llx", (unsigned long long)u->segs[g][0],
                 (unsigned long long)u->segs[g][1]);
        printf("\n");
      }
      continue;
    }
    if (s->tag == 8 && s->size >= 8) {
      uint64_t n;
      memcpy(&n, s->data, 8);
      // 0: a merge of profiles sampled at different rates.
      if (n)
        printf("  sampled: estimated, sampled at %llu bytes (sample_bytes; "
               "the MIBs' sums are estimates)\n",
               (unsigned long long)n);
      else
        printf("  sampled: estimated, sampled at several rates (merged; the "
               "MIBs' sums are estimates)\n");
      continue;
    }
    if (s->tag == HPR_TAG_STACKS && s->size >= HPR_STACKS_WORDS * 8) {
      uint64_t w[HPR_STACKS_WORDS];
      memcpy(w, s->data, sizeof(w));
      printf("  stacks: malloc_context_size=%llu fold_recursion=%llu\n",
             (unsigned long long)w[0], (unsigned long long)w[1]);
      continue;
    }
    uint64_t AKind, ALen;
    const char *APath;
    if (s->tag == HPR_TAG_ALLOCATOR &&
        hpr_allocator(s, &AKind, &APath, &ALen)) {
      printf("  allocator: %s%s%s\n", hpr_allocator_names[AKind],
             ALen ? " " : "",
             heapprof::terminalText(std::string(APath, ALen)).c_str());
      continue;
    }
    uint64_t CFlags, CArgc, CLen;
    const char *CArgs;
    if (s->tag == HPR_TAG_COMMAND &&
        hpr_command(s, &CFlags, &CArgc, &CArgs, &CLen)) {
      std::vector<std::string> Args;
      for (const char *A = CArgs, *End = CArgs + CLen; A < End;
           A += strlen(A) + 1)
        Args.emplace_back(A);
      printf("  command: %s%s\n",
             heapprof::terminalText(heapprof::commandText(Args)).c_str(),
             CFlags & HPR_COMMAND_TRUNCATED ? " ... (truncated)" : "");
      continue;
    }
    uint64_t RLen;
    const char *RPath;
    if (s->tag == HPR_TAG_RUN_PATH && hpr_run_path(s, &RPath, &RLen)) {
      printf("  run as: %s\n",
             heapprof::terminalText(std::string(RPath, RLen)).c_str());
      continue;
    }
    printf("  section tag %llu, %llu bytes", (unsigned long long)s->tag,
           (unsigned long long)s->size);
    // The allocator profiler's sections, readably; a malformed one gets
    // its problem and its words.
    if (s->tag >= HPO_TAG_OP_CLASSES && s->tag <= HPO_TAG_PMU) {
      hpo_section_t o;
      char err[256];
      if (hpo_decode(s->tag, s->data, s->size, &o, err, sizeof(err))) {
        printf("\n");
        hpo_print(stdout, &o, "    ");
        hpo_free(&o);
        continue;
      }
      printf(" (malformed: %s)", err);
    }
    if (s->tag == HPR_TAG_TIMELINE || s->tag == HPR_TAG_LEAKS)
      printf(" (malformed: %s)", why); // failed their check above
    printf(":");
    for (uint64_t w = 0; w < s->size / 8; w++) {
      uint64_t v;
      memcpy(&v, s->data + 8 * w, 8);
      printf(" %llu", (unsigned long long)v);
    }
    printf("\n");
  }
}

// Prints every dump of one file; false (and one error) if it is unreadable.
static bool show_file(const char *Path) {
  hpr_file_t f;
  char err[512];
  // Mapped (hpr_map), its pages given back as they are shown: a copy of
  // the file was most of show's peak (docs/performance.md).
  if (!hpr_map(Path, &f, err, sizeof(err))) {
    hpf_error("error", (std::string(Path) + ": " + err).c_str());
    hpr_free(&f);
    return false;
  }
  printf("%s: %zu dump%s\n", heapprof::terminalText(Path).c_str(), f.ndumps,
         f.ndumps == 1 ? "" : "s");
  for (size_t k = 0; k < f.ndumps; k++)
    show_dump(&f, &f.dumps[k], k);
  // Truncated or rewritten while it was shown: what was printed may be
  // zeros, or another file's bytes.  Said after it, as the text is
  // printed as the file is read (kept whole, it would be larger than the
  // file).
  bool Changed = hpr_changed(&f);
  if (Changed) {
    fflush(stdout);
    hpf_error("error", (std::string(Path) + ": changed while it was read").c_str());
  }
  hpr_free(&f);
  return !Changed;
}

int heapprof::cmdShow(int argc, char **argv) {
  // No options but -h/--help and `--` (a profile named -x); anything else
  // starting with - is a usage error, as in the other commands, rather
  // than a file that cannot be opened.
  Options O(ShowUsage);
  std::vector<std::string> Inputs;
  if (int Rc = O.parse(argc, argv, Inputs))
    return Rc;
  if (Inputs.empty())
    return O.usageError("no profile given");
  int rc = 0;
  for (const std::string &Input : Inputs) {
    const char *Path = Input.c_str();
    // A directory stands for its .profraw files, in name order, as for
    // report and merge.
    struct stat St;
    if (!hpr_is_stdin(Path) && stat(Path, &St) == 0 && S_ISDIR(St.st_mode)) {
      char **Names;
      size_t N;
      char Why[512];
      if (!hpf_list_profiles(Path, &Names, &N, Why, sizeof(Why))) {
        hpf_error("error", (std::string(Path) + ": " + Why).c_str());
        rc = 1;
        continue;
      }
      for (size_t k = 0; k < N; k++)
        if (!show_file(Names[k]))
          rc = 1;
      hpf_free_list(Names, N);
      continue;
    }
    if (!show_file(Path))
      rc = 1;
  }
  // What could not be written is an error too (a full disk, a closed
  // stdout, a pipe whose reader left while SIGPIPE is ignored).
  if (fflush(stdout) != 0 || ferror(stdout)) {
    hpf_error("error",
              (std::string("<stdout>: cannot write: ") + strerror(errno))
                  .c_str());
    rc = 1;
  }
  return rc;
}
