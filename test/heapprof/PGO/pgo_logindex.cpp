// logindex: a small C++ program (std::string, std::vector and
// std::unordered_map churn) through the PGO loop of docs/pgo.md, built
// with heapprof, profiled, and compiled again with the profile.
//
// A small log indexer.
//
// It reads a configuration, opens sessions, and then serves requests in
// batches: each request line is split into tokens, each token counted in an
// index, and each batch builds a histogram. Every allocation of the program
// is made by one of the noinline functions below, so each has one call of
// operator new (or of a libstdc++ routine that calls it) of its own:
//
//   load_config       std::unordered_map<std::string, std::string>: built at
//                     start, read never again. Long-lived, untouched: cold.
//   open_session      new Session: a session's counters, bumped on every
//                     request and read 64 times a batch per histogram slot
//                     (5.2 million accesses / 768 bytes / 1.3 s): hot.
//   session_meta      new SessionMeta (48 bytes, like a Session; two 8-byte
//                     stores at open, never read): 2 accesses / 48 bytes /
//                     1.3 s = 0.03 a byte-second, under 0.05: cold.
//                     (Upstream MemProf 19 counted 4 stores an object, 0.05:
//                     notcold.)
//   tokenize          std::vector<std::string> of one line's tokens: freed
//                     at the end of the request: short-lived: notcold.
//   index_token       std::unordered_map<std::string, Posting> nodes and
//                     their std::vector<int> postings: live to the end,
//                     read and grown on every request.
//   batch_histogram   std::vector<uint32_t>(4096): read and written 64 times
//                     a slot within milliseconds (32 accesses a byte),
//                     then freed: hot.
//   load_config's      the map object itself (56 bytes, 2844 accesses while
//   new Config        it is filled, 1.3 s): 37 a byte-second: notcold.
//
// Arguments: [REQUESTS [SLEEP_MS]]; the batches are spread over SLEEP_MS
// milliseconds (default 1300) so that the long-lived objects live past the
// 1 s cold lifetime set with -mllvm -memprof-ave-lifetime-cold-threshold=1.
// std::string's own allocations are in libstdc++.so's code (its
// extern template), which the use compile cannot annotate.
//
// REQUIRES: heapprof-driver
// RUN: %clangxx_heapprof -O2 %s -o %t.instr
// RUN: rm -rf %t.dir
// RUN: %env_heapprof_opts=profile_dir=%t.dir:print_raw=1:print_text=0 %run %t.instr | FileCheck %s --check-prefix=OUT
// RUN: llvm-profdata merge %t.dir/*.profraw --profiled-binary %t.instr -o %t.memprofdata
// RUN: %clangxx_plain -O2 -gline-tables-only -fdebug-info-for-profiling \
// RUN:   -fmemory-profile-use=%t.memprofdata \
// RUN:   -mllvm -memprof-ave-lifetime-cold-threshold=1 \
// RUN:   -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=HIST < %t.ll
//
// The hinted build, linked with heapprof's hot/cold operator new: the 16
// SessionMeta objects come from the cold regions (a short run: 400
// requests, no sleep).
// RUN: %clangxx_heapprof -O2 -fmemory-profile-use=%t.memprofdata \
// RUN:   -mllvm -memprof-ave-lifetime-cold-threshold=1 -mllvm -optimize-hot-cold-new \
// RUN:   %s -o %t.use
// RUN: rm -rf %t.use.dir
// RUN: %env_heapprof_opts=profile_dir=%t.use.dir:print_raw=0:print_text=0:print_stats=1 %run %t.use 400 0 2>&1 | FileCheck %s --check-prefix=STATS
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace {

struct Session {
  uint64_t requests = 0;
  uint64_t bytes = 0;
  uint64_t tokens = 0;
  uint64_t errors = 0;
  uint64_t first = 0;
  uint64_t last = 0;
};

// Who opened the session: kept for a log line at exit that this build
// does not print.
struct SessionMeta {
  uint64_t opened;
  uint64_t client;
  char origin[32];
};

struct Posting {
  std::vector<int> lines;
  uint64_t hits = 0;
};

using Config = std::unordered_map<std::string, std::string>;
using Index = std::unordered_map<std::string, Posting>;

__attribute__((noinline)) Config *load_config(int entries) {
  auto *c = new Config;
  char key[64], value[96];
  for (int i = 0; i < entries; i++) {
    snprintf(key, sizeof key, "service.section%03d.parameter_name", i);
    snprintf(value, sizeof value, "value-of-parameter-%03d-with-some-padding", i);
    c->emplace(key, value);
  }
  return c;
}

__attribute__((noinline)) Session *open_session() { return new Session; }

__attribute__((noinline)) SessionMeta *session_meta(int id) {
  auto *m = new SessionMeta;
  m->opened = (uint64_t)id;
  m->client = (uint64_t)id * 7919;
  snprintf(m->origin, sizeof m->origin, "client-%d", id);
  return m;
}

// One request line: "<session> <verb> <path> <status> <words...>".
__attribute__((noinline)) std::string make_line(unsigned r) {
  static const char *const verbs[] = {"GET", "PUT", "POST", "DELETE"};
  static const char *const words[] = {"alpha", "beta", "gamma", "delta",
                                      "epsilon", "zeta", "eta", "theta"};
  std::string line = std::to_string(r % 16);
  line += ' ';
  line += verbs[r % 4];
  line += " /api/v1/resource/";
  line += std::to_string(r % 97);
  line += r % 13 ? " 200" : " 404";
  for (unsigned w = 0; w < 4 + r % 5; w++) {
    line += ' ';
    line += words[(r * 7 + w) % 8];
  }
  return line;
}

__attribute__((noinline)) std::vector<std::string> tokenize(const std::string &line) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < line.size()) {
    size_t j = line.find(' ', i);
    if (j == std::string::npos)
      j = line.size();
    out.emplace_back(line, i, j - i);
    i = j + 1;
  }
  return out;
}

