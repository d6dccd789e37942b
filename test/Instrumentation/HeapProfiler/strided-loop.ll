; A loop walking an array with a constant stride: the load's update leaves
; the loop.  The iterations that ran it are counted in a register
; (%heapprof.iters), and at the exit, when there were any, the walk from
; its start (computed in the preheader) is recorded: one "+N" update when
; its first and last access share a granule, else __heapprof_record_strided
; (start, stride 8, N accesses, 1 count each).  -heapprof-strided-loops=0
; keeps the update in the loop.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='function(heapprof)' -S %s | FileCheck %s
; RUN: %opt_heapprof -passes='function(heapprof)' -heapprof-strided-loops=0 -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; s += a[i] for i < n, entered when n > 0 (the pass makes the preheader
; and the dedicated exit block).
define double @sum(ptr %a, i64 %n) {
entry:
  %empty = icmp sle i64 %n, 0
  br i1 %empty, label %done, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds double, ptr %a, i64 %i
  %v = load double, ptr %p, align 8
  %s.next = fadd double %s, %v
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %r = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  ret double %r
}
; CHECK-LABEL: define double @sum(
; CHECK:       loop.preheader:
; CHECK-NEXT:    %heapprof.walk.start = freeze ptr %a
; CHECK:       loop:
; CHECK-NEXT:    %heapprof.iters.0 = phi i64 [ 0, %loop.preheader ], [ %heapprof.iters.next, %loop ]
; CHECK-NOT:     %heapprof.count
; CHECK:         %v = load double, ptr %p
; CHECK-NOT:     %heapprof.count
; CHECK:         %heapprof.iters.next = add i64 %heapprof.iters.0, 1
; CHECK-NEXT:    br i1 %more, label %loop, label %[[EXIT:.*]]
; CHECK:       [[EXIT]]:
; CHECK-NEXT:    %[[NZ:.*]] = icmp ne i64 %heapprof.iters.next, 0
; CHECK-NEXT:    br i1 %[[NZ]], label %[[WALK:.*]], label
; CHECK:       [[WALK]]:
; CHECK-NEXT:    %heapprof.walk.first = ptrtoint ptr %heapprof.walk.start to i64
; CHECK-NEXT:    %[[STEPS:.*]] = sub i64 %heapprof.iters.next, 1
; CHECK-NEXT:    %[[SPAN:.*]] = mul i64 %[[STEPS]], 8
; CHECK-NEXT:    %heapprof.walk.last = add i64 %heapprof.walk.first, %[[SPAN]]
; CHECK-NEXT:    %[[X:.*]] = xor i64 %heapprof.walk.first, %heapprof.walk.last
; CHECK-NEXT:    %heapprof.walk.short = icmp ult i64 %[[X]], 64
; CHECK-NEXT:    br i1 %heapprof.walk.short, label %[[ONE:.*]], label %[[CALL:.*]]
; CHECK:       [[ONE]]:
; CHECK-NEXT:    ptrtoint ptr %heapprof.walk.start to i64
; CHECK:         %[[OLD:.*]] = load i64, ptr %{{.*}}, align 8, !nosanitize
; CHECK-NEXT:    add i64 %[[OLD]], %heapprof.iters.next
; CHECK:       [[CALL]]:
; CHECK-NEXT:    call void @__heapprof_record_strided(i64 %heapprof.walk.first, i64 8, i64 %heapprof.iters.next, i64 1)
; CHECK:       done:
; CHECK:         ret double
; CHECK: declare void @__heapprof_record_strided(i64, i64, i64, i64)
; OFF-LABEL: define double @sum(
; OFF-NOT:       heapprof.iters
; OFF:         loop:
; OFF:           add i64 %heapprof.count{{.*}}, 1
; OFF-NEXT:      store
; OFF-NEXT:      %v = load double, ptr %p
; OFF-NOT:   __heapprof_record_strided
