; Loads and stores of non-stack, non-global memory: each adds 1 to the u64
; counter of the 64-byte granule holding its first byte, whatever its width.
; The shadow base is loaded once, at the top of the entry block.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof),module(heapprof-module)' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Not PIC (no "PIC Level" module flag): the base may be dso_local (pic.ll).
; CHECK: @__heapprof_shadow_memory_dynamic_address = external dso_local global i64

define i32 @load(ptr %p) {
entry:
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
; CHECK-LABEL: define i32 @load(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %[[BASE:[^ ]+]] = load i64, ptr @__heapprof_shadow_memory_dynamic_address, align 8
; CHECK-NEXT:    %[[A:[^ ]+]] = ptrtoint ptr %p to i64
; CHECK-NEXT:    %[[G:[^ ]+]] = and i64 %[[A]], -64
; CHECK-NEXT:    %[[O:[^ ]+]] = lshr i64 %[[G]], 3
; CHECK-NEXT:    %[[S:[^ ]+]] = add i64 %[[O]], %[[BASE]]
; CHECK-NEXT:    %[[SP:[^ ]+]] = inttoptr i64 %[[S]] to ptr
; CHECK-NEXT:    %[[C:[^ ]+]] = load i64, ptr %[[SP]], align 8
; CHECK-NEXT:    %[[C1:[^ ]+]] = add i64 %[[C]], 1
; CHECK-NEXT:    store i64 %[[C1]], ptr %[[SP]], align 8
; CHECK-NEXT:    %v = load i32, ptr %p, align 4
; CHECK-NEXT:    ret i32 %v

define void @store(ptr %p, i64 %x) {
entry:
  store i64 %x, ptr %p, align 8
  ret void
}
; CHECK-LABEL: define void @store(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %[[BASE:[^ ]+]] = load i64, ptr @__heapprof_shadow_memory_dynamic_address
; CHECK-NEXT:    %[[A:[^ ]+]] = ptrtoint ptr %p to i64
; CHECK-NEXT:    %[[G:[^ ]+]] = and i64 %[[A]], -64
; CHECK-NEXT:    %[[O:[^ ]+]] = lshr i64 %[[G]], 3
; CHECK-NEXT:    %[[S:[^ ]+]] = add i64 %[[O]], %[[BASE]]
; CHECK-NEXT:    %[[SP:[^ ]+]] = inttoptr i64 %[[S]] to ptr
; CHECK-NEXT:    %[[C:[^ ]+]] = load i64, ptr %[[SP]]
; CHECK-NEXT:    %[[C1:[^ ]+]] = add i64 %[[C]], 1
; CHECK-NEXT:    store i64 %[[C1]], ptr %[[SP]]
; CHECK-NEXT:    store i64 %x, ptr %p, align 8
; CHECK-NEXT:    ret void

; The counted address is the access's own (first byte), here p+63; a 64-byte
; vector load is still one access.
define <8 x i64> @first_byte_and_width(ptr %p) {
entry:
  %q = getelementptr inbounds i8, ptr %p, i64 63
  store i8 1, ptr %q, align 1
  %v = load <8 x i64>, ptr %p, align 8
  ret <8 x i64> %v
}
; CHECK-LABEL: define <8 x i64> @first_byte_and_width(
; CHECK:         %[[BASE:[^ ]+]] = load i64, ptr @__heapprof_shadow_memory_dynamic_address
; CHECK:         %q = getelementptr inbounds i8, ptr %p, i64 63
; CHECK-NEXT:    %[[A:[^ ]+]] = ptrtoint ptr %q to i64
; CHECK-NEXT:    and i64 %[[A]], -64
; CHECK:         add i64 %{{[^ ]+}}, 1
; CHECK-NEXT:    store i64
; CHECK-NEXT:    store i8 1, ptr %q
; CHECK-NEXT:    %[[B:[^ ]+]] = ptrtoint ptr %p to i64
; CHECK-NEXT:    and i64 %[[B]], -64
; CHECK:         add i64 %{{[^ ]+}}, 1
; CHECK-NEXT:    store i64
; CHECK-NEXT:    %v = load <8 x i64>, ptr %p
; CHECK-NOT:     add i64 %{{[^ ]+}}, 1
; CHECK:         ret <8 x i64> %v

; Accesses in other blocks use the entry block's base; there is one base load.
; (A list walk: an address with no stride, which keeps its update in the
; loop; strided-*.ll have the walks the pass records at the exit.)
define i64 @loop(ptr %p, i64 %n) {
entry:
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %sum = phi i64 [ 0, %entry ], [ %sum.next, %body ]
  %e = phi ptr [ %p, %entry ], [ %next, %body ]
  %x = load i64, ptr %e, align 8
  %sum.next = add i64 %sum, %x
  %np = getelementptr inbounds i8, ptr %e, i64 8
  %next = load ptr, ptr %np, align 8
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret i64 %sum.next
}
; CHECK-LABEL: define i64 @loop(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %[[BASE:[^ ]+]] = load i64, ptr @__heapprof_shadow_memory_dynamic_address
; CHECK-NEXT:    br label %body
; CHECK:       body:
; CHECK-NOT:     @__heapprof_shadow_memory_dynamic_address
; CHECK:         %[[A:[^ ]+]] = ptrtoint ptr %e to i64
; CHECK-NEXT:    %[[G:[^ ]+]] = and i64 %[[A]], -64
; CHECK-NEXT:    %[[O:[^ ]+]] = lshr i64 %[[G]], 3
; CHECK-NEXT:    add i64 %[[O]], %[[BASE]]
; CHECK:         %x = load i64, ptr %e
; CHECK-NOT:     @__heapprof_shadow_memory_dynamic_address
; CHECK:         ret i64

; Nothing to count: no base load at all.
define i32 @no_access(i32 %x) {
entry:
  %y = add i32 %x, 1
  ret i32 %y
}
; CHECK-LABEL: define i32 @no_access(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %y = add i32 %x, 1
; CHECK-NEXT:    ret i32 %y
