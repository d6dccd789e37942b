// clobber(): overwrites 16 KiB of the stack below its caller's frame, where
// the frames of the functions the caller called before lay, so that no
// stale copy of a pointer there is a root for the leak check.  The leak
// tests call it after the function that dropped their objects returns.
#ifndef HEAPPROF_TEST_CLOBBER_H
#define HEAPPROF_TEST_CLOBBER_H
#include <string.h>

__attribute__((noinline)) static void clobber(void) {
  volatile char buf[16384];
  memset((char *)buf, 0, sizeof buf);
}

#endif