__attribute__((noinline)) void index_token(Index &idx, const std::string &tok,
                                           int line) {
  Posting &p = idx[tok];
  p.hits++;
  p.lines.push_back(line);
}

__attribute__((noinline)) uint64_t batch_histogram(const std::vector<Session *> &s) {
  std::vector<uint32_t> hist(4096);
  for (unsigned round = 0; round < 64; round++)
    for (unsigned i = 0; i < hist.size(); i++)
      hist[i] += (uint32_t)(s[i % s.size()]->requests + round);
  uint64_t sum = 0;
  for (uint32_t h : hist)
    sum += h;
  return sum;
}

} // namespace

int main(int argc, char **argv) {
  unsigned requests = argc > 1 ? (unsigned)atoi(argv[1]) : 4000;
  unsigned sleep_ms = argc > 2 ? (unsigned)atoi(argv[2]) : 1300;
  const unsigned batches = 20;

  Config *config = load_config(200);
  std::vector<Session *> sessions;
  std::vector<SessionMeta *> metas;
  for (int i = 0; i < 16; i++) {
    sessions.push_back(open_session());
    metas.push_back(session_meta(i));
  }

  Index index;
  uint64_t check = 0;
  for (unsigned b = 0; b < batches; b++) {
    for (unsigned r = b * requests / batches; r < (b + 1) * requests / batches; r++) {
      std::string line = make_line(r);
      std::vector<std::string> toks = tokenize(line);
      Session *s = sessions[(unsigned)atoi(toks[0].c_str()) % sessions.size()];
      s->requests++;
      s->bytes += line.size();
      s->tokens += toks.size();
      s->last = r;
      if (toks[4] != "200")
        s->errors++;
      if (!s->first)
        s->first = r;
      for (size_t t = 1; t < toks.size(); t++)
        index_token(index, toks[t], (int)r);
    }
    check += batch_histogram(sessions);
    usleep(sleep_ms * 1000 / batches);
  }

  uint64_t postings = 0;
  for (auto &kv : index)
    postings += kv.second.lines.size() + kv.second.hits;
  printf("logindex: %zu keys, %llu postings, check %llu, config %zu\n",
         index.size(), (unsigned long long)postings, (unsigned long long)check,
         config->size());

  for (size_t i = 0; i < sessions.size(); i++) {
    delete sessions[i];
    delete metas[i];
  }
  delete config;
  return 0;
}
// OUT: logindex: 111 keys, 72000 postings

// CHECK-LABEL: define {{.*}} @_ZN12_GLOBAL__N_111load_configB5cxx11Ei(
// CHECK: call {{.*}} @_Znwm(i64 noundef 56) #[[CONFIG:[0-9]+]]
// CHECK-LABEL: define {{.*}} @_ZN12_GLOBAL__N_112open_sessionEv(
// CHECK: call {{.*}} @_Znwm(i64 noundef 48) #[[SESSION:[0-9]+]]
// CHECK-LABEL: define {{.*}} @_ZN12_GLOBAL__N_112session_metaEi(
// CHECK: call {{.*}} @_Znwm(i64 noundef 48) #[[META:[0-9]+]]
// CHECK-DAG: attributes #[[CONFIG]] = { {{.*}}"memprof"="notcold"
// CHECK-DAG: attributes #[[SESSION]] = { {{.*}}"memprof"="hot"
// CHECK-DAG: attributes #[[META]] = { {{.*}}"memprof"="cold"

// HIST-LABEL: define {{.*}} @_ZN12_GLOBAL__N_115batch_histogram
// HIST: call {{.*}} @_Znwm(i64 noundef 16384) #[[HIST:[0-9]+]]
// HIST: attributes #[[HIST]] = { {{.*}}"memprof"="hot"

// STATS: cold_allocs 16 allocations served from cold regions
