// The cold candidates are grouped by call chain, as the leak and peak
// tables group theirs: contexts that differ only past --depth frames (a
// wrapper's callers' callers; yaml-cpp's scalars, parsed by two threads,
// std::string::operator= <- node_data::set_scalar <- node_ref::set_scalar)
// were two rows that read the same, each with its part of the bytes.
// make_widget allocates 1000 bytes and stores 1 byte into them (1 access,
// 125 words: cold), reached through use from from_a (30 times) and from_b
// (10 times): at --depth 2 both contexts read make_widget <- use.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %clang_heapprof -O0 -g %s -o %t
// RUN: %env_heapprof_opts=profile_dir=%t.d %run %t
// RUN: heapprof report --depth 2 %t.d | FileCheck %s
// RUN: heapprof report --depth 3 %t.d | FileCheck %s --check-prefix=DEPTH3
// RUN: heapprof report --depth 2 --format json %t.d | %python -c "import json,sys; r=json.load(sys.stdin); print(r['version']); [print('cold', c['bytes'], c['allocs'], c['accesses'], c['contexts'], [f['function'] for f in c['chain']]) for c in r['cold']]" | FileCheck %s --check-prefix=JSON
#include <stdlib.h>

__attribute__((noinline)) static char *make_widget(void) {
  char *volatile p = malloc(1000);
  p[0] = 1;
  return p;
}

__attribute__((noinline)) static void use(void) { free(make_widget()); }

__attribute__((noinline)) static void from_a(void) { use(); }

__attribute__((noinline)) static void from_b(void) { use(); }

int main(void) {
  for (int i = 0; i < 30; i++)
    from_a();
  for (int i = 0; i < 10; i++)
    from_b();
  return 0;
}

// One row: 40 objects, 40,000 bytes (39.1 KiB), 1 access each, 40 accesses
// to 40,000 bytes a density of 0.1 per 100 bytes (before: 29.3 KiB in 30
// and 9.8 KiB in 10, both "make_widget (...) <- use (...)").
// CHECK: == Cold candidates
// CHECK-NEXT: bytes objects acc/object density lifetime ms call chain
// CHECK-NEXT: 39.1 KiB 40 1.0 0.1 {{[0-9.]+}} make_widget ({{.*}}report-cold-chains.c:18:{{[0-9]+}}) <- use ({{.*}}report-cold-chains.c:23:{{[0-9]+}}){{$}}
// CHECK-NOT: make_widget
// CHECK: == Heap utilization
// At --depth 3 the chains differ: two rows.
// DEPTH3: == Cold candidates
// DEPTH3-NEXT: bytes objects
// DEPTH3-NEXT: 29.3 KiB 30 1.0 0.1 {{[0-9.]+}} make_widget ({{.*}}) <- use ({{.*}}) <- from_a (
// DEPTH3-NEXT: 9.8 KiB 10 1.0 0.1 {{[0-9.]+}} make_widget ({{.*}}) <- use ({{.*}}) <- from_b (
// JSON: 5
// JSON-NEXT: cold 40000 40 40 2 ['make_widget', 'use']
// JSON-NOT: cold
