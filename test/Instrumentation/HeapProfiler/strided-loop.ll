; A loop walking an array with a constant stride: the load's update leaves
; the loop.  Scalar evolution knows how many iterations ran when the loop
; leaves (n: it is entered with n > 0), so nothing is added to the loop:
; at the exit, when N = n is not zero, the walk from its start (computed
; there) is recorded: one "+N" update when N accesses fit in the start's
; granule (F = (71 - start % 64) / 8 of them), two updates when they fit in
; that one and the next (F + 8: +F there, +(N - F) on the granule of the
; F-th access), one update per granule in a loop when they span at most 8
; granules (the lowest gets its share, the highest the rest, those between
; 8 each), else __heapprof_record_strided(start, stride 8, N, 1 each),
; called with the preserve_all convention.  (Without a known count a register sums them:
; strided-unknown-trip-count.ll.)  -heapprof-strided-loops=0 keeps the
; update in the loop.
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
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK-NEXT:    %i = phi i64
; CHECK-NEXT:    %s = phi double
; CHECK-NEXT:    %p = getelementptr inbounds double, ptr %a, i64 %i
; CHECK-NEXT:    %v = load double, ptr %p
; CHECK-NEXT:    %s.next = fadd double %s, %v
; CHECK-NEXT:    %i.next = add nuw nsw i64 %i, 1
; CHECK-NEXT:    %more = icmp slt i64 %i.next, %n
; CHECK-NEXT:    br i1 %more, label %loop, label %[[EXIT:.*]]
; CHECK:       [[EXIT]]:
; CHECK-NEXT:    %heapprof.walk.start = freeze ptr %a
; CHECK-NEXT:    %[[NZ:.*]] = icmp ne i64 %n, 0
; CHECK-NEXT:    br i1 %[[NZ]], label %[[WALK:.*]], label
; CHECK:       [[WALK]]:
; CHECK-NEXT:    %heapprof.walk.first = ptrtoint ptr %heapprof.walk.start to i64
; CHECK-NEXT:    %[[LOW:.*]] = and i64 %heapprof.walk.first, 63
; CHECK-NEXT:    %[[ROOM:.*]] = sub i64 71, %[[LOW]]
; CHECK-NEXT:    %[[FIT:.*]] = udiv i64 %[[ROOM]], 8
; CHECK-NEXT:    %heapprof.walk.short = icmp ule i64 %n, %[[FIT]]
; CHECK-NEXT:    br i1 %heapprof.walk.short, label %[[ONE:.*]], label %[[MORE:.*]]
; CHECK:       [[ONE]]:
; CHECK-NEXT:    ptrtoint ptr %heapprof.walk.start to i64
; CHECK:         %[[OLD:.*]] = load i64, ptr %{{.*}}, align 8, !nosanitize
; CHECK-NEXT:    add i64 %[[OLD]], %n
; CHECK:       [[MORE]]:
; CHECK-NEXT:    %[[BOUND:.*]] = add i64 %[[FIT]], 8
; CHECK-NEXT:    %heapprof.walk.two = icmp ule i64 %n, %[[BOUND]]
; CHECK-NEXT:    br i1 %heapprof.walk.two, label %[[TWO:.*]], label %[[MORE2:.*]]
; CHECK:       [[TWO]]:
; CHECK-NEXT:    ptrtoint ptr %heapprof.walk.start to i64
; CHECK:         %[[OLD1:.*]] = load i64, ptr %{{.*}}, align 8, !nosanitize
; CHECK-NEXT:    add i64 %[[OLD1]], %[[FIT]]
; CHECK:         %[[SKIP:.*]] = mul i64 %[[FIT]], 8
; CHECK-NEXT:    %[[SECOND:.*]] = getelementptr i8, ptr %heapprof.walk.start, i64 %[[SKIP]]
; CHECK-NEXT:    %[[REST:.*]] = sub i64 %n, %[[FIT]]
; CHECK-NEXT:    ptrtoint ptr %[[SECOND]] to i64
; CHECK:         %[[OLD2:.*]] = load i64, ptr %{{.*}}, align 8, !nosanitize
; CHECK-NEXT:    add i64 %[[OLD2]], %[[REST]]
; CHECK:       [[MORE2]]:
; CHECK-NEXT:    %[[STEPS:.*]] = sub i64 %n, 1
; CHECK-NEXT:    %[[SPAN:.*]] = mul i64 %[[STEPS]], 8
; CHECK-NEXT:    %heapprof.walk.hi = add i64 %heapprof.walk.first, %[[SPAN]]
; CHECK:         %[[C0:.*]] = add i64 %{{.*}}, %heapprof.shadow.base
; CHECK:         %[[C1:.*]] = add i64 %{{.*}}, %heapprof.shadow.base
; CHECK-NEXT:    %[[INNER:.*]] = sub i64 %[[C1]], %[[C0]]
; CHECK-NEXT:    %heapprof.walk.few = icmp ule i64 %[[INNER]], 56
; CHECK-NEXT:    br i1 %heapprof.walk.few, label %[[FEW:.*]], label %[[CALL:.*]]
; CHECK:       [[FEW]]:
; CHECK:         %[[IN0:.*]] = add i64 %{{.*}}, 1
; CHECK:         inttoptr i64 %[[C0]] to ptr
; CHECK-NEXT:    %[[OLD3:.*]] = load i64
; CHECK-NEXT:    add i64 %[[OLD3]], %[[IN0]]
; CHECK:         inttoptr i64 %[[C1]] to ptr
; CHECK:         %[[MID:.*]] = add i64 %[[C0]], 8
; CHECK-NEXT:    %[[ANY:.*]] = icmp ult i64 %[[MID]], %[[C1]]
; CHECK-NEXT:    br i1 %[[ANY]], label %[[LOOP:.*]], label
; CHECK:       [[LOOP]]:
; CHECK-NEXT:    %heapprof.walk.counter = phi i64 [ %[[MID]], %[[FEW]] ], [ %[[NEXT:.*]], %[[LOOP]] ]
; CHECK-NEXT:    %[[P:.*]] = inttoptr i64 %heapprof.walk.counter to ptr
; CHECK-NEXT:    %[[OLD5:.*]] = load i64, ptr %[[P]], align 8, !nosanitize
; CHECK-NEXT:    %[[NEW5:.*]] = add i64 %[[OLD5]], 8
; CHECK-NEXT:    store i64 %[[NEW5]], ptr %[[P]], align 8, !nosanitize
; CHECK-NEXT:    %[[NEXT]] = add i64 %heapprof.walk.counter, 8
; CHECK:       [[CALL]]:
; CHECK-NEXT:    call preserve_allcc void @__heapprof_record_strided(i64 %heapprof.walk.first, i64 8, i64 %n, i64 1)
; CHECK:       done:
; CHECK:         ret double
; CHECK: declare preserve_allcc void @__heapprof_record_strided(i64, i64, i64, i64) [[ATTR:#[0-9]+]]
; nonlazybind: a call from position-independent code goes through the GOT,
; never a lazy PLT entry, whose resolver may clobber r10 and r11, which a
; caller of a preserve_all function keeps live.
; CHECK: attributes [[ATTR]] = { nounwind nonlazybind }
; OFF-LABEL: define double @sum(
; OFF-NOT:       heapprof.walked
; OFF:         loop:
; OFF:           add i64 %heapprof.count{{.*}}, 1
; OFF-NEXT:      store
; OFF-NEXT:      %v = load double, ptr %p
; OFF-NOT:   __heapprof_record_strided
