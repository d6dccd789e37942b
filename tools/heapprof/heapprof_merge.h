/*===- heapprof_merge.h - heapprof merge ---------------------------------===
 *
 * Part of heapprof's tools.  See heapprof_merge.c.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_MERGE_H
#define HEAPPROF_MERGE_H

/* `heapprof merge` with its arguments (after the command name); returns
 * the exit status. */
int heapprof_merge_main(int argc, char **argv);

#endif
