"""Writes a C program with A*B*C distinct allocation contexts, for
measuring heapprof's commands on a real (not grown) profile: main calls
each of A functions a_i for every (j, k); a_i calls b_j from its own call
site for each j (a switch of B calls); b_j has C malloc call sites (a
switch on k).  Stacks main -> a_i -> b_j -> malloc site are all distinct.
Each context allocates twice, frees the first and keeps 1 in 7 of the
second.  Build it with -O0 (an optimiser merges the switch's calls).

usage: gen-contexts.py OUT.c [A B C]   (default 100 100 24: 240,000)
"""
import sys

out = sys.argv[1]
A, B, C = (int(x) for x in sys.argv[2:5]) if len(sys.argv) > 4 else (100, 100, 24)
o = ["#include <stdlib.h>", "#include <string.h>",
     "void *volatile sink[%d];" % (A * B * C), "static unsigned n;"]
for j in range(B):
    o.append("void b%d(int k, int keep) { void *p; switch (k) {" % j)
    o += [" case %d: p = malloc(%d); break;" % (k, 16 + 8 * ((j * C + k) % 64))
          for k in range(C)]
    o.append(" default: return; }")
    o.append(" memset(p, 1, 16); if (keep) sink[n++] = p; else free(p); }")
for i in range(A):
    o.append("void a%d(int j, int k, int keep) { switch (j) {" % i)
    o += [" case %d: b%d(k, keep); break;" % (j, j) for j in range(B)]
    o.append(" } }")
o.append("int main(void) { for (int r = 0; r < 2; r++)"
         " for (int j = 0; j < %d; j++) for (int k = 0; k < %d; k++) {" % (B, C))
o += ["  a%d(j, k, r == 1 && (j + k) %% 7 == 0);" % i for i in range(A)]
o.append("} return 0; }")
open(out, "w").write("\n".join(o) + "\n")
