#!/bin/sh
# bench/dhat/run.sh NAME PROG ARGS... : runs PROG under Valgrind's DHAT and
# under heapprof run, and compares the two profiles context by context
# (compare.py).  Writes NAME.* in the current directory.  K (default 40):
# how many innermost frames key a context.  Not a timed run; see docs/run.md,
# "Checked against DHAT".
set -e
here=$(cd "$(dirname "$0")" && pwd)
missing=""
for c in valgrind cc readelf python3; do
  command -v "$c" >/dev/null || missing="$missing $c"
done
if [ -n "$missing" ]; then
  echo "bench/dhat/run.sh: error: not installed:$missing (make bench-deps installs them)" >&2
  exit 1
fi
heapprof=${HEAPPROF:-$here/../../build/bin/heapprof}
name=$1; shift
cc -O1 -shared -fPIC -Wl,-soname,libdhreshim.so "$here/realloc_shim.c" -o realloc_shim.so
rm -rf "hp.$name"
# The shim makes DHAT charge a realloc to the realloc call's stack, as
# heapprof does (DHAT charges it to the block's first allocation); Valgrind
# must not intercept the shim's realloc (nouserintercepts).  -v -v prints
# where each module was loaded (svma/avma), which compare.py reads.
LD_PRELOAD=$PWD/realloc_shim.so valgrind --tool=dhat -v -v --num-callers=50 \
  --soname-synonyms=somalloc=nouserintercepts \
  --dhat-out-file="$name.dhat" --log-file="$name.vglog" "$@" > "$name.vgout" 2>&1
HEAPPROF_OPTIONS=fold_recursion=0:malloc_context_size=50 \
  "$heapprof" run -o "hp.$name" -- "$@" > "$name.hpout" 2>&1
cmp -s "$name.vgout" "$name.hpout" || echo "note: the two runs' outputs differ"
python3 "$here/compare.py" "$heapprof" "hp.$name"/*.profraw "$name.dhat" "$name.vglog" "${K:-40}"
