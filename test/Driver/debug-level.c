// The driver adds -gline-tables-only only when the user chose no -g level;
// -fdebug-info-for-profiling is always added.
// REQUIRES: heapprof-driver
// RUN: heapprof-clang -fheapprof -### -c %s 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: heapprof-clang -fheapprof -g -### -c %s 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: heapprof-clang -fheapprof -g3 -### -c %s 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: heapprof-clang -fheapprof -gdwarf-4 -### -c %s 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: heapprof-clang -fheapprof -g0 -### -c %s 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: env HEAPPROF_CLANG=echo heapprof-clang -fheapprof -g -c %s | FileCheck %s --check-prefix=ARGS

// DEFAULT: "-debug-info-kind=line-tables-only"
// FULL-NOT: line-tables-only
// FULL: "-debug-info-kind=constructor"
// FULL-NOT: line-tables-only
// NONE-NOT: "-debug-info-kind
// ARGS-NOT: -gline-tables-only
// ARGS: {{^}}-g -c {{.*}} -fdebug-info-for-profiling -idirafter {{[^ ]*}}/include{{$}}

int main(void) { return 0; }
