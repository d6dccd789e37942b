; The plugin puts the passes at OptimizerLastEP of every default pipeline,
; -O0 included: after the last function simplification, so they count the
; accesses of optimised code.
; REQUIRES: pass-plugin
; RUN: %opt_heapprof -passes='default<O0>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=O0
; RUN: %opt_heapprof -passes='default<O1>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=OPT
; RUN: %opt_heapprof -passes='default<O2>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=OPT
; RUN: %opt_heapprof -passes='default<O3>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=OPT
; RUN: %opt_heapprof -passes='default<Oz>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=OPT
; RUN: %opt_heapprof -passes='default<O0>' -S %s | FileCheck %s --check-prefixes=IR,IR-O0
; RUN: %opt_heapprof -passes='default<O2>' -S %s | FileCheck %s --check-prefixes=IR,IR-O2

; O0: always-inline,{{.*}}function(heapprof),heapprof-module,
; O0-NOT: heapprof

; OPT: instcombine{{.*}}simplifycfg{{[^,]*}}),function(heapprof),heapprof-module,globaldce,constmerge,
; OPT-NOT: heapprof

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; At -O2 the two loads of %p are one load by the time the pass runs; at -O0
; both are counted (one update of +2: they are back to back on one pointer).
define i32 @f(ptr %p) {
  %a = load i32, ptr %p, align 4
  %b = load i32, ptr %p, align 4
  %s = add i32 %a, %b
  ret i32 %s
}
; IR-LABEL: define {{.*}}i32 @f(
; IR:         load i64, ptr @__heapprof_shadow_memory_dynamic_address
; IR-O0:         ptrtoint ptr %p to i64
; IR-O0:         add i64 %{{.*}}, 2
; IR-O0-NOT:     ptrtoint
; IR-O2:         ptrtoint ptr %p to i64
; IR-O2:         add i64 %{{.*}}, 1
; IR-O2-NOT:     ptrtoint
; IR:       define internal void @heapprof.module_ctor
