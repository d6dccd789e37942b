; atomicrmw and cmpxchg are counted once each (as writes); atomic loads and
; stores are plain loads and stores.  -heapprof-instrument-atomics=0 turns
; off the first two only.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof),module(heapprof-module)' -S %s | FileCheck %s --check-prefixes=CHECK,ON
; RUN: %opt_heapprof -passes='function(heapprof),module(heapprof-module)' -heapprof-instrument-atomics=0 -S %s | FileCheck %s --check-prefixes=CHECK,OFF
; RUN: %opt_heapprof -passes='function(heapprof),module(heapprof-module)' -heapprof-use-callbacks -S %s | FileCheck %s --check-prefix=CALLS

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @rmw(ptr %p) {
  %old = atomicrmw add ptr %p, i32 1 seq_cst
  ret i32 %old
}
; CHECK-LABEL: define i32 @rmw(
; ON:            %[[A:[^ ]+]] = ptrtoint ptr %p to i64
; ON-NEXT:       and i64 %[[A]], -64
; ON:            %[[C:[^ ]+]] = load i64, ptr %[[SP:[^ ,]+]]
; ON-NEXT:       %[[C1:[^ ]+]] = add i64 %[[C]], 1
; ON-NEXT:       store i64 %[[C1]], ptr %[[SP]]
; ON-NEXT:       %old = atomicrmw add ptr %p, i32 1 seq_cst
; OFF-NOT:       ptrtoint
; OFF:           %old = atomicrmw add ptr %p, i32 1 seq_cst
; CHECK-NEXT:    ret i32 %old
; CALLS-LABEL: define i32 @rmw(
; CALLS:         %[[A:[^ ]+]] = ptrtoint ptr %p to i64
; CALLS-NEXT:    call void @__heapprof_store(i64 %[[A]])
; CALLS-NEXT:    atomicrmw

define { i64, i1 } @cmpxchg(ptr %p, i64 %old, i64 %new) {
  %r = cmpxchg ptr %p, i64 %old, i64 %new acq_rel monotonic
  ret { i64, i1 } %r
}
; CHECK-LABEL: define { i64, i1 } @cmpxchg(
; ON:            %[[A:[^ ]+]] = ptrtoint ptr %p to i64
; ON-NEXT:       and i64 %[[A]], -64
; ON:            add i64 %{{[^ ]+}}, 1
; ON-NEXT:       store i64
; ON-NEXT:       %r = cmpxchg ptr %p
; OFF-NOT:       ptrtoint
; OFF:           %r = cmpxchg ptr %p
; CHECK-NEXT:    ret
; CALLS-LABEL: define { i64, i1 } @cmpxchg(
; CALLS:         call void @__heapprof_store(i64
; CALLS-NEXT:    cmpxchg

define i64 @atomic_load_store(ptr %p, ptr %q) {
  %v = load atomic i64, ptr %p acquire, align 8
  store atomic i64 %v, ptr %q release, align 8
  ret i64 %v
}
; Counted whatever -heapprof-instrument-atomics says.
; CHECK-LABEL: define i64 @atomic_load_store(
; CHECK:         ptrtoint ptr %p to i64
; CHECK:         add i64 %{{[^ ]+}}, 1
; CHECK-NEXT:    store i64
; CHECK-NEXT:    %v = load atomic i64, ptr %p acquire
; CHECK-NEXT:    ptrtoint ptr %q to i64
; CHECK:         add i64 %{{[^ ]+}}, 1
; CHECK-NEXT:    store i64
; CHECK-NEXT:    store atomic i64 %v, ptr %q release
; CALLS-LABEL: define i64 @atomic_load_store(
; CALLS:         call void @__heapprof_load(i64
; CALLS-NEXT:    load atomic
; CALLS:         call void @__heapprof_store(i64
; CALLS-NEXT:    store atomic

; Atomics the code generator makes calls to libatomic's generic functions
; (aligned below their size, or over 16 bytes) are left to the runtime's
; definitions of those, which count them: nothing here.  A non-atomic
; misaligned load, and an aligned 16-byte atomic (a cmpxchg16b, or
; libatomic's sized __atomic_load_16, which copies nothing), still count.
define i64 @misaligned(ptr %p, ptr %q, ptr %r, ptr %s) {
  %v = load atomic i64, ptr %p seq_cst, align 1
  store atomic i32 5, ptr %q seq_cst, align 2
  %o = atomicrmw add ptr %p, i64 3 seq_cst, align 4
  %x = cmpxchg ptr %q, i32 5, i32 7 seq_cst seq_cst, align 1
  %w = load i64, ptr %r, align 1
  %z = load atomic i128, ptr %s seq_cst, align 16
  %t = trunc i128 %z to i64
  %a = add i64 %v, %o
  %b = add i64 %a, %w
  %c = add i64 %b, %t
  ret i64 %c
}
; CHECK-LABEL: define i64 @misaligned(
; CHECK-NOT:     ptrtoint ptr %p
; CHECK-NOT:     ptrtoint ptr %q
; CHECK:         %v = load atomic i64, ptr %p seq_cst, align 1
; CHECK-NEXT:    store atomic i32 5, ptr %q seq_cst, align 2
; CHECK-NEXT:    %o = atomicrmw add ptr %p, i64 3 seq_cst, align 4
; CHECK-NEXT:    %x = cmpxchg ptr %q, i32 5, i32 7 seq_cst seq_cst, align 1
; CHECK-NEXT:    ptrtoint ptr %r to i64
; CHECK:         %w = load i64, ptr %r, align 1
; CHECK-NEXT:    ptrtoint ptr %s to i64
; CHECK:         %z = load atomic i128, ptr %s seq_cst, align 16
