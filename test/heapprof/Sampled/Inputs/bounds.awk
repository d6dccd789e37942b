# Reads "SITE allocs=A bytes=B frees=F accesses=X" lines (site-accesses.py)
# for estimates-new.cpp and prints "SITE ok" when A lies within the site's
# 5-sigma bounds, B / A is the site's size and (for the site kept to exit)
# nothing was freed; else what is wrong.
BEGIN {
  lo["site_a"] = 181965; hi["site_a"] = 218035; size["site_a"] = 1000
  lo["site_b"] = 1808;   hi["site_b"] = 2192;   size["site_b"] = 65536
  lo["site_c"] = 864;    hi["site_c"] = 1136;   size["site_c"] = 65536
}
{
  split($2, a, "="); split($3, b, "="); split($4, f, "=")
  if (a[2] < lo[$1] || a[2] > hi[$1])
    print $1, "allocs", a[2], "outside", lo[$1], hi[$1]
  else if (b[2] != a[2] * size[$1])
    print $1, "bytes", b[2], "for", a[2], "objects of", size[$1]
  else if ($1 == "site_c" && f[2] != 0)
    print $1, "frees", f[2], "of objects kept to exit"
  else
    print $1, "ok"
}
