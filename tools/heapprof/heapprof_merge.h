/*===- heapprof_merge.h - heapprof merge ---------------------------------===
 *
 * Part of heapprof's tools.  See heapprof_merge.c.  Callable from C and C++
 * dispatchers alike.
 *===----------------------------------------------------------------------===*/
#ifndef HEAPPROF_MERGE_H
#define HEAPPROF_MERGE_H

#ifdef __cplusplus
extern "C" {
#endif

/* The command's usage text. */
extern const char heapprof_merge_usage[];
/* `heapprof merge` with its arguments (after the command name); returns
 * the exit status: 0, 1 on bad input, 2 on a usage error. */
int heapprof_merge_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
