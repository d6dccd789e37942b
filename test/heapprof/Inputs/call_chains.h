// call_chains: thousands of distinct allocation contexts from one loop
// (TestCases/dump_map_in_place.c, TestCases/profile_streamed.c,
// Security/seccomp_spill_growth.c).  call_chain(bits) goes down
// CALL_CHAIN_BITS levels of functions, each calling the next from one of
// two call sites (the lowest bit of what it is given picks which, the rest
// goes on down), to the test's own call_chain_leaf(bits).  Each value of
// bits below 2^CALL_CHAIN_BITS makes a different stack; higher bits are
// ignored.  Every stack has CALL_CHAIN_BITS + 1 frames (the levels and the
// leaf) above call_chain's caller.
//
// The including test defines CALL_CHAIN_BITS (1 to 16) and
//   static void call_chain_leaf(unsigned bits);
// after the #include, and builds at -O0 (the two call sites of a level
// must stay two).  Its frames are call_chain_<n>, n levels above the leaf.
#ifndef HEAPPROF_TEST_CALL_CHAINS_H
#define HEAPPROF_TEST_CALL_CHAINS_H

#if !defined(CALL_CHAIN_BITS) || CALL_CHAIN_BITS < 1 || CALL_CHAIN_BITS > 16
#error "define CALL_CHAIN_BITS (1 to 16) before including call_chains.h"
#endif

__attribute__((noinline)) static void call_chain_leaf(unsigned bits);

// Level n calls level n - 1 (level 0 is the leaf).  The levels above
// CALL_CHAIN_BITS are never called: unused, not a warning.
#define CALL_CHAIN_LEVEL(n, next)                                              \
  __attribute__((noinline, unused)) static void call_chain_##n(               \
      unsigned bits) {                                                         \
    if (bits & 1)                                                              \
      next(bits >> 1);                                                         \
    else                                                                       \
      next(bits >> 1);                                                         \
  }
CALL_CHAIN_LEVEL(1, call_chain_leaf)
CALL_CHAIN_LEVEL(2, call_chain_1)
CALL_CHAIN_LEVEL(3, call_chain_2)
CALL_CHAIN_LEVEL(4, call_chain_3)
CALL_CHAIN_LEVEL(5, call_chain_4)
CALL_CHAIN_LEVEL(6, call_chain_5)
CALL_CHAIN_LEVEL(7, call_chain_6)
CALL_CHAIN_LEVEL(8, call_chain_7)
CALL_CHAIN_LEVEL(9, call_chain_8)
CALL_CHAIN_LEVEL(10, call_chain_9)
CALL_CHAIN_LEVEL(11, call_chain_10)
CALL_CHAIN_LEVEL(12, call_chain_11)
CALL_CHAIN_LEVEL(13, call_chain_12)
CALL_CHAIN_LEVEL(14, call_chain_13)
CALL_CHAIN_LEVEL(15, call_chain_14)
CALL_CHAIN_LEVEL(16, call_chain_15)
#undef CALL_CHAIN_LEVEL

// call_chain(bits): the level CALL_CHAIN_BITS, called directly (no frame
// of its own).
#define CALL_CHAIN_TOP_(n) call_chain_##n
#define CALL_CHAIN_TOP(n) CALL_CHAIN_TOP_(n)
#define call_chain CALL_CHAIN_TOP(CALL_CHAIN_BITS)

#endif
