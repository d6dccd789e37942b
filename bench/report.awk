# report.awk — turn build/bench/results.tsv into markdown tables.
#
#   awk -F'\t' -v section=main|alloc [-v summary_only=1] -f report.awk results.tsv
#
# Input, one line per run (bench/run.sh writes it):
#   1 section  2 workload  3 variant  4 phase (warm|run|notbuilt)  5 index
#   6 wall_s  7 cpu_s  8 peak_rss_kb  9 profile_bytes  10 profile_files
#   11 status (ok|timeout|exit:N|signal:N|noprofile|wrongoutput|not built: ...)
#   12 operations (alloc section: pairs, for ns/pair)  13 note
#   14 rss section: resident KiB after the program's first phase of frees
# The first variant of a workload is its baseline for the ratios.
# Portable awk (Debian's default is mawk: no asort).

function med(key, field,    n, i, j, t, a) {
  n = cnt[key]
  if (n == 0) return ""
  for (i = 1; i <= n; i++) a[i] = val[key, field, i] + 0
  for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
  if (field == "wall") { lo[key] = a[1]; hi[key] = a[n] }
  if (field == "cpu") locpu[key] = a[1]
  return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function fs(x) { return x == "" ? "—" : (x < 1 ? sprintf("%.3f", x) : (x < 10 ? sprintf("%.2f", x) : sprintf("%.1f", x))) }
function fmib(kb) { return kb == "" ? "—" : sprintf("%.1f MiB", kb / 1024) }
function fbytes(b) {
  if (b == "") return "—"
  if (b < 1024) return sprintf("%d B", b)
  if (b < 1048576) return sprintf("%.1f KiB", b / 1024)
  return sprintf("%.1f MiB", b / 1048576)
}
function fx(r) { return r == "" ? "—" : (r < 10 ? sprintf("%.2f×", r) : (r < 100 ? sprintf("%.1f×", r) : sprintf("%.0f×", r))) }
function ratio(a, b) { return (a == "" || b == "" || b + 0 == 0) ? "" : a / b }
# What to print instead of numbers when a variant has none, else "".
function problem(key) {
  if (key in nb) return nb[key]
  if (cnt[key] == 0) return (key in bad) ? bad[key] : "no runs"
  return ""
}
function flag(key) { return (key in bad) ? " (" bad[key] ")" : "" }

$1 == section {
  w = $2; v = $3; key = w SUBSEP v
  if (!(w in seenw)) { seenw[w] = 1; order[++nw] = w }
  if (!((w, v) in seenv)) { seenv[w, v] = 1; vorder[w, ++nv[w]] = v }
  ops[key] = $12
  if ($4 == "notbuilt") { nb[key] = $11; next }
  if ($11 != "ok" && !(key in bad)) bad[key] = ($11 == "noprofile" ? "EMPTY PROFILE" : ($11 == "wrongoutput" ? "WRONG OUTPUT" : $11))
  if ($4 != "run") next
  if ($11 != "ok" && $11 != "noprofile" && $11 != "wrongoutput") next
  n = ++cnt[key]
  val[key, "wall", n] = $6; val[key, "cpu", n] = $7; val[key, "rss", n] = $8; val[key, "bytes", n] = $9
  val[key, "after", n] = $14
}

END {
  if (nw == 0) { print "(no workloads were measured)"; exit }
  for (i = 1; i <= nw; i++) {
    w = order[i]
    for (j = 1; j <= nv[w]; j++) {
      key = w SUBSEP vorder[w, j]
      mw[key] = med(key, "wall"); mc[key] = med(key, "cpu"); mr[key] = med(key, "rss"); mb[key] = med(key, "bytes")
      ma[key] = med(key, "after")
    }
  }
  if (section == "alloc") { alloc_table(); exit }
  if (section == "rss") { rss_table(); exit }
  summary_table()
  if (summary_only) exit
  print ""
  detail_table()
}

function summary_table(    i, w, b, j, v, key, p, line) {
  print "| workload | baseline wall | baseline peak | upstream wall | upstream cpu | upstream peak | upstream profile | heapprof wall | heapprof cpu | heapprof cpu, fastest runs | heapprof peak | heapprof profile |"
  print "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
  for (i = 1; i <= nw; i++) {
    w = order[i]; b = w SUBSEP "base"
    p = problem(b)
    line = "| `" w "` | " (p != "" ? p : fs(mw[b]) " s" flag(b)) " | " (p != "" ? "—" : fmib(mr[b]))
    for (j = 1; j <= 2; j++) {
      v = (j == 1) ? "upstream" : "heapprof"; key = w SUBSEP v
      p = problem(key)
      if (p != "") line = line " | " p " | | | " (j == 2 ? " | " : "")
      else line = line " | **" fx(ratio(mw[key], mw[b])) "**" flag(key) " | " fx(ratio(mc[key], mc[b])) (j == 2 ? " | " fx(ratio(locpu[key], locpu[b])) : "") " | " fx(ratio(mr[key], mr[b])) " | " fbytes(mb[key])
    }
    print line " |"
  }
  geomean_line()
}

# The geometric mean of the cpu ratios over the rows that stand for real
# programs (Lua, SQLite, and the larson- and xmalloc-style servers): issue
# 13's "real programs" goal is read from it.  The fastest runs' ratios too:
# on a machine whose speed drifts during the run, the least disturbed run
# of each variant is the steadier comparison.
function geomean(v, fastest,    i, w, b, key, n, s, x, y) {
  n = 0; s = 0
  for (i = 1; i <= nw; i++) {
    w = order[i]
    if (w !~ /^(lua|sqlite|larson|xmalloc) /) continue
    b = w SUBSEP "base"; key = w SUBSEP v
    x = fastest ? locpu[key] : mc[key]; y = fastest ? locpu[b] : mc[b]
    if (problem(b) != "" || problem(key) != "" || y + 0 == 0 || x + 0 == 0) continue
    n++; s += log(x / y)
  }
  return n ? fx(exp(s / n)) " over " n : ""
}
function geomean_line(    up, hp, hpf, out) {
  up = geomean("upstream", 0); hp = geomean("heapprof", 0); hpf = geomean("heapprof", 1)
  out = ""
  if (up != "") out = "upstream " up
  if (hp != "") out = out (out == "" ? "" : ", ") "heapprof " hp " (by the fastest runs " hpf ")"
  if (out != "") { print ""; print "Geometric mean of the cpu ratios over the real-program rows (lua, sqlite, larson, xmalloc): " out "." }
}

function detail_table(    i, w, j, v, key, p) {
  print "| workload | variant | n | wall s: median (min–max) | cpu s | peak RSS | profile | status |"
  print "|---|---|--:|--:|--:|--:|--:|---|"
  for (i = 1; i <= nw; i++) {
    w = order[i]
    for (j = 1; j <= nv[w]; j++) {
      v = vorder[w, j]; key = w SUBSEP v
      p = problem(key)
      if (p != "") { print "| `" w "` | " v " | 0 | — | — | — | — | " p " |"; continue }
      print "| `" w "` | " v " | " cnt[key] " | " fs(mw[key]) " (" fs(lo[key]) "–" fs(hi[key]) ") | " fs(mc[key]) " | " fmib(mr[key]) " | " (v == "base" ? "—" : fbytes(mb[key])) " | " ((key in bad) ? bad[key] : "ok") " |"
    }
  }
}

function nsop(key) { return (mw[key] == "" || ops[key] + 0 == 0) ? "" : mw[key] * 1e9 / ops[key] }
function alloc_cell(key, base,    p, r) {
  p = problem(key)
  if (p != "") return p (key == base ? " | " : " | | ")
  if (key == base) return sprintf("%.1f", nsop(key)) flag(key) " | " fmib(mr[key])
  r = ratio(nsop(key), nsop(base))
  return sprintf("%.1f", nsop(key)) flag(key) " | " fx(r) " | " fmib(mr[key])
}
function alloc_table(    i, w, b) {
  print "| size × threads | glibc ns/pair | glibc peak | heapprof allocator alone (profiling=0) ns/pair | × glibc | peak | heapprof rt, profiling on ns/pair | × glibc | peak | MemProf rt ns/pair | × glibc | MemProf rt peak |"
  print "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
  for (i = 1; i <= nw; i++) {
    w = order[i]; b = w SUBSEP "glibc"
    print "| " w " | " alloc_cell(b, b) " | " (((w, "hpoff") in seenv) ? alloc_cell(w SUBSEP "hpoff", b) : "not run | | ") " | " alloc_cell(w SUBSEP "hprt", b) " | " (((w, "uprt") in seenv) ? alloc_cell(w SUBSEP "uprt", b) : "not run | | ") " |"
  }
}

function rss_cell(key, base,    p) {
  p = problem(key)
  if (p != "") return p (key == base ? " | | | " : " | | | | ")
  return fmib(mr[key]) flag(key) (key == base ? "" : " | " fx(ratio(mr[key], mr[base]))) " | " fmib(ma[key]) " | " fs(mc[key]) " s"
}
function rss_table(    i, w, b) {
  print "| workload | glibc peak | after phase 1 | cpu | heapprof peak | × glibc | after phase 1 | cpu | heapprof release_freed_pages=1 peak | × glibc | after phase 1 | cpu |"
  print "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
  for (i = 1; i <= nw; i++) {
    w = order[i]; b = w SUBSEP "glibc"
    print "| `" w "` | " rss_cell(b, b) " | " rss_cell(w SUBSEP "hprt", b) " | " rss_cell(w SUBSEP "hprel", b) " |"
  }
}
