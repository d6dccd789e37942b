// app.cpp of docs/pgo.md's loop (pgo-loop.test): one operator new[] site
// whose 64-byte object is written 10000 times and freed at once. Its
// lifetime access density is 10000 / 64 bytes over at most a millisecond
// (clang divides by max(lifetime_ms, 1)): at least 156,250 accesses per
// byte-second, far above the hot threshold (1000), so the use compile
// marks the call hot and, with -optimize-hot-cold-new, calls
// operator new[](size_t, __hot_cold_t).
__attribute__((noinline)) char *make_hot(unsigned long n) { return new char[n]; }

int main() {
  char *volatile h = make_hot(64);
  for (int r = 0; r < 10000; r++)
    h[r % 64] = (char)r;
  delete[] h;
  return 0;
}
