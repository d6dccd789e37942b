; A vectorized loop's body: two 16-byte halves per array and iteration, 16
; bytes apart, each advancing by 32.  The two walks of one array are one
; walk of stride 16 with 2 accesses an iteration, one record per array of
; 2 * (n.vec - 4) / 4 + 2 accesses, computed at the exit.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; for (i = 0; i < n.vec; i += 4), n.vec = n & -4 > 0: n.vec / 4
; iterations, 2 walks of n.vec / 2 accesses.
define void @copy(ptr noalias %dst, ptr noalias %src, i64 %n) {
entry:
  %n.vec = and i64 %n, -4
  %any = icmp ne i64 %n.vec, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s0 = getelementptr inbounds double, ptr %src, i64 %i
  %s1 = getelementptr inbounds i8, ptr %s0, i64 16
  %v0 = load <2 x double>, ptr %s0, align 8
  %v1 = load <2 x double>, ptr %s1, align 8
  %d0 = getelementptr inbounds double, ptr %dst, i64 %i
  %d1 = getelementptr inbounds i8, ptr %d0, i64 16
  store <2 x double> %v0, ptr %d0, align 8
  store <2 x double> %v1, ptr %d1, align 8
  %i.next = add nuw i64 %i, 4
  %last = icmp eq i64 %i.next, %n.vec
  br i1 %last, label %done, label %loop
done:
  ret void
}
; CHECK-LABEL: define void @copy(
; CHECK:       loop:
; CHECK-NOT:     %heapprof.count
; CHECK:       done.loopexit:
; CHECK-NEXT:    %[[M4:.*]] = add i64 %n.vec, -4
; CHECK-NEXT:    %[[ITERS1:.*]] = lshr i64 %[[M4]], 2
; CHECK-NEXT:    %[[TWICE:.*]] = shl nuw nsw i64 %[[ITERS1]], 1
; CHECK-NEXT:    %[[TOTAL:.*]] = add nuw i64 %[[TWICE]], 2
; CHECK-NEXT:    %heapprof.walk.start = freeze ptr %src
; CHECK-NEXT:    %heapprof.walk.start1 = freeze ptr %dst
; CHECK:         call preserve_allcc void @__heapprof_record_strided(i64 %heapprof.walk.first, i64 16, i64 %[[TOTAL]], i64 1)
; CHECK:         call preserve_allcc void @__heapprof_record_strided(i64 %heapprof.walk.first{{[0-9]+}}, i64 16, i64 %[[TOTAL]], i64 1)
; CHECK-NOT:     __heapprof_record_strided(
; CHECK:         ret void
