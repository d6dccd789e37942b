; A walk with a stride above the granule (80-byte elements): recorded the
; same way; the runtime gives each access its own granule.  The loop runs
; max(n, 1) iterations (scalar evolution's count, computed at the exit).
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.big = type { i64, [72 x i8] }

; s += b[i].key for i < n.
define i64 @keys(ptr %b, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds %struct.big, ptr %b, i64 %i
  %v = load i64, ptr %p, align 8
  %s.next = add i64 %s, %v
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret i64 %s.next
}
; CHECK-LABEL: define i64 @keys(
; CHECK:       loop:
; CHECK-NOT:     %heapprof.count
; CHECK:       done:
; CHECK-NEXT:    %umax = call i64 @llvm.umax.i64(i64 %n, i64 1)
; CHECK-NEXT:    %heapprof.walk.start = freeze ptr %b
; CHECK:         %[[ROOM:.*]] = sub i64 143, %{{.*}}
; CHECK-NEXT:    udiv i64 %[[ROOM]], 80
; CHECK:         %heapprof.walk.short = icmp ule i64 %umax,
; CHECK:         call preserve_allcc void @__heapprof_record_strided(i64 %heapprof.walk.first, i64 80, i64 %umax, i64 1)
