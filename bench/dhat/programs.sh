#!/bin/sh
# bench/dhat/programs.sh [DIR]: the comparison of docs/run.md, "Checked
# against DHAT": builds the two test programs, makes the inputs and runs
# every program through run.sh in DIR (default: a new directory under
# /tmp).  Needs valgrind, gcc, g++, sqlite3, lua5.4, python3, gawk, git, xz
# (make bench-deps installs them).  Not timed: it takes a few minutes,
# Valgrind's.
set -e
here=$(cd "$(dirname "$0")" && pwd)
missing=""
for c in valgrind gcc g++ cc readelf sqlite3 lua5.4 python3 gawk git xz; do
  command -v "$c" >/dev/null || missing="$missing $c"
done
if [ -n "$missing" ]; then
  echo "bench/dhat/programs.sh: error: not installed:$missing (make bench-deps installs them)" >&2
  exit 1
fi
dir=${1:-$(mktemp -d)}
mkdir -p "$dir" && cd "$dir"
echo "in $dir"
cp "$here/s.sql" "$here/s.lua" .
gcc -O2 -g -fomit-frame-pointer -pthread "$here/edge.c" -o edge
g++ -O2 -g -fomit-frame-pointer -pthread "$here/edge2.cpp" -o edge2 -ldl
g++ -O2 -g -fomit-frame-pointer "$here/cxx.cpp" -o cxx
seq 1 200000 > nums.txt
head -c 3000000 /dev/urandom | base64 > data.txt
R=$here/run.sh
echo "== sqlite3"; $R sqlite /usr/bin/sqlite3 :memory: ".read s.sql"
echo "== lua5.4"; $R lua /usr/bin/lua5.4 s.lua
echo "== python3"; $R py /usr/bin/python3 -c "import json,re; d={str(i):[i]*(i%5) for i in range(20000)}; s=json.dumps(d); print(len(s), len(re.findall(r'\d+', s)))"
echo "== gawk"; $R gawk /usr/bin/gawk '{a[$1 % 1000] = a[$1 % 1000] " " $1; s += length($0)} END {n=0; for (k in a) n += split(a[k], t, " "); print n, s, toupper(substr(a[7], 1, 20))}' nums.txt
echo "== git"; $R git /usr/bin/git --no-pager -C "$here" log -40 --stat
echo "== xz"; $R xz /usr/bin/xz -T2 -3 -c data.txt
echo "== cxx"; $R cxx ./cxx
echo "== edge"; $R edge ./edge
echo "== edge2"; $R edge2 ./edge2
