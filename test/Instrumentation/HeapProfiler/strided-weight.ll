; a[i] += 1: the load and the store of one address share one "+2" update
; (consolidation), so the walk counts 2 per access: the sum is twice the
; iterations (max(n, 1), from scalar evolution), the walk fits its first
; granule while the sum is at most twice the accesses that fit, and the
; record's last argument is 2.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @bump(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds i64, ptr %a, i64 %i
  %v = load i64, ptr %p, align 8
  %w = add i64 %v, 1
  store i64 %w, ptr %p, align 8
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
; CHECK-LABEL: define void @bump(
; CHECK:       loop:
; CHECK-NOT:     %heapprof.count
; CHECK:       done:
; CHECK-NEXT:    %umax = call i64 @llvm.umax.i64(i64 %n, i64 1)
; CHECK-NEXT:    %[[SUM:.*]] = shl i64 %umax, 1
; CHECK:         %[[FIT:.*]] = udiv i64 %{{.*}}, 8
; CHECK-NEXT:    %[[TWICE:.*]] = mul i64 %[[FIT]], 2
; CHECK-NEXT:    %heapprof.walk.short = icmp ule i64 %[[SUM]], %[[TWICE]]
; CHECK:         add i64 %heapprof.count, %[[SUM]]
; CHECK:         call preserve_allcc void @__heapprof_record_strided(i64 %heapprof.walk.first, i64 8, i64 %[[SUM]], i64 2)
