/*===- heapprof_timeline.h - the heap over time -------------------------===
 *
 * Part of heapprof.  The live heap's size (requested bytes) over the run,
 * in at most HP_TIMELINE_BUCKETS buckets of equal width: each holds the
 * lowest and highest size seen in its time and the last one.  The width
 * starts at one millisecond; when the run outgrows the buckets, neighbours
 * merge in pairs and the width doubles (as Valgrind's massif thins its
 * snapshots), so the memory is fixed and a spike inside a bucket stays in
 * its highest.
 *
 * The sizes are the peak tracker's (heapprof_peak.h): noted when a thread
 * publishes its pending bytes (every HP_PEAK_STEP of its net allocation),
 * the published total plus the bytes the other threads have not published
 * yet, so a heap that moves by less between notes shows as flat, and exactly at
 * every snapshot of the tracker (the peak, each dump).  Noting takes a try
 * lock: a thread that finds it busy (another thread noting, a signal
 * handler interrupting its own note) skips its note.  Recorded with the
 * peak tracker (peak=1); tag 9 of the extension (docs/formats.md).
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_TIMELINE_H
#define HEAPPROF_TIMELINE_H

#define HP_TIMELINE_BUCKETS 256

/* Notes the live heap's size at ms, the snapshot's time by the coarse clock
 * (negative sums count as 0).  The snapshot's own time, not a later read:
 * a dump's note read a millisecond after the dump's time fell in a bucket
 * after the run's span, and the chart's axis ended after the summary's
 * "time span". */
void hp_timeline_note(s64 live, u32 ms);

/* Tag 9: u64 bucket width in ms, u64 n, then n buckets with a note in
 * ascending order, each u64 index (it covers [index x width, (index + 1) x
 * width) ms since start), u64 lowest, u64 highest, u64 last size. */
struct hp_profile_info;
void hp_timeline_write_section(hp_buf_t *b,
                               const struct hp_profile_info *info);

/* A fork child's timeline starts afresh, like its peak. */
void hp_timeline_fork_child(void);

#endif
