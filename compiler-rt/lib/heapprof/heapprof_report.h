/*===- heapprof_report.h - error reports --------------------------------===
 *
 * Part of heapprof.  One function per kind of error.  Each prints
 *   HeapProf: ERROR: <kind> on address 0x... (pc 0x... ...): <details>
 * then the stack of the bad call, then a hint how to turn the check off.
 * The program's profile is written before an abort, so nothing is lost.
 * Bad-pointer reports abort unless halt_on_error=0, in which case they
 * return and the caller leaves the pointer alone.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_REPORT_H
#define HEAPPROF_REPORT_H

HP_NORETURN void hp_check_failed(const char *file, int line, const char *cond);
HP_NORETURN void hp_report_mmap_failure(uptr size, const char *what);
HP_NORETURN void hp_report_bad_option(const char *message);
/* Whether this process's address-space or data-size limit is below what
 * a new image's runtime reserves at start (an exec keeps the limits). */
bool hp_limits_refuse_start(void);
/* Warns that the program path, executed under such a limit, runs without
 * heapprof. */
void hp_report_exec_unprofiled(const char *path);
/* Why a mapping of the runtime's was refused, for a warning: a limit the
 * process started with (heapprof's reservations among what it counts), a
 * limit the program set itself (the reservations added to it: reached;
 * for a checkpoint's baseline, the baseline not among them), or else the
 * map count. */
void hp_report_mapping_refused_why(char *buf, uptr size, bool baseline);
/* Once per *said: "HeapProf: WARNING: cannot map WHAT (why): THEN", for
 * a structure of heapprof's that goes on without the memory it was
 * refused (the stack depot, the HIB spill log, the peak tracker). */
void hp_report_cannot_map_once(bool *said, const char *what,
                               const char *then);
HP_NORETURN void hp_report_out_of_memory(uptr size, uptr fp, const char *why);
/* calloc's or reallocarray's count times size above SIZE_MAX. */
HP_NORETURN void hp_report_overflow(uptr n, uptr size, uptr fp,
                                    const char *why);
HP_NORETURN void hp_report_new_failed(uptr size, uptr fp);
/* allocator=NAME names no allocator the runtime can call through to. */
HP_NORETURN void hp_report_foreign_missing(const char *allocator,
                                           const char *why);
/* Options of heapprof's own allocator (names, comma-separated) set where
 * another allocator serves the program (where: "allocator=X" or "sampled
 * mode"): a warning, the program runs. */
void hp_report_allocator_options_ignored(const char *where, const char *names);
/* chunk_beg != 0: p points inside the live chunk at chunk_beg, or before
 * it (into its header or alignment padding). */
void hp_report_invalid_free(uptr p, uptr fp, const char *op, uptr chunk_beg);
/* h: the chunk's header when still known (primary chunks).  chunk_beg != 0
 * and != p: p points inside (or before) the freed chunk at chunk_beg. */
void hp_report_double_free(uptr p, uptr fp, const char *op,
                           const hp_chunk_header_t *h, uptr chunk_beg);
void hp_report_dealloc_mismatch(uptr p, uptr fp, const char *alloc_op,
                                const char *free_op);
/* p is the start of a chunk whose header's state byte is neither
 * allocated nor freed: overwritten.  below: the header of the live chunk
 * right below p's block (its user start below_beg), when there is one: a
 * write past its end is the likely cause. */
void hp_report_corrupt_header(uptr p, uptr fp, const char *op, u8 state,
                              uptr below_beg,
                              const hp_chunk_header_t *below);
/* Writes a symbolized stack (frames indented, numbered) to fd.  Under the
 * report lock: a report's (heapprof_report.c). */
void hp_print_stack(int fd, const uptr *pcs, u32 n);

#endif
